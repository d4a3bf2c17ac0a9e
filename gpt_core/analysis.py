"""Numbers the lesson reads off a trace: per-head statistics, a row's softmax and one
score's q·k, by hand."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .attention import AttentionTrace


def head_statistics(weights: torch.Tensor) -> dict[str, torch.Tensor]:
    """Summaries of each head's attention pattern.

    weights: (h, T, T) softmax weights of one sequence, rows sum to 1.
    Returns tensors of shape (h,):
    - ``entropy``: mean row entropy in nats (0 = each query looks at one key; ln(i+1) is
      uniform over the i+1 visible keys);
    - ``max_weight``: mean over queries of the largest weight in the row;
    - ``previous_token``: mean weight a query puts on the token just before it;
    - ``first_token``: mean weight a query puts on the first token.
    The last two average over queries 1..T-1 (query 0 sees only itself); they are 0 when T = 1.
    """
    if weights.dim() != 3 or weights.shape[-1] != weights.shape[-2]:
        raise ValueError(f"weights must have shape (h, T, T), got {tuple(weights.shape)}")
    T = weights.shape[-1]
    plogp = torch.where(weights > 0, weights * weights.clamp_min(1e-30).log(), torch.zeros_like(weights))
    entropy = -plogp.sum(-1).mean(-1)  # (h,)
    max_weight = weights.max(-1).values.mean(-1)  # (h,)
    if T > 1:
        previous_token = torch.diagonal(weights, offset=-1, dim1=-2, dim2=-1).mean(-1)  # (h,)
        first_token = weights[:, 1:, 0].mean(-1)  # (h,)
    else:
        previous_token = first_token = torch.zeros(weights.shape[0], dtype=weights.dtype)
    return {
        "entropy": entropy,
        "max_weight": max_weight,
        "previous_token": previous_token,
        "first_token": first_token,
    }


@dataclass(frozen=True)
class SoftmaxSteps:
    """softmax of one query row, step by step, as torch computes it.

    All tensors have shape (T,), float64. Masked keys have score −inf and exp 0.
    """

    scores: torch.Tensor  # the masked (scaled) scores of the row
    row_max: float  # subtracted first: softmax is unchanged and exp cannot overflow
    exps: torch.Tensor  # exp(score − row_max); exp(−inf) = 0
    total: float  # the sum of the exponentials
    weights: torch.Tensor  # exps / total


def softmax_steps(masked_row: torch.Tensor) -> SoftmaxSteps:
    """The softmax of ``masked_row`` (T,) in the steps a student does by hand."""
    scores = masked_row.detach().to(torch.float64)
    row_max = scores.max().item()
    exps = torch.exp(scores - row_max)
    total = exps.sum().item()
    return SoftmaxSteps(scores=scores, row_max=row_max, exps=exps, total=total, weights=exps / total)


@dataclass(frozen=True)
class QKProducts:
    """One attention score, channel by channel: q_i · k_j as a student computes it by hand.

    Tensors have shape (d,), float64. ``total`` is the raw score (``trace.scores``);
    ``scaled`` is the score after the scaling step (``trace.scaled_scores``): ``total /
    divisor``, with ``divisor`` √d when the layer scales (1 when it does not). ``masked``:
    the causal mask sets this cell to −∞ before the softmax (the score itself still exists).
    """

    q: torch.Tensor  # q_i of the head: (d,)
    k: torch.Tensor  # k_j of the head: (d,)
    products: torch.Tensor  # q_i[c] · k_j[c] for every channel c: (d,)
    total: float  # the sum of the products: the raw score
    divisor: float  # √d, or 1 without scaling
    scaled: float  # total / divisor
    masked: bool


def qk_products(trace: AttentionTrace, head: int, row: int, col: int) -> QKProducts:
    """The raw score of query ``row`` and key ``col`` in ``head`` (0-based), channel by
    channel, from the trace's per-head q and k (``queries_heads``, ``keys_heads``: (B, h, T, d),
    batch 0).

    The divisor is read from the trace: 1 when its scaled scores are its raw scores, else
    √d; a layer that scales by another factor (some real models) gets that factor, taken
    from its own numbers. Raises ``ValueError`` for a head, row or column out of range."""
    queries, keys = trace.queries_heads, trace.keys_heads
    if queries is None or keys is None or trace.scores is None or trace.scaled_scores is None:
        raise ValueError("the trace has no per-head queries, keys and scores (was it filled by a forward pass?)")
    _, h, T, d = queries.shape
    for name, value, limit in (("head", head, h), ("row", row, T), ("col", col, T)):
        if not 0 <= value < limit:
            raise ValueError(f"{name} must be between 0 and {limit - 1} (got {value})")
    q = queries[0, head, row].detach().to(torch.float64)
    k = keys[0, head, col].detach().to(torch.float64)
    products = q * k
    total = products.sum().item()
    divisor = _divisor(trace.scores[0, head], trace.scaled_scores[0, head], d)
    masked = trace.masked_scores is not None and bool(torch.isneginf(trace.masked_scores[0, head, row, col]))
    return QKProducts(q, k, products, total, divisor, total / divisor, masked)


def _divisor(scores: torch.Tensor, scaled: torch.Tensor, d: int) -> float:
    """What the layer divided its (T, T) raw scores by: 1, √d, or (another factor) the ratio
    at its largest score."""
    if torch.equal(scores, scaled):
        return 1.0
    root = math.sqrt(d)
    if torch.allclose(scores.double() / root, scaled.double(), rtol=1e-4, atol=1e-6):
        return root
    index = scores.abs().argmax()
    return (scores.flatten()[index].double() / scaled.flatten()[index].double()).item()
