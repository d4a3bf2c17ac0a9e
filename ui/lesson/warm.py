"""The lesson's first figures, made before a server process says it is ready (ui/warm.py):
the traces its first steps draw from, into the cache every session shares
(ui/shared/sources.py), and step 1's figure built once, so that the first students of a
fresh process find the numbers made and Plotly's figure code loaded."""

from __future__ import annotations

from figures import qkv_figure
from figures.sizing import DEFAULT_WIDTH_PX
from figures.wire import wire_dict, wire_json
from gpt_core.lesson import BOOK_TEXT
from string_table import LANGUAGES
from string_table.figure_words import figure_words

from .steps import FIRST_HEAD_DIM, LESSON_HEAD_DIM, LESSON_HEADS, traced

# The (heads, head_dim) the lesson's first steps trace the book's text with, as they open.
FIRST_TRACES = ((1, FIRST_HEAD_DIM), (LESSON_HEADS, LESSON_HEAD_DIM))


def warm() -> list[str]:
    """Make the lesson's first numbers and figure; returns what was made, in words."""
    made = []
    for heads, head_dim in FIRST_TRACES:
        traced(BOOK_TEXT, heads, head_dim, "en")  # a trace does not depend on the language
        made.append(f"lesson trace h={heads} d={head_dim}")
    result = traced(BOOK_TEXT, 1, FIRST_HEAD_DIM, "en")
    layer = result.layers[0]
    head = (layer.queries_heads[0, 0].numpy(), layer.keys_heads[0, 0].numpy(), layer.values_heads[0, 0].numpy())
    for lang in sorted(LANGUAGES):
        wire_json(wire_dict(qkv_figure(*head, result.labels, figure_words(lang), DEFAULT_WIDTH_PX)))
        made.append(f"lesson step 1 figure ({lang})")
    return made
