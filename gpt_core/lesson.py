"""The numbers of the guided lesson: what each step shows, computed live, and the checks of
the learner's predictions against them.

Every function takes plain values and returns tensors or small records; the lesson page
draws them with the playground's figure builders.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .attention import MultiHeadAttention
from .playground import PlaygroundConfig, build_attention, embed
from .seeding import seeded_generator

BOOK_TEXT = "动手学大模型"  # the chapter's example: 6 characters, 6 tokens
LESSON_HEAD_COUNTS = (1, 2, 4, 8)
SCALING_HEAD_DIMS = (1, 4, 16, 64, 256)
SCALING_SAMPLES = 2000  # rows of random scores per head_dim


def zero_columns(weights_row: torch.Tensor) -> list[int]:
    """The key positions whose weight in this row is exactly 0 (the masked future)."""
    return [int(j) for j in torch.nonzero(weights_row == 0).flatten().tolist()]


def head_channels(heads: int, head_dim: int, head: int) -> range:
    """The channels of Q (and K, V) that belong to ``head`` (1-based): one block of head_dim."""
    if not 1 <= head <= heads:
        raise ValueError(f"head {head} outside 1..{heads}")
    return range((head - 1) * head_dim, head * head_dim)


def parameter_counts(
    embedding: int, head_counts: tuple[int, ...] = LESSON_HEAD_COUNTS, qkv_bias: bool = False
) -> dict[int, dict[str, int]]:
    """For each head count: the parameters of a MultiHeadAttention(embedding → embedding),
    counted on the built module, per layer and in all ("total")."""
    counts = {}
    for heads in head_counts:
        module = MultiHeadAttention(embedding, embedding, 1, 0.0, heads, qkv_bias=qkv_bias)
        per_layer = {
            name: sum(p.numel() for p in layer.parameters())
            for name, layer in module.named_children()
            if any(True for _ in layer.parameters())
        }
        counts[heads] = {**per_layer, "total": sum(p.numel() for p in module.parameters())}
    return counts


def two_ways(text: str, config: PlaygroundConfig) -> tuple[torch.Tensor, torch.Tensor, list[str]]:
    """The layer of ``config`` (random weights) on ``text``'s characters computed both ways:
    batched, all heads at once, and head by head. Returns both outputs (T, C) and the tokens."""
    module = build_attention(config)
    tokens = list(text)
    x = embed(tokens, config.embedding_dim, config.seed, config.positional)
    with torch.no_grad():
        return module(x)[0], head_by_head(module, x)[0], tokens


def head_by_head(module: MultiHeadAttention, x: torch.Tensor) -> torch.Tensor:
    """The module's output computed one head at a time, each from its own slice of the
    Q, K and V weights, then concatenated and projected: the same numbers as the batched
    forward (eval mode; dropout is not applied)."""
    h, d = module.num_heads, module.head_dim
    T = x.shape[1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    contexts = []
    for head in range(1, h + 1):
        rows = slice((head - 1) * d, head * d)
        q, k, v = (_sliced(layer, rows, x) for layer in (module.query_layer, module.key_layer, module.value_layer))
        scores = q @ k.transpose(-2, -1)  # (B, T, T) for this head alone
        if module.scale:
            scores = scores / math.sqrt(d)
        weights = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
        contexts.append(weights @ v)  # (B, T, d)
    return module.output_layer(torch.cat(contexts, dim=-1))  # (B, T, C)


def _sliced(layer: torch.nn.Linear, rows: slice, x: torch.Tensor) -> torch.Tensor:
    bias = layer.bias[rows] if layer.bias is not None else None
    return torch.nn.functional.linear(x, layer.weight[rows], bias)


@dataclass(frozen=True)
class ScalingRow:
    head_dim: int
    score_std: float  # spread of q·k for random unit-variance q, k: grows like √head_dim
    scaled_std: float  # after ÷ √head_dim: about 1 whatever head_dim
    max_weight: float  # mean largest softmax weight of a row, without scaling
    scaled_max_weight: float  # the same with scaling


def scaling_table(tokens: int, head_dims: tuple[int, ...] = SCALING_HEAD_DIMS, seed: int = 0) -> list[ScalingRow]:
    """Why divide by √head_dim: for random q and k with unit-variance entries, the scores'
    spread grows with √head_dim and the softmax of a row of ``tokens`` scores saturates
    (its largest weight nears 1); dividing keeps both where they were."""
    generator = seeded_generator(seed)
    rows = []
    for d in head_dims:
        q = torch.randn(SCALING_SAMPLES, 1, d, generator=generator)
        k = torch.randn(SCALING_SAMPLES, tokens, d, generator=generator)
        scores = (q @ k.transpose(-2, -1)).squeeze(1)  # (samples, tokens)
        scaled = scores / math.sqrt(d)
        rows.append(
            ScalingRow(
                d,
                scores.std().item(),
                scaled.std().item(),
                torch.softmax(scores, -1).max(-1).values.mean().item(),
                torch.softmax(scaled, -1).max(-1).values.mean().item(),
            )
        )
    return rows


def example_scores(tokens: int, head_dim: int, seed: int = 0) -> torch.Tensor:
    """One query's scores against ``tokens`` keys (random unit-variance q, k), unscaled."""
    generator = seeded_generator(seed)
    q = torch.randn(head_dim, generator=generator)
    k = torch.randn(tokens, head_dim, generator=generator)
    return k @ q
