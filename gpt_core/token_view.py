"""One token seen by every head: its attention row as a query (what it reads) and its
column as a key (who reads it), in every layer, and the strongest of those links.

Pure torch, no drawing: the explorer's and the playground's token view read these numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

DIRECTIONS = ("reads", "read_by")  # the row (what the token reads), the column (who reads it)
STRONGEST_LINKS = 5


@dataclass(frozen=True)
class TokenAttention:
    """Token ``position`` in every layer and head.

    rows: (layers, h, T), ``rows[l, h] = w[l, h, position, :]``: what the token reads; keys
    after it are masked, exactly 0, and each row sums to 1.
    columns: (layers, h, T), ``columns[l, h] = w[l, h, :, position]``: how much each query
    reads the token; queries before it cannot see it, exactly 0."""

    position: int
    rows: torch.Tensor
    columns: torch.Tensor

    @property
    def layers(self) -> int:
        return self.rows.shape[0]

    @property
    def heads(self) -> int:
        return self.rows.shape[1]

    @property
    def tokens(self) -> int:
        return self.rows.shape[2]


@dataclass(frozen=True)
class Link:
    """One link of the token in one head: in layer ``layer`` (0-based) head ``head`` (0-based),
    the token reads ``other`` (direction "reads") or is read by ``other`` ("read_by") with
    weight ``weight``."""

    layer: int
    head: int
    other: int
    weight: float
    direction: str


def _layer(weights: torch.Tensor | np.ndarray) -> torch.Tensor:
    """One layer's weights as (h, T, T): a batch of one is read as its only sequence."""
    tensor = torch.as_tensor(weights)
    if tensor.ndim == 4:
        if tensor.shape[0] != 1:
            raise ValueError(f"weights of shape {tuple(tensor.shape)}: one sequence (a batch of 1) is looked at")
        tensor = tensor[0]
    if tensor.ndim != 3 or tensor.shape[-1] != tensor.shape[-2]:
        raise ValueError(f"weights of shape {tuple(tensor.shape)}, expected (h, T, T) or (1, h, T, T)")
    return tensor


def token_attention(
    weights: Sequence[torch.Tensor | np.ndarray] | torch.Tensor | np.ndarray, position: int
) -> TokenAttention:
    """Token ``position``'s row and column in every head of every layer.

    weights: one softmax-weight array per layer, each (h, T, T) or (1, h, T, T) (a stacked
    (layers, h, T, T) array is read as its layers). A negative ``position`` counts from the
    end, as Python's indexing does; one outside the tokens raises ``IndexError``."""
    layers = [_layer(layer) for layer in weights]
    if not layers:
        raise ValueError("no layers")
    shapes = {tuple(layer.shape) for layer in layers}
    if len(shapes) != 1:
        raise ValueError(f"the layers' weights differ in shape: {sorted(shapes)}")
    T = layers[0].shape[-1]
    if not -T <= position < T:
        raise IndexError(f"position {position} is outside the {T} tokens")
    position %= T
    # The token's row and column of each layer, stacked: never the layers' whole matrices (a
    # long text's 12 layers of 12 × 512 × 512 are 150 MB).
    rows = torch.stack([layer[:, position, :] for layer in layers])
    columns = torch.stack([layer[:, :, position] for layer in layers])
    return TokenAttention(position, rows, columns)


def strongest_links(token: TokenAttention, direction: str = "reads", n: int = STRONGEST_LINKS) -> list[Link]:
    """The ``n`` largest weights of the token's rows ("reads": the keys it reads) or columns
    ("read_by": the queries that read it) across every layer and head, largest first (ties:
    the earlier layer, head, position first). Masked entries (exactly 0) are never links."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction {direction!r}: one of {DIRECTIONS}")
    values = token.rows if direction == "reads" else token.columns
    T, i = token.tokens, token.position
    others = torch.arange(T)
    visible = others <= i if direction == "reads" else others >= i  # keys up to i, queries from i
    masked = values.masked_fill(~visible, float("-inf")).reshape(-1)
    order = torch.sort(masked, descending=True, stable=True).indices  # ties: in (layer, head, position) order
    count = min(max(n, 0), int(visible.sum()) * token.layers * token.heads)
    links = []
    for index in order[:count].tolist():
        layer, rest = divmod(index, token.heads * T)
        head, other = divmod(rest, T)
        links.append(Link(layer, head, other, float(values[layer, head, other]), direction))
    return links
