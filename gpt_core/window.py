"""Windows over a long text: which queries and keys a view shows once T is too large for every
cell to be legible, the whole T × T matrix downsampled to a small overview, and how much of a
query's attention falls outside the window.

At a classroom projector's 1366 × 768 a panel is at most about 440 px wide: 48 tokens give
cells of about 9 px, the smallest that still take a hover and show a pattern, and 64 tokens
about 7 px. Above ``LONG_TEXT_TOKENS`` a view shows ``WINDOW_TOKENS`` queries and keys around
the chosen cell, and beside it the whole matrix in blocks of a few tokens each, every block
the largest value in it (a sharp head stays visible; a mean would wash it out).

Pure numpy on arrays a trace already holds: nothing here computes attention.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

LONG_TEXT_TOKENS = 64  # more tokens than this: views show a window
WINDOW_TOKENS = 48  # queries (and keys) a window shows
OVERVIEW_BLOCKS = 64  # at most this many blocks a side in the overview
LONGEST_TEXT_TOKENS = 512  # the most tokens any source reads of a text (a real model's; random weights 128)


@dataclass(frozen=True)
class Window:
    """``size`` queries from ``first_query`` and ``size`` keys from ``first_key`` of a T × T
    matrix (square, so a window's cells are as large as a short text's)."""

    tokens: int
    first_query: int
    first_key: int
    size: int

    @property
    def queries(self) -> range:
        return range(self.first_query, self.first_query + self.size)

    @property
    def keys(self) -> range:
        return range(self.first_key, self.first_key + self.size)

    @property
    def whole(self) -> bool:
        """Whether the window is the whole matrix (a short text)."""
        return self.size == self.tokens

    @property
    def origin(self) -> tuple[int, int]:
        """The whole matrix's (query, key) of the window's first cell."""
        return (self.first_query, self.first_key)

    def contains(self, query: int, key: int) -> bool:
        return query in self.queries and key in self.keys

    def local(self, cell: tuple[int, int] | None) -> tuple[int, int] | None:
        """The whole matrix's ``cell`` (query, key) as the window's own row and column;
        None when there is no cell or the window does not hold it."""
        if cell is None or not self.contains(*cell):
            return None
        return (cell[0] - self.first_query, cell[1] - self.first_key)

    def cut(self, matrix: np.ndarray) -> np.ndarray:
        """The window's cells of ``matrix`` (…, T, T)."""
        if matrix.shape[-2:] != (self.tokens, self.tokens):
            raise ValueError(
                f"a window of {self.tokens} tokens cuts (…, {self.tokens}, {self.tokens}), not {matrix.shape}"
            )
        return matrix[..., self.first_query : self.first_query + self.size, self.first_key : self.first_key + self.size]


def _first(centre: int, size: int, tokens: int) -> int:
    return min(max(centre - size // 2, 0), tokens - size)


def _position(value: int, tokens: int) -> int:
    """A position as a link gives it: negative counts from the end (−1 is the last token);
    out of range is clamped."""
    if value < 0:
        value += tokens
    return min(max(value, 0), tokens - 1)


def first_key(tokens: int, row: int, long_from: int = LONG_TEXT_TOKENS) -> int:
    """The key a view chooses with the query ``row`` before anyone chose one: a short text's
    first (the whole matrix is shown); in a long text, the query's own key, so that the window
    holds the keys around the query, the diagonal in view (the first key of the last query
    would show queries 80–127 × keys 0–47 of 128, every weight small and no diagonal)."""
    return _position(row, tokens) if tokens > long_from else 0


def window_around(
    tokens: int, row: int, col: int, size: int = WINDOW_TOKENS, long_from: int = LONG_TEXT_TOKENS
) -> Window:
    """The window a view shows for the chosen cell (``row``, ``col``): the whole matrix up to
    ``long_from`` tokens, else ``size`` queries centred on the row and ``size`` keys centred
    on the column, moved inwards at the edges so that it is always ``size`` tokens."""
    if tokens < 1:
        raise ValueError("a window needs at least one token")
    if tokens <= long_from:
        return Window(tokens, 0, 0, tokens)
    size = min(size, tokens)
    row, col = _position(row, tokens), _position(col, tokens)
    return Window(tokens, _first(row, size, tokens), _first(col, size, tokens), size)


@dataclass(frozen=True)
class Blocks:
    """A T × T matrix in n × n blocks of ``size`` tokens a side (the last may be shorter):
    ``values[i, j]`` is the largest value of block (i, j), −∞ where every cell is masked."""

    values: np.ndarray  # (n, n) float32
    size: int
    tokens: int

    def first_token(self, block: int) -> int:
        return block * self.size

    def block_of(self, position: int) -> int:
        return position // self.size


def block_size(tokens: int, blocks: int = OVERVIEW_BLOCKS) -> int:
    """Tokens a block side so that the overview has at most ``blocks`` blocks a side."""
    return max(1, math.ceil(tokens / blocks))


def block_max(matrix: np.ndarray, blocks: int = OVERVIEW_BLOCKS) -> Blocks:
    """``matrix`` (T, T) downsampled to at most ``blocks`` × ``blocks``: each block's largest
    value (NaN cells are left out; a block of −∞ cells only, above the diagonal, stays −∞)."""
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"block_max takes a square matrix, not {matrix.shape}")
    tokens = matrix.shape[0]
    size = block_size(tokens, blocks)
    n = math.ceil(tokens / size)
    padded = np.full((n * size, n * size), -np.inf, dtype=np.float32)
    padded[:tokens, :tokens] = np.where(np.isnan(matrix), -np.inf, matrix)
    values = padded.reshape(n, size, n, size).max(axis=(1, 3))
    return Blocks(values, size, tokens)


def weight_outside(weights: np.ndarray, window: Window) -> np.ndarray:
    """For each query of the window, the share of its attention weights (a row of
    ``weights``, (T, T), summing to 1) on keys outside the window's keys."""
    weights = np.asarray(weights, dtype=np.float64)
    rows = weights[window.first_query : window.first_query + window.size]
    outside = np.ones(window.tokens, dtype=bool)
    outside[window.first_key : window.first_key + window.size] = False
    return rows[:, outside].sum(axis=1)
