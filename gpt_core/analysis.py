"""Numbers the lesson reads off a trace: per-head statistics and a row's softmax, by hand."""

from __future__ import annotations

from dataclasses import dataclass

import torch


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
