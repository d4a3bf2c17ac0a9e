"""Legible figures: labels chosen to fit the space (never none, never colliding by the
estimate the layout uses), cells that grow with T, values in cells while they fit,
colours that tell the truth about masking and dropout, and the click payload."""

from __future__ import annotations

import numpy as np
import pytest

from figures import ChartSize, head_detail_figure, heads_overview_figure
from figures.detail_plan import DETAIL_MIN_CELL_PX
from figures.overview import FOCUSED_BORDER_PX
from figures.palette import DROPPED_COLOR
from figures.panels import MIN_TICK_FONT_PX, TICK_FONT_PX
from figures.sizing import LINE_HEIGHT, key_ticks, panel_grid, query_ticks, text_px
from gpt_core import STAGES, PlaygroundConfig, display_labels, trace_attention
from string_table.figure_words import figure_words
from ui.chart_events import Click, parse_click

EN = figure_words("en")
FONT = 13
SENTENCE_40 = " ".join(f"word{i}" for i in range(40))


def _result(text, tokenizer="char", heads=2, dropout=0.0):
    return trace_attention(
        text,
        PlaygroundConfig(heads=heads, head_dim=4, seed=3, tokenizer=tokenizer, dropout=dropout, training=dropout > 0),
    )


def _stages(result, head=0, dropout=False):
    stages = {stage: getattr(result.trace, stage)[0, head].numpy() for stage in STAGES}
    if dropout:
        stages["dropped_weights"] = result.trace.dropped_weights[0, head].numpy()
    return stages


def _axes(figure, which):
    return [axis for name, axis in figure.layout.to_plotly_json().items() if name.startswith(which + "axis")]


@pytest.mark.parametrize("count", [1, 2, 6, 13, 40, 128])
@pytest.mark.parametrize("cell", [4.0, 9.0, 30.0, 60.0])
def test_every_axis_shows_labels_with_positions_spaced_to_fit(count, cell):
    labels = display_labels(["学" if i % 2 else "because" for i in range(count)])
    for ticks, room in ((key_ticks(labels, cell, FONT), None), (query_ticks(labels, cell, FONT), FONT * LINE_HEIGHT)):
        assert ticks.positions and ticks.positions[0] == 0, "never no label, and the first position is shown"
        assert all(
            text.split("<br>")[0].split(" · ")[0] == str(i)
            for i, text in zip(ticks.positions, ticks.texts, strict=True)
        )
        gaps = {b - a for a, b in zip(ticks.positions, ticks.positions[1:], strict=False)}
        assert gaps <= {ticks.step}
        if room is None:  # key labels: each one's width (flat) or a line (upright) fits its spacing
            if ticks.angle == 0:
                room = max(max(text_px(str(i), FONT), text_px(labels[i], FONT)) for i in ticks.positions)
            else:
                room = FONT * LINE_HEIGHT
        if ticks.step < count:  # with one label there is nothing to collide with
            assert ticks.step * cell >= room, (ticks, cell)
        if ticks.step > 1:  # and no more thinned than needed
            assert (ticks.step - 1) * cell < room + 6 + 1e-9


def test_wide_labels_read_upwards_when_flat_ones_would_be_too_few():
    labels = display_labels([f"token{i:03d}" for i in range(40)])
    ticks = key_ticks(labels, 9.0, FONT)
    assert ticks.angle == -90 and len(ticks.positions) >= 20


def test_panels_keep_a_legible_cell_by_taking_rows():
    one_row = panel_grid(4, 6, 800, 26, 8, 48, 150, 440)
    assert (one_row.cols, one_row.rows) == (4, 1) and one_row.cell_px(6) >= 8
    grid = panel_grid(5, 43, 800, 26, 8, 48, 150, 440)
    assert grid.cols == 3 or grid.cols == 2
    assert grid.cell_px(43) >= 8
    assert grid.rows * grid.cols >= 5 and (grid.rows - 1) * grid.cols < 5


def _panel_px(figure, count, width=870):
    axis = figure.layout.yaxis
    return (axis.domain[1] - axis.domain[0]) * (figure.layout.height - figure.layout.margin.t - figure.layout.margin.b)


@pytest.mark.parametrize(("fewer", "more"), [(6, 24), (24, 64), (64, 128)])
def test_detail_panels_grow_with_t(fewer, more):
    """More tokens get larger panels and a taller chart (more rows of stages, then wider
    than the page), never the same panel with smaller cells."""
    text = "abcdefghij" * 13
    small = head_detail_figure(_stages(_result(text[:fewer])), display_labels(list(text[:fewer])), 0, EN)
    large = head_detail_figure(_stages(_result(text[:more])), display_labels(list(text[:more])), 0, EN)
    assert _panel_px(large, more) > _panel_px(small, fewer) + 10, (_panel_px(large, more), _panel_px(small, fewer))
    assert large.layout.height > small.layout.height


@pytest.mark.parametrize("count", [64, 128])
def test_detail_cells_stay_legible_up_to_the_cap_and_the_chart_says_how_wide_it_must_be(count):
    text = ("abcdefghij" * 13)[:count]
    figure = head_detail_figure(_stages(_result(text)), display_labels(list(text)), 0, EN, size=ChartSize(width_px=870))
    assert _panel_px(figure, count) / count >= DETAIL_MIN_CELL_PX - 1e-6
    needed = figure.layout.meta["minWidthPx"]
    assert (needed > 870) == (count * DETAIL_MIN_CELL_PX > 870 - 100), "wider than the page only when needed"


def _texts(figure):
    return {trace.name: trace.texttemplate for trace in figure.data if trace.type == "heatmap"}


def test_values_are_written_in_cells_while_they_fit_and_on_request():
    result = _result("动手学大模型")
    shown = _texts(head_detail_figure(_stages(result), result.labels, 0, EN))
    assert shown["softmax weights · head 1"] == "%{z:.2f}"
    assert shown["raw scores QKᵀ · head 1"] == "%{z:.1f}"
    assert shown["−∞ cells · head 1"] == "−∞"
    off = _texts(head_detail_figure(_stages(result), result.labels, 0, EN, show_values=False))
    assert not any(off.values())
    long = _result("abcdefghij" * 6)
    assert not any(_texts(head_detail_figure(_stages(long), long.labels, 0, EN)).values())


def _heatmap(figure, name):
    return next(trace for trace in figure.data if trace.name == name)


def test_scaled_and_masked_share_a_range_and_raw_scores_keep_their_own():
    result = _result("to be or not to be")
    figure = head_detail_figure(_stages(result), result.labels, 0, EN)
    scaled, masked = (
        _heatmap(figure, "scaled ÷ √d · head 1"),
        _heatmap(figure, "masked (−∞ above the diagonal) · head 1"),
    )
    raw = _heatmap(figure, "raw scores QKᵀ · head 1")
    assert (scaled.zmin, scaled.zmax) == (masked.zmin, masked.zmax)
    scaled_values = result.trace.scaled_scores[0, 0].numpy()
    assert scaled.zmax == pytest.approx(float(np.abs(scaled_values).max()), rel=1e-6)
    assert raw.zmax == pytest.approx(float(np.abs(result.trace.scores[0, 0].numpy()).max()), rel=1e-6)
    assert raw.colorbar.title.text == EN["fig.range_own"] and masked.colorbar.title.text == EN["fig.range_shared"]


def test_dropout_bar_reaches_the_largest_kept_weight_and_dropped_cells_have_their_own_layer():
    result = _result("to be or not to be, that is", heads=4, dropout=0.5)
    # A head where a weight above 1/(1/(1−p)) was kept, so its bar must pass 1.
    head = next(h for h in range(4) if result.trace.dropped_weights[0, h].max() > 1)
    stages = _stages(result, head, dropout=True)
    figure = head_detail_figure(stages, result.labels, head, EN)
    after = _heatmap(figure, f"weights after dropout · head {head + 1}")
    largest = float(stages["dropped_weights"].max())
    assert after.zmax == pytest.approx(max(largest, 1.0), rel=1e-6), "to the largest kept weight, 1 at least"
    layer = _heatmap(figure, f"{EN['fig.dropped']} · head {head + 1}")
    assert layer.colorscale[0][1] == DROPPED_COLOR
    dropped = (stages["weights"] > 0) & (stages["dropped_weights"] == 0)
    assert dropped.any()
    np.testing.assert_array_equal(~np.isnan(np.asarray(layer.z, dtype=float)), dropped)
    kept = np.asarray(after.z, dtype=float)
    assert np.isnan(kept[dropped]).all(), "a dropped cell is not drawn as a small weight"
    assert EN["fig.dropped"] in [trace.name for trace in figure.data if trace.type == "scatter"]


def test_overview_labels_sit_beside_the_first_column_and_under_the_last_panels():
    result = _result("to be or not", heads=5)
    figure = heads_overview_figure(
        result.trace.weights[0].numpy(), result.labels, "weights", EN, size=ChartSize(width_px=520)
    )
    layout = figure.layout
    panels = []
    for head in range(5):
        suffix = "" if head == 0 else str(head + 1)
        panels.append((layout[f"xaxis{suffix}"], layout[f"yaxis{suffix}"]))
    lefts = sorted({round(x.domain[0], 6) for x, _ in panels})
    assert len(lefts) < 5, "more than one row at this width"
    for index, (x, y) in enumerate(panels):
        first_column = round(x.domain[0], 6) == lefts[0]
        below = [
            other
            for other, (ox, oy) in enumerate(panels)
            if round(ox.domain[0], 6) == round(x.domain[0], 6) and oy.domain[1] < y.domain[0]
        ]
        assert bool(y.showticklabels) == first_column, index
        assert bool(x.showticklabels) == (not below), index
        if x.showticklabels:
            assert x.tickvals and len(x.tickvals) == len(x.ticktext)
    assert sum(1 for x, _ in panels if x.title.text) == 1 and sum(1 for _, y in panels if y.title.text) == 1


def test_every_heatmap_knows_its_head_for_a_click():
    result = _result("abc", heads=3)
    figure = heads_overview_figure(result.trace.masked_scores[0].numpy(), result.labels, "masked_scores", EN)
    heads = [trace.meta["head"] for trace in figure.data if trace.type == "heatmap"]
    assert sorted(set(heads)) == [0, 1, 2]


@pytest.mark.parametrize(
    "payload, expected",
    [
        ({"chart": "detail", "head": 1, "row": 2, "col": 0}, Click("detail", 1, 2, 0)),
        ({"chart": "overview", "head": None, "row": 0, "col": 0}, Click("overview", None, 0, 0)),
        ({"chart": "detail", "head": 1, "row": 6, "col": 0}, None),  # beyond T (a stale chart)
        ({"chart": "detail", "head": 4, "row": 1, "col": 0}, None),  # beyond h
        ({"chart": "other", "head": 0, "row": 1, "col": 0}, None),
        ({"chart": "detail", "head": 0, "row": True, "col": 0}, None),
        ({"chart": "detail", "head": 0, "row": "1", "col": 0}, None),
        ("detail", None),
        (None, None),
    ],
)
def test_a_click_is_used_only_when_it_names_a_cell_of_this_view(payload, expected):
    assert parse_click(payload, {"detail", "overview"}, tokens=6, heads=4) == expected


TEN_WORDS = "the cat sat on the mat because it was warm"
PROJECTOR_WIDTH_PX = 870  # the main column of a 1366×768 screen beside the sidebar


def _labelled(figure, which: str) -> list[dict]:
    """The axes of one kind ("x" or "y") that show labels."""
    return [axis for axis in _axes(figure, which) if axis.get("showticklabels")]


def test_every_word_of_a_ten_word_sentence_is_labelled_at_a_projectors_width():
    """At 1366 px, h = 8: every key and query of the detail chart and the overview has its
    label (smaller type down to a legible minimum, keys read upwards), at its position."""
    result = _result(TEN_WORDS, tokenizer="word", heads=8)
    assert len(result.labels) == 10
    detail = head_detail_figure(_stages(result), result.labels, 0, EN, size=ChartSize(width_px=PROJECTOR_WIDTH_PX))
    overview = heads_overview_figure(
        result.trace.weights[0].numpy(), result.labels, "weights", EN, size=ChartSize(width_px=PROJECTOR_WIDTH_PX)
    )
    expected = [f"{i} · {word}" for i, word in enumerate(TEN_WORDS.split())]
    for figure in (detail, overview):
        labelled = _labelled(figure, "x") + _labelled(figure, "y")
        assert _labelled(figure, "x") and _labelled(figure, "y")
        assert all(list(axis["ticktext"]) == expected for axis in labelled), labelled
        assert all(MIN_TICK_FONT_PX <= axis["tickfont"]["size"] <= TICK_FONT_PX for axis in labelled)


def test_values_are_written_for_a_few_words_when_the_cells_make_room():
    """The playground's Values switch: cells large enough for the numbers (two rows of
    stages) while a panel holds T of them; off, or with many tokens, one row of small cells."""
    result = _result(TEN_WORDS, tokenizer="word", heads=8)
    roomy = head_detail_figure(
        _stages(result), result.labels, 0, EN, size=ChartSize(width_px=PROJECTOR_WIDTH_PX), room_for_values=True
    )
    assert all(_texts(roomy).values()), "every stage writes its values"
    assert len({round(axis["domain"][0], 6) for axis in _axes(roomy, "y")}) == 2, "two rows of stages"
    compact = head_detail_figure(_stages(result), result.labels, 0, EN, size=ChartSize(width_px=PROJECTOR_WIDTH_PX))
    assert not any(_texts(compact).values())
    off = head_detail_figure(
        _stages(result),
        result.labels,
        0,
        EN,
        size=ChartSize(width_px=PROJECTOR_WIDTH_PX),
        show_values=False,
        room_for_values=True,
    )
    assert off.layout.height == compact.layout.height and not any(_texts(off).values())
    many = _result("abcdefghij" * 3)
    wide = head_detail_figure(
        _stages(many), many.labels, 0, EN, size=ChartSize(width_px=PROJECTOR_WIDTH_PX), room_for_values=True
    )
    assert not any(_texts(wide).values()), "30 cells of a value each would not fit the largest panel"


def test_a_space_is_drawn_as_a_symbol_and_single_characters_are_never_turned():
    """A space token is labelled "␣"; single characters stay upright (a "␣" turned upwards
    reads "]"), even where turning would show more of them; Plotly may tilt, not turn, them."""
    labels = display_labels(list("ROMEO:\nBut soft, what light through"))
    assert labels[10] == "␣"
    for cell in (4.0, 9.0, 17.0, 30.0):
        assert key_ticks(labels, cell, FONT, 11).angle == 0
    result = _result("But soft, what light through yonder")
    figure = heads_overview_figure(
        result.trace.weights[0].numpy(), result.labels, "weights", EN, size=ChartSize(width_px=870)
    )
    shown = [text for axis in _labelled(figure, "x") for text in axis["ticktext"]]
    assert "3<br>␣" in shown
    assert all("tickangle" not in axis and axis["autotickangles"] == [0, 30] for axis in _labelled(figure, "x"))


def test_smaller_type_only_when_it_names_every_token():
    many = display_labels([f"word{i}" for i in range(40)])
    assert key_ticks(many, 9.0, FONT, 11).font_px == FONT, "thinned anyway: at the full size"
    assert query_ticks(many, 9.0, FONT, 11).font_px == FONT
    few = display_labels(["because"] * 10)
    ticks = query_ticks(few, 16.0, FONT, 11)
    assert ticks.positions == tuple(range(10)) and 11 <= ticks.font_px < FONT and ticks.font_px * LINE_HEIGHT <= 16.0


def test_row_labels_clear_the_first_panel_and_its_border():
    """The query labels' room holds the widest label at its size, clear of a focused border."""
    result = _result("ROMEO:\nBut soft, what light through yonder", heads=4)
    figure = heads_overview_figure(
        result.trace.weights[0].numpy(), result.labels, "weights", EN, size=ChartSize(width_px=870), focus=0
    )
    axis = figure.layout.yaxis
    widest = max(text_px(text, axis.tickfont.size) for text in axis.ticktext)
    assert figure.layout.xaxis.domain[0] == 0, "the first column starts at the plot area's left edge"
    assert axis.ticklabelstandoff > FOCUSED_BORDER_PX / 2
    assert widest + axis.ticklabelstandoff <= figure.layout.margin.l
