"""The room's answers chart (figures/room.py): one bar per option with the counts given,
in order; nothing marked before the reveal; the right options marked after it; labels
escaped; valid Plotly."""

from __future__ import annotations

import plotly.graph_objects as go

from figures.room import BAR_PX, answer_counts, answers_figure
from figures.words import Words

WORDS = Words({"rmfig.title": "The class's answers", "rmfig.count_axis": "students", "rmfig.right": "right"})
LABELS = ["6 × 6", "6 × 4", "4 × 4"]


def _bars(figure) -> dict:
    return figure.to_plotly_json()["data"][0] if hasattr(figure, "to_plotly_json") else figure.data[0]


def test_each_option_has_its_count_in_order_and_unknown_indices_are_dropped():
    assert answer_counts(3, {2: 5, 0: 1, 7: 9}) == [1, 0, 5]
    assert answer_counts(0, {0: 1}) == []
    bars = _bars(answers_figure(LABELS, {2: 5, 0: 1, 7: 9}, WORDS))
    assert list(bars["y"]) == LABELS
    assert list(bars["x"]) == [1, 0, 5]
    assert list(bars["text"]) == ["1", "0", "5"]


def test_before_the_reveal_no_bar_stands_out():
    bars = _bars(answers_figure(LABELS, {0: 3, 1: 1}, WORDS, right=None))
    assert len(set(bars["marker"]["color"])) == 1
    assert not any("✓" in label for label in bars["y"])


def test_after_the_reveal_the_right_options_are_marked_and_coloured():
    bars = _bars(answers_figure(LABELS, {0: 3, 1: 1}, WORDS, right=[0, 2]))
    assert list(bars["y"]) == ["6 × 6 ✓", "6 × 4", "4 × 4 ✓"]
    colors = bars["marker"]["color"]
    assert colors[0] == colors[2] != colors[1]


def test_labels_are_escaped_for_plotly():
    bars = _bars(answers_figure(["<b>x</b>", "a & b"], {}, WORDS))
    assert list(bars["y"]) == ["&lt;b&gt;x&lt;/b&gt;", "a &amp; b"]


def test_the_chart_grows_with_its_options_and_its_axis_counts_whole_students():
    small, large = answers_figure(LABELS, {0: 2}, WORDS), answers_figure(LABELS * 2, {0: 2}, WORDS)
    assert large.layout.height - small.layout.height == 3 * BAR_PX
    assert small.layout.xaxis.dtick == 1 and small.layout.xaxis.range[1] >= 2
    busy = answers_figure(LABELS, {0: 40, 1: 7}, WORDS)
    assert busy.layout.xaxis.dtick == 8 and busy.layout.xaxis.range[1] > 40


def test_the_figure_is_valid_plotly():
    figure = answers_figure(LABELS, {0: 3, 2: 1}, WORDS, right=[0])
    valid = go.Figure(figure.to_plotly_json())  # validates every property
    assert valid.layout.title.text == "The class's answers"
    assert valid.layout.xaxis.title.text == "students"
    assert list(valid.data[0].x) == [3, 0, 1]


def test_a_choice_becomes_its_options_indices_and_anything_else_is_refused():
    from ui.room.student import picked_indices

    options = ["6 × 6", "6 × 4", "4 × 4"]
    assert picked_indices(options, "4 × 4", many=False) == [2]
    assert picked_indices(options, None, many=False) == []
    assert picked_indices([0, 1, 2, 3], [3, 1], many=True) == [3, 1]
    assert picked_indices([0, 1, 2, 3], [], many=True) == []
    for crafted in (0, "6x6", ["6 × 6"], 2.0):  # what a crafted client may send for a radio
        assert picked_indices(options, crafted, many=False) is None, crafted
    assert picked_indices([0, 1, 2, 3], [7], many=True) is None
    assert picked_indices([0, 1, 2, 3], 5, many=True) is None
