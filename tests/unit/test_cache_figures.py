"""The full matrix beside a generation's new row: ``heads_overview_figure``'s ``outline_row``
outlines that row's causal part (keys 0 to the query) in every head, in a long text's
window the part the window holds, and refuses a row the matrices do not have."""

from __future__ import annotations

import numpy as np
import pytest

from figures import heads_overview_figure
from figures.palette import HIGHLIGHT_COLOR
from gpt_core.window import window_around
from string_table.figure_words import figure_words

EN = figure_words("en")


def _matrices(heads: int, tokens: int) -> np.ndarray:
    rng = np.random.default_rng(0)
    weights = np.tril(rng.random((heads, tokens, tokens)))
    return weights / weights.sum(-1, keepdims=True)


def _outlines(figure) -> list:
    return [shape for shape in figure.layout.shapes if shape.type == "rect" and shape.line.color == HIGHLIGHT_COLOR]


def test_the_outlined_row_spans_its_keys_in_every_head():
    labels = [f"t{i}" for i in range(7)]
    figure = heads_overview_figure(_matrices(3, 7), labels, "weights", EN, outline_row=4)
    rects = _outlines(figure)
    assert len(rects) == 3 and len({rect.xref for rect in rects}) == 3, "one per head's panel"
    assert {(rect.x0, rect.x1, rect.y0, rect.y1) for rect in rects} == {(-0.5, 4.5, 3.5, 4.5)}
    assert not _outlines(heads_overview_figure(_matrices(3, 7), labels, "weights", EN)), "none unless asked"


def test_a_windows_outline_is_the_part_of_the_row_it_holds():
    tokens = 100
    labels = [f"t{i}" for i in range(tokens)]
    window = window_around(tokens, tokens - 1, tokens - 1)  # the last 48 queries and keys
    assert window.first_query == window.first_key == tokens - 48
    figure = heads_overview_figure(_matrices(2, tokens), labels, "weights", EN, window=window, outline_row=tokens - 1)
    assert {(rect.x0, rect.x1, rect.y0, rect.y1) for rect in _outlines(figure)} == {(-0.5, 47.5, 46.5, 47.5)}
    early = window_around(tokens, 10, 0)  # queries 0-47: row 99 is not in it
    assert not _outlines(
        heads_overview_figure(_matrices(2, tokens), labels, "weights", EN, window=early, outline_row=99)
    )


def test_a_row_outside_the_matrices_is_refused():
    with pytest.raises(IndexError, match="outline_row"):
        heads_overview_figure(_matrices(2, 5), list("abcde"), "weights", EN, outline_row=5)
