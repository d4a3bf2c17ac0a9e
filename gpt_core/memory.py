"""Memory: about the most one training step of a model takes, before it is taken.

A run is refused before its first step when this estimate is above its budget
(``TrainConfig.max_bytes``), and the refusal names the largest model that would fit.
"""

from __future__ import annotations

from dataclasses import replace

from .model import GPT, GPTConfig

# Peak memory of a training step, all float32 (see estimate_training_bytes).
FLOAT_BYTES = 4
# Per parameter: the weights, their gradients, AdamW's two moments, and one more copy for
# the temporaries of AdamW's and gradient clipping's vectorized (foreach) updates.
COPIES_PER_PARAMETER = 5
# Numbers per position and embedding channel each block keeps for the backward pass: its
# input and LayerNorm output (2), q, k, v (3), attention output and its contiguous copy (2),
# the projection and the residual sum (2), the second LayerNorm output (1), the MLP's hidden
# layer before and after GELU (2 × 4), its output (1), and a margin for the gradients that
# are alive while the backward pass runs (3).
ACTIVATIONS_PER_CHANNEL = 20
# Numbers per head, query and key kept per block: the attention scores, weights and
# dropped-out weights of the readable path (torch's fused kernel keeps fewer: a margin).
ATTENTION_MATRICES = 3
# Numbers per position and vocabulary entry: the logits, their log-softmax, their gradient.
LOGIT_COPIES = 3
# Whatever the model: the batch, an evaluation batch, the allocator's slack (measured: a
# tiny model's step grows the process by a few MB more than its tensors).
RUN_OVERHEAD_BYTES = 8 * 2**20


def estimate_training_bytes(model: GPT | GPTConfig, batch_size: int) -> int:
    """About the most memory one training step of ``model`` (or a model of that config) takes,
    in bytes: the weights, gradients and AdamW's state, plus what the forward pass keeps for
    the backward one (every block's activations and attention matrices, and the logits). A
    little generous: a step's measured peak growth is below it (tests/unit/test_memory_bound.py)."""
    config = model.config if isinstance(model, GPT) else model
    parameters = GPT(config, device="meta").parameter_count()
    positions = batch_size * config.context_length
    numbers = (
        COPIES_PER_PARAMETER * parameters
        + positions * config.embedding_dim * (ACTIVATIONS_PER_CHANNEL * config.blocks + 4)  # + embeddings, final norm
        + ATTENTION_MATRICES * batch_size * config.heads * config.context_length**2 * config.blocks
        + LOGIT_COPIES * positions * config.vocab_size
    )
    return numbers * FLOAT_BYTES + RUN_OVERHEAD_BYTES


def largest_fitting_parameters(config: GPTConfig, batch_size: int, max_bytes: int) -> int:
    """The parameters of the largest model that fits ``max_bytes``: the same heads, blocks and
    context with a smaller head_dim, else fewer blocks too (the estimate is not quite linear in
    the parameters: the attention matrices and logits do not shrink with head_dim)."""
    candidates = [replace(config, embedding_dim=config.heads * d) for d in range(config.head_dim - 1, 0, -1)]
    candidates += [replace(config, embedding_dim=config.heads, blocks=b) for b in range(config.blocks - 1, 0, -1)]
    for candidate in candidates:
        if estimate_training_bytes(candidate, batch_size) <= max_bytes:
            return GPT(candidate, device="meta").parameter_count()
    return 0
