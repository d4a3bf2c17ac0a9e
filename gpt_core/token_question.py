"""The token question: "which earlier token will token N read most in head h?", answered by
the head's own softmax row. Pure torch: the strongest keys of a row (every tie is right), and
the rule that picks a trained head with a visible pattern (the previous-token head)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch

MAX_QUERY = 63  # a room stores option indices up to 63 (classroom Limits.option_index)
# Step 11's trained head: a shipped model (by default of 4 heads, as steps 8 and 9) on this prompt.
TRAINED_PROMPT = "ROMEO:\nBut"  # 10 characters: 9 rows shown before, cells legible on a projector
TRAINED_HEADS = 4


@dataclass(frozen=True)
class Strongest:
    """A row's strongest keys (all tied at the maximum), its weight, and its lead over the
    strongest other key (0 when the row has one key or a tie)."""

    keys: tuple[int, ...]
    weight: float
    lead: float


def strongest_keys(row: torch.Tensor) -> Strongest:
    """The keys of ``row`` (one query's softmax weights over its visible keys) at the maximum."""
    top = row.max()
    keys = tuple(int(k) for k in torch.nonzero(row == top).flatten())
    others = row[row != top]
    lead = float(top - others.max()) if others.numel() else 0.0
    return Strongest(keys, float(top), lead)


def previous_token_share(weights: torch.Tensor) -> torch.Tensor:
    """(h,) for ``weights`` (h, T, T): the share of queries 1..T-1 whose largest weight is
    on the token just before them (query 0 has no previous token)."""
    T = weights.shape[-1]
    if T < 2:
        return torch.zeros(weights.shape[0])
    previous = torch.arange(T - 1)
    return (weights[:, 1:, :].argmax(-1) == previous).float().mean(-1)


def previous_token_head(layers: Sequence[torch.Tensor]) -> tuple[int, int, float]:
    """(layer, head, share): the head of ``layers`` (each (h, T, T)) whose rows most often
    put their maximum on the previous token; the first such head (lowest layer, then head)
    when several share it."""
    best = (0, 0, -1.0)
    for layer, weights in enumerate(layers):
        shares = previous_token_share(weights)
        head = int(shares.argmax())
        if float(shares[head]) > best[2]:
            best = (layer, head, float(shares[head]))
    return best


@dataclass(frozen=True)
class TokenRow:
    """What a token question's figures draw: the keys' display labels, the query's real
    softmax weights over them, and the head (0-based, for its colour)."""

    labels: tuple[str, ...]
    weights: tuple[float, ...]
    head: int
