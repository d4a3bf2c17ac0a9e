"""What a trained GPT's heads do with a prompt: every block's attention trace for the text
(the model's real stream into each block), and per-head metrics that name a head's kind.

The foundation of the trained-heads explorer; pure torch, no drawing.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import torch

from .analysis import head_statistics
from .attention import Trace
from .data import CharVocabulary
from .errors import InputError
from .generate import choose_next
from .model import GPT, GPTTrace
from .tokens import display_labels

# A head is of a kind when it puts at least KIND_THRESHOLD of its weight there on average (more
# than on any other kind's place) and at least KIND_OVER_EVEN times what attention spread evenly
# over the visible keys would put there: on two tokens even attention gives the previous token,
# the first token and itself 0.5 each, which says nothing of the head.
KIND_THRESHOLD = 0.4
KIND_OVER_EVEN = 2.0
POSITIONAL_KINDS = ("previous", "first", "self")  # measured on the text (induction: on its own test)
HEAD_KINDS = ("previous", "first", "self", "induction", "broad")


@dataclass
class GenerationStep:
    """One generated character and the attention that chose it."""

    char: str  # the new character
    context: str  # the characters the model read to choose it (at most its context)
    rows: torch.Tensor  # (blocks, h, T_ctx): the last query's softmax weights over the context


def readable_characters(vocabulary: CharVocabulary, text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` without the characters ``vocabulary`` lacks, and those characters (sorted).
    Raises ``InputError`` for empty text or when nothing readable is left."""
    if not text.strip():
        raise InputError("empty_text")
    left_out = tuple(sorted(vocabulary.unknown(text)))
    known = "".join(char for char in text if char not in left_out)
    if not known:
        raise InputError("no_known_characters", characters=len(text))
    return known, left_out


def trace_model(model: GPT, vocabulary: CharVocabulary, text: str) -> Trace:
    """Run ``text`` through ``model`` (eval mode, no gradients) and keep every block's trace.

    Characters the vocabulary lacks are left out (and listed); text longer than the model's
    context is cut to its first ``context_length`` characters (and counted). Raises
    ``InputError`` when nothing readable is left."""
    known, left_out = readable_characters(vocabulary, text)
    context = model.config.context_length
    used = known[:context]
    trace = GPTTrace()
    was_training = model.training
    model.eval()
    with torch.no_grad():
        model(torch.tensor([vocabulary.encode(used)]), trace=trace)
    model.train(was_training)
    layers = list(trace.layers)
    return Trace(
        list(used),
        display_labels(list(used)),
        used,
        layers,
        [layer.weights for layer in layers],
        cut=len(known) - len(used),
        left_out=left_out,
        token_ids=vocabulary.encode(used),
    )


def head_metrics(weights: torch.Tensor) -> dict[str, torch.Tensor]:
    """Per head, from (h, T, T) softmax weights: the mean weight on the previous token, on
    the first token and on itself (over queries 1..T-1, which have a choice), the mean row
    entropy in nats, and what even attention would give one of those keys (``even_share``)."""
    stats = head_statistics(weights)
    T = weights.shape[-1]
    own = torch.diagonal(weights, dim1=-2, dim2=-1)[:, 1:].mean(-1) if T > 1 else torch.zeros(weights.shape[0])
    return {
        "previous": stats["previous_token"],
        "first": stats["first_token"],
        "self": own,
        "entropy": stats["entropy"],
        "even": torch.full((weights.shape[0],), even_share(T)),
    }


def even_share(T: int) -> float:
    """The mean weight one key (the previous, the first, itself) gets from attention spread
    evenly over the visible keys, over queries 1..T-1: the mean of 1/(i+1); 0 when T = 1."""
    return sum(1 / (i + 1) for i in range(1, T)) / (T - 1) if T > 1 else 0.0


def induction_scores(weights: torch.Tensor, n: int, offset: int = 0) -> torch.Tensor:
    """Per head, from (h, T, T) weights of a sequence whose tokens ``offset .. offset+n-1`` come
    again at ``offset+n .. offset+2n-1``: the mean weight each query of the second copy puts on
    the token after its earlier occurrence (an induction head's signature: "after A came B
    before, so look at B")."""
    queries = torch.arange(offset + n, offset + 2 * n)
    keys = queries - n + 1
    return weights[:, queries, keys].mean(-1)


def induction_text(vocabulary: CharVocabulary, n: int, seed: int = 0) -> str:
    """``n`` random characters of the vocabulary (seeded), twice: the induction test for a
    character model."""
    generator = torch.Generator().manual_seed(seed)
    picks = torch.randint(len(vocabulary.chars), (n,), generator=generator).tolist()
    chars = "".join(vocabulary.chars[i] for i in picks)
    return chars + chars


def head_kind(metrics: dict[str, torch.Tensor], head: int) -> str:
    """ "previous" (a previous-token head), "first" (a first-token sink), "self", "induction"
    (when ``metrics`` has induction scores), or "broad": the kind whose mean weight is largest,
    when it is at least KIND_THRESHOLD and, for the kinds measured on the text, at least
    KIND_OVER_EVEN times what even attention gives there (``metrics["even"]``, when given);
    else broad."""
    weights = {
        kind: metrics[kind][head].item() for kind in ("previous", "first", "self", "induction") if kind in metrics
    }
    kind, weight = max(weights.items(), key=lambda item: item[1])
    even = metrics["even"][head].item() if kind in POSITIONAL_KINDS and "even" in metrics else 0.0
    return kind if weight >= KIND_THRESHOLD and weight >= KIND_OVER_EVEN * even else "broad"


def generate_characters(
    model: GPT,
    vocabulary: CharVocabulary,
    prompt: str,
    n: int,
    temperature: float = 0.0,
    seed: int = 0,
    top_k: int | None = None,
    max_seconds: float | None = None,
) -> list[GenerationStep]:
    """Continue ``prompt`` by ``n`` characters, as ``gpt_core.generate`` does with the same
    ``temperature`` (0: greedy), ``top_k``, ``seed`` and ``max_seconds`` (fewer characters once
    the next would not be done in time), and keep, for each new character, the attention row of
    the last query (the position that predicts it) in every block and head.

    Characters the vocabulary lacks are left out of the prompt; raises ``InputError`` when
    nothing readable is left."""
    if not prompt.strip():
        raise InputError("empty_text")
    unknown = vocabulary.unknown(prompt)
    known = "".join(char for char in prompt if char not in unknown)
    if not known:
        raise InputError("no_known_characters", characters=len(prompt))
    context_length = model.config.context_length
    generator = torch.Generator().manual_seed(seed)
    text, steps = known, []
    began, slowest = time.perf_counter(), 0.0
    was_training = model.training
    model.eval()
    with torch.no_grad():
        for _ in range(n):
            if max_seconds is not None and time.perf_counter() - began + slowest > max_seconds:
                break
            tick = time.perf_counter()
            context = text[-context_length:]
            trace = GPTTrace()  # one traced forward: the logits that choose, and the rows behind them
            logits, _ = model(torch.tensor([vocabulary.encode(context)]), trace=trace)
            char = vocabulary.decode([choose_next(logits[0, -1], temperature, top_k, generator)])
            rows = torch.stack([layer.weights[0, :, -1, :] for layer in trace.layers])  # (blocks, h, T_ctx)
            steps.append(GenerationStep(char, context, rows))
            text += char
            slowest = max(slowest, time.perf_counter() - tick)
    model.train(was_training)
    return steps


def _per_layer(weights: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    """Each layer's weights as (h, T, T) float64, checked: a non-empty list, one sequence
    (a batch of one), square, the same T in every layer. Raises ``ValueError``."""
    if len(weights) == 0:
        raise ValueError("attention rollout needs the weights of at least one layer (got an empty list)")
    layers, size = [], None
    for index, layer in enumerate(weights):
        layer = torch.as_tensor(layer).detach().to(torch.float64)
        if layer.dim() == 4:
            if layer.shape[0] != 1:
                raise ValueError(
                    f"layer {index}: weights (B, h, T, T) must hold one sequence, got B = {layer.shape[0]}"
                )
            layer = layer[0]
        if layer.dim() != 3 or layer.shape[-1] != layer.shape[-2]:
            raise ValueError(
                f"layer {index}: weights must have shape (h, T, T) or (1, h, T, T), got {tuple(layer.shape)}"
            )
        if size is not None and layer.shape[-1] != size:
            raise ValueError(
                f"layer {index} has T = {layer.shape[-1]} tokens, layer 0 has T = {size}: every layer must read the same tokens"
            )
        size = layer.shape[-1]
        layers.append(layer)
    return layers


def mean_over_heads(weights: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    """Each layer's attention with its heads averaged: a list of (T, T) float64, from a list
    of per-layer weights (h, T, T) or (1, h, T, T). Rows still sum to 1, the future is still 0."""
    return [layer.mean(0) for layer in _per_layer(weights)]


def attention_rollout(weights: Sequence[torch.Tensor]) -> torch.Tensor:
    """Attention rollout (Abnar & Zuidema, 2020): how much each query position draws on each
    input position through every layer, (T, T) float64, rows summing to 1.

    Per layer, the heads are averaged (A), the residual stream is modelled as half identity
    (½A + ½I), and rows are renormalised to sum 1 (Â); the layers are then multiplied from the
    first up: rollout = Â_L · … · Â_1. It assumes linear mixing and ignores the values, the
    output projections and the MLPs: a picture of where attention flows, not an explanation
    of the output. weights: per layer (h, T, T) or (1, h, T, T). Raises ``ValueError`` for an
    empty list or layers of different T."""
    rollout = None
    for mean in mean_over_heads(weights):
        mixed = 0.5 * mean + 0.5 * torch.eye(mean.shape[-1], dtype=mean.dtype)
        mixed = mixed / mixed.sum(-1, keepdim=True)
        rollout = mixed if rollout is None else mixed @ rollout
    return rollout
