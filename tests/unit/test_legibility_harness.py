"""The collision detector of harness/legibility.py on hand-made boxes: it must flag real
overlaps and pass a legible layout."""

from __future__ import annotations

from harness.legibility import (
    AXIS_TITLE,
    COLORBAR_TICK,
    PANEL_TITLE,
    TICK,
    Box,
    Chart,
    Subplot,
    Text,
    clipped,
    collisions,
    intrusions,
    label_problems,
    parse_charts,
    problems,
)

LEFT = Subplot("xy", "x", "y", Box(100, 100, 300, 300), tokens=6)
RIGHT = Subplot("x2y2", "x2", "y2", Box(360, 100, 560, 300), tokens=6)


def tick(text, x0, y0, x1, y1, axis="x", value=None):
    return Text(TICK, text, Box(x0, y0, x1, y1), axis, value)


def test_overlapping_boxes_collide():
    a = tick("0 · a", 100, 300, 130, 319)
    b = tick("1 · b", 125, 300, 155, 319)
    assert collisions([a, b]) == [(a, b)]


def test_touching_boxes_and_one_pixel_of_overlap_do_not():
    a = tick("0 · a", 100, 300, 130, 319)
    touching = tick("1 · b", 130, 300, 160, 319)
    one_px = tick("2 · c", 159, 300, 189, 319)  # shares exactly 1 px with ``touching``
    assert collisions([a, touching, one_px]) == []
    assert collisions([a, tick("1 · b", 128.5, 300, 160, 319)]), "1.5 px is more than the tolerance"


def test_boxes_overlapping_across_but_not_down_do_not_collide():
    above = tick("0 · a", 100, 280, 130, 299, axis="y")
    below = tick("1 · b", 100, 300, 130, 319, axis="y")
    assert collisions([above, below]) == []


def test_every_pair_is_found_whatever_the_order():
    texts = [tick(f"{i} · x", 100 + 5 * i, 300, 140 + 5 * i, 319) for i in range(5)]
    assert len(collisions(list(reversed(texts)))) == 10
    wide = Text(PANEL_TITLE, "a long title", Box(0, 0, 1000, 20))
    small = tick("9 · z", 900, 10, 920, 29)  # starts far right of the title's left edge
    assert collisions([small, wide]) == [(wide, small)]


def test_tick_labels_collide_with_titles():
    label = tick("5 · f", 60, 280, 98, 299, axis="y")
    title = Text(AXIS_TITLE, "query (row)", Box(70, 150, 90, 290), "y")
    assert collisions([label, title]) == [(label, title)]


def test_a_label_inside_a_foreign_panel_intrudes():
    # y label of the right panel, long enough to reach back into the left panel's plot area
    label = tick("3 · interpretab…", 280, 190, 358, 209, axis="y2")
    assert intrusions([label], [LEFT, RIGHT]) == [(label, LEFT)]


def test_a_label_in_its_own_panels_margin_does_not():
    own_margin = tick("3 · word", 305, 190, 358, 209, axis="y2")  # in the gap, left of its own panel
    bottom = tick("2 · c", 150, 301, 169, 350, axis="x")  # under its own panel
    assert intrusions([own_margin, bottom], [LEFT, RIGHT]) == []
    grazing = tick("3 · w", 299.5, 190, 358, 209, axis="y2")  # 0.5 px into the left panel
    assert intrusions([grazing], [LEFT, RIGHT]) == []


def test_a_label_over_its_own_plot_area_is_not_an_intrusion():
    # shared axes: a label drawn over any subplot of its own axis is not foreign
    shared = Subplot("xy2", "x", "y2", Box(100, 400, 300, 600))
    label = tick("0 · a", 110, 410, 140, 429, axis="x")
    assert intrusions([label], [LEFT, shared]) == []


def test_colour_bar_labels_own_no_plot_area():
    label = Text(COLORBAR_TICK, "0.5", Box(290, 290, 310, 310))
    assert intrusions([label], [LEFT]) == [(label, LEFT)]


def test_text_past_the_charts_edge_is_clipped():
    area = Box(0, 0, 600, 400)
    inside = tick("0 · a", 0, 300, 30, 319)
    past = Text(PANEL_TITLE, "weights after dropout", Box(520, 10, 610, 30))
    assert clipped([inside, past], area) == [past]


def test_the_first_panel_must_show_y_labels_and_bottom_panels_x_labels():
    texts = [tick("0 · a", 60, 100, 98, 119, axis="y")]  # no x labels anywhere
    found = label_problems(texts, [LEFT, RIGHT])
    assert any("xy ends a column" in line for line in found)
    assert any("x2y2 ends a column" in line for line in found)
    assert not any("starts a row" in line for line in found), "the right panel need not repeat the y labels"
    texts.append(tick("0 · a", 100, 301, 119, 340, axis="x"))
    texts.append(tick("0 · a", 360, 301, 379, 340, axis="x2"))
    assert label_problems(texts, [LEFT, RIGHT]) == []


def test_a_panel_below_another_need_not_label_the_upper_x_axis():
    lower = Subplot("x3y3", "x3", "y3", Box(100, 400, 300, 600), tokens=6)
    texts = [
        tick("0 · a", 60, 100, 98, 119, axis="y"),
        tick("0 · a", 60, 400, 98, 419, axis="y3"),
        tick("0 · a", 100, 601, 119, 640, axis="x3"),
    ]
    assert label_problems(texts, [LEFT, lower]) == []
    assert label_problems(texts[1:], [LEFT, lower]) == ["subplot xy starts a row but its y axis y shows no label"]


def test_labels_must_name_a_valid_position():
    texts = [
        tick("0 · a", 60, 100, 98, 119, axis="y", value=0),
        tick("\u200e5 · \u2068ש\u2069", 60, 280, 98, 299, axis="y", value=5),  # bidi marks are fine
        tick("1\n手", 130, 301, 145, 340, axis="x", value=1),  # the position on a line above the token
        tick("a", 100, 301, 119, 340, axis="x"),
        tick("6 · g", 150, 301, 169, 340, axis="x"),  # only 0…5 exist
        tick("45", 170, 301, 189, 340, axis="x"),  # a number that is not a position
        tick("3 · d", 190, 301, 209, 340, axis="x", value=2),  # names another column
    ]
    found = label_problems(texts, [LEFT])
    assert len(found) == 4
    assert "'a'" in found[0] and "'6 · g'" in found[1] and "'45'" in found[2] and "position 3 at tick 2" in found[3]


def test_blank_texts_and_undisplayed_charts_are_left_out():
    raw = [
        {"index": 0, "visible": False, "title": "", "texts": [], "subplots": [], "svg": None},
        {
            "index": 1,
            "visible": True,
            "title": "<b>head 1</b>",
            "svg": [0, 0, 600, 400],
            "texts": [
                {"kind": TICK, "text": "0 · a", "box": [100, 300, 130, 319], "axis": "x", "value": 0},
                {"kind": TICK, "text": "  ", "box": [100, 300, 130, 319], "axis": "x", "value": 1},
                {"kind": PANEL_TITLE, "text": "", "box": [100, 300, 130, 319], "axis": None, "value": None},
            ],
            "subplots": [{"id": "xy", "xaxis": "x", "yaxis": "y", "box": [100, 100, 300, 300], "tokens": None}],
        },
    ]
    [chart] = parse_charts(raw)
    assert chart.name == "chart 2 ('head 1')"
    assert [t.text for t in chart.texts] == ["0 · a"]
    assert problems(chart) == []


def test_problems_name_the_chart_the_texts_and_their_boxes():
    chart = Chart(
        0, "softmax weights", [tick("0 · 动", 462.9, 1004, 492.9, 1023), tick("1 · 手", 491.2, 1004, 521.3, 1023)]
    )
    [line] = problems(chart)
    assert line.startswith("chart 1 ('softmax weights'): ")
    assert "'0 · 动' [x 462.9–492.9, y 1004.0–1023.0]" in line and "'1 · 手' [x 491.2–521.3" in line


def test_positions_are_counted_along_each_axis_of_a_matrix_that_is_not_square():
    """A head's Q (T = 6 rows, d = 4 channel columns): rows 0…5, columns 0…3."""
    queries = Subplot("xy", "x", "y", Box(100, 100, 300, 300), tokens=4, rows=6, cols=4)
    texts = [tick("5 · 型", 60, 280, 98, 299, axis="y", value=5), tick("3", 100, 301, 119, 340, axis="x", value=3)]
    assert label_problems(texts, [queries]) == []
    texts.append(tick("4", 130, 301, 145, 340, axis="x", value=4))
    assert label_problems(texts, [queries]) == [
        "tick of axis x '4' [x 130.0–145.0, y 301.0–340.0] on subplot xy does not start with a position in 0…3"
    ]
