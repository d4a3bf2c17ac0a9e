"""Figure builders: names, masked cells, shapes, escaping, colours, payload size."""

from __future__ import annotations

import json

import numpy as np
import pytest

from figures import (
    MASKED_COLOR,
    axis_labels,
    channel_map_figure,
    head_color,
    head_detail_figure,
    heads_overview_figure,
    shape_trace_code,
)
from figures.shapes import MAX_LINE_CHARS
from gpt_core import MAX_HEAD_DIM, MAX_HEADS, MAX_INPUT_DIM, MAX_TOKENS, STAGES, PlaygroundConfig, trace_attention
from harness.charts import decode, traces_by_name
from string_table.figure_words import figure_words

TEXT = "to be or not"
EN, ZH = figure_words("en"), figure_words("zh")


@pytest.fixture(scope="module")
def result():
    return trace_attention(TEXT, PlaygroundConfig(heads=3, head_dim=4, seed=1))


def _stages(result, head):
    return {stage: getattr(result.trace, stage)[0, head].numpy() for stage in STAGES}


def _spec(figure) -> dict:
    return json.loads(figure.to_json())


def test_detail_trace_names_say_stage_and_head(result):
    spec = _spec(head_detail_figure(_stages(result, 1), result.labels, 1, EN))
    names = set(traces_by_name(spec))
    for expected in ["raw scores QKᵀ · head 2", "scaled ÷ √d · head 2", "softmax weights · head 2"]:
        assert expected in names
    assert "masked (−∞ above the diagonal) · head 2" in names
    assert "−∞ cells · head 2" in names


def test_masked_cells_are_gaps_in_the_values_and_filled_in_the_minus_infinity_layer(result):
    spec = _spec(head_detail_figure(_stages(result, 0), result.labels, 0, EN))
    traces = traces_by_name(spec)
    T = len(result.labels)
    future = np.triu(np.ones((T, T), dtype=bool), 1)
    values = decode(traces["masked (−∞ above the diagonal) · head 1"]["z"]).reshape(T, T)
    layer = decode(traces["−∞ cells · head 1"]["z"]).reshape(T, T)
    assert np.isnan(values[future]).all() and np.isfinite(values[~future]).all()
    assert np.isfinite(layer[future]).all() and np.isnan(layer[~future]).all()
    assert traces["−∞ cells · head 1"]["colorscale"][0][1] == MASKED_COLOR
    assert "−∞" in traces["−∞ cells · head 1"]["hovertemplate"]
    weights = decode(traces["softmax weights · head 1"]["z"]).reshape(T, T)
    assert (weights[future] == 0).all(), "masked weights read 0"
    np.testing.assert_allclose(weights.sum(1), 1.0, atol=1e-6)
    legend = [trace for trace in spec["data"] if trace.get("showlegend")]
    assert [trace["name"] for trace in legend] == ["−∞ (masked future)"]
    assert legend[0]["marker"]["color"] == MASKED_COLOR


def test_stages_without_a_masked_cell_have_no_key_for_one(result):
    """The lesson's step 3 shows the scores before the mask: a key for −∞ would give it away."""
    stages = {stage: array for stage, array in _stages(result, 0).items() if stage in ("scores", "scaled_scores")}
    spec = _spec(head_detail_figure(stages, result.labels, 0, EN))
    assert not [trace for trace in spec["data"] if trace.get("showlegend")]


def test_values_travel_as_float32_typed_arrays(result):
    spec = _spec(head_detail_figure(_stages(result, 0), result.labels, 0, EN))
    heatmaps = [trace for trace in spec["data"] if trace["type"] == "heatmap"]
    assert all(trace["z"]["dtype"] == "f4" for trace in heatmaps)


def test_the_values_are_the_traced_numbers(result):
    spec = _spec(heads_overview_figure(result.trace.scores[0].numpy(), result.labels, "scores", EN))
    traces = traces_by_name(spec)
    T = len(result.labels)
    for head in range(3):
        shown = decode(traces[f"raw scores QKᵀ · head {head + 1}"]["z"]).reshape(T, T)
        np.testing.assert_array_equal(shown, result.trace.scores[0, head].numpy())


def test_hover_names_query_key_and_value(result):
    spec = _spec(head_detail_figure(_stages(result, 0), result.labels, 0, EN))
    template = traces_by_name(spec)["softmax weights · head 1"]["hovertemplate"]
    assert "query %{y}" in template and "key %{x}" in template and "%{z" in template


def test_repeated_tokens_keep_their_own_rows():
    labels = ["a", "a", "b", "a"]
    categories = axis_labels(labels)
    assert len(set(categories)) == 4
    assert categories[0] == "0 · a" and categories[3] == "3 · a"


def test_labels_are_escaped_for_plotly():
    text = '<b>x</b><a href="http://e.x">y</a><span style="color:red">z</span>'
    result = trace_attention(text, PlaygroundConfig(heads=1, head_dim=2, tokenizer="word"))
    spec = _spec(head_detail_figure(_stages(result, 0), result.labels, 0, EN))
    serialized = json.dumps(spec["data"])
    for tag in ("<b>", "<a ", "<span", "href="):
        assert tag not in serialized.replace("<br>", "").replace("<extra>", "").replace("</extra>", "")
    assert "&lt;" in serialized


def test_long_word_labels_are_shortened_on_the_axes():
    assert axis_labels(["supercalifragilistic"])[0] == "0 · supercalifr…"


def test_highlighted_cell_is_outlined_in_every_stage(result):
    figure = head_detail_figure(_stages(result, 0), result.labels, 0, EN, highlight=(5, 2))
    rects = [shape for shape in figure.layout.shapes if shape.xref != "paper"]
    assert len(rects) == len(STAGES)
    assert {(shape.x0, shape.y0) for shape in rects} == {(1.5, 4.5)}
    assert len({shape.xref for shape in rects}) == len(STAGES), "one per stage panel"


def test_outlined_row_spans_the_causal_keys_in_every_head(result):
    """A step of generation with the cache computes one query row: keys 0 to the query."""
    weights = result.trace.weights[0].numpy()
    figure = heads_overview_figure(weights, result.labels, "weights", EN, row=4)
    rects = [shape for shape in figure.layout.shapes if shape.xref != "paper" and shape.x0 == -0.5]
    assert len(rects) == weights.shape[0], "one per head's panel"
    assert {(shape.x0, shape.x1, shape.y0, shape.y1) for shape in rects} == {(-0.5, 4.5, 3.5, 4.5)}
    assert len({shape.xref for shape in rects}) == weights.shape[0]
    with pytest.raises(ValueError, match="row"):
        heads_overview_figure(weights, result.labels, "weights", EN, row=len(result.labels))


def test_detail_rejects_matrices_that_do_not_match_the_tokens(result):
    with pytest.raises(ValueError, match="expected"):
        head_detail_figure(_stages(result, 0), result.labels[:-1], 0, EN)
    with pytest.raises(ValueError, match="expected"):
        heads_overview_figure(result.trace.weights[0].numpy(), result.labels[:-1], "weights", EN)


def test_scale_off_is_said_in_the_title(result):
    figure = head_detail_figure(_stages(result, 0), result.labels, 0, EN, scaled=False)
    assert "not scaled" in " ".join(a.text for a in figure.layout.annotations)


def test_overview_has_one_panel_per_head_in_its_colour_with_the_focus_bold(result):
    figure = heads_overview_figure(result.trace.weights[0].numpy(), result.labels, "weights", EN, focus=1)
    names = [trace.name for trace in figure.data if trace.type == "heatmap"]
    assert names == [f"softmax weights · head {n}" for n in (1, 2, 3)]
    borders = [shape for shape in figure.layout.shapes if shape.xref.endswith(" domain")]
    assert [shape.line.color for shape in borders] == [head_color(n) for n in range(3)]
    assert [shape.line.width for shape in borders] == [1.5, 5, 1.5]
    titles = [a for a in figure.layout.annotations if "head" in a.text]
    assert [a.font.color for a in titles] == [head_color(n) for n in range(3)]


def test_overview_scores_share_one_colour_range_centred_on_zero(result):
    figure = heads_overview_figure(result.trace.scores[0].numpy(), result.labels, "scores", EN)
    ranges = {(trace.zmin, trace.zmax) for trace in figure.data if trace.type == "heatmap"}
    assert len(ranges) == 1
    low, high = ranges.pop()
    assert low == -high and high == pytest.approx(float(np.abs(result.trace.scores.numpy()).max()), rel=1e-6)


def test_detail_title_is_in_the_head_colour(result):
    figure = head_detail_figure(_stages(result, 2), result.labels, 2, EN)
    assert figure.layout.title.font.color == head_color(2)


def test_channel_map_gives_each_head_its_channels_in_its_colour():
    figure = channel_map_figure(heads=4, head_dim=8, text=EN)
    assert [trace.name for trace in figure.data] == [
        "head 1: channels 0–7",
        "head 2: channels 8–15",
        "head 3: channels 16–23",
        "head 4: channels 24–31",
    ]
    assert [trace.base[0] for trace in figure.data] == [0, 8, 16, 24]
    assert [trace.marker.color for trace in figure.data] == [head_color(n) for n in range(4)]
    assert "C = 32" in figure.layout.title.text


def test_chinese_figure_text(result):
    figure = head_detail_figure(_stages(result, 0), result.labels, 0, ZH)
    assert "softmax 权重 · 头 1" in [trace.name for trace in figure.data]


def test_shape_trace_code_lists_every_step_with_real_numbers(result):
    code = shape_trace_code(result.trace.shape_steps, tuple(result.trace.x.shape))
    T = len(result.tokens)
    assert f"# (1, {T}, 3, 4)" in code and "(B, T, h, d)" in code
    assert f"# (1, 3, {T}, 4)" in code and "(B, h, T, d)" in code
    assert f"# (1, 3, {T}, {T})" in code
    assert ".contiguous().view(B, T, C)" in code
    assert len(code.splitlines()) == len(result.trace.shape_steps) + 1


@pytest.mark.parametrize(
    "config", [PlaygroundConfig(), PlaygroundConfig(heads=MAX_HEADS, head_dim=MAX_HEAD_DIM, input_dim=MAX_INPUT_DIM)]
)
def test_shape_trace_lines_are_short_and_their_columns_line_up(config):
    """Long lines were cut off in the playground at 1366 px (the widest case: every size at its maximum)."""
    trace = trace_attention("x" * MAX_TOKENS, config).trace
    lines = shape_trace_code(trace.shape_steps, tuple(trace.x.shape)).splitlines()
    assert max(len(line) for line in lines) <= MAX_LINE_CHARS, max(lines, key=len)
    assert len({line.index("# (") for line in lines}) == 1, "the shapes form one column"
    assert len({line.index("(B, ", line.index("#")) for line in lines}) == 1, "the letters form one column"
    assert all(line == line.rstrip() for line in lines)


PRESENTING_LINE_CHARS = 66  # presentation mode's figure column: 610 px of 13.9 px monospace, less padding


def test_without_the_steps_names_the_lines_keep_shapes_and_letters_and_fit_a_narrow_column(result):
    trace = result.trace
    named = shape_trace_code(trace.shape_steps, tuple(trace.x.shape)).splitlines()
    narrow = shape_trace_code(trace.shape_steps, tuple(trace.x.shape), names=False).splitlines()
    assert len(narrow) == len(named)
    for line, short in zip(named, narrow, strict=True):
        assert line.startswith(short) and short == short.rstrip()
    assert not any(step.name in narrow[i + 1] for i, step in enumerate(trace.shape_steps) if step.name not in step.code)
    assert max(len(line) for line in narrow) <= PRESENTING_LINE_CHARS < max(len(line) for line in named)


def test_page_payload_at_t64_h8_d8_is_under_700_kb():
    result = trace_attention("x" * 64, PlaygroundConfig(heads=8, head_dim=8))
    overview = heads_overview_figure(result.trace.weights[0].numpy(), result.labels, "weights", EN)
    detail = head_detail_figure(_stages(result, 0), result.labels, 0, EN)
    total = len(overview.to_json()) + len(detail.to_json()) + len(channel_map_figure(8, 8, EN).to_json())
    assert total <= 700_000, total


# "to be or not" as the axes label its tokens: position · character, a space shown as ␣.
TEXT_LABELS = [
    "0 · t",
    "1 · o",
    "2 · ␣",
    "3 · b",
    "4 · e",
    "5 · ␣",
    "6 · o",
    "7 · r",
    "8 · ␣",
    "9 · n",
    "10 · o",
    "11 · t",
]


def _heatmap(spec: dict, name: str) -> np.ndarray:
    trace = traces_by_name(spec)[name]
    assert trace["x"] == TEXT_LABELS and trace["y"] == TEXT_LABELS, name
    return decode(trace["z"]).reshape(len(TEXT_LABELS), len(TEXT_LABELS))


def _shown_as(array) -> np.ndarray:
    """What a heatmap of ``array`` holds: float32 values, −∞ as a gap (NaN)."""
    values = np.asarray(array, dtype=np.float32).copy()
    values[np.isneginf(values)] = np.nan
    return values


def test_every_figure_is_valid_plotly(result):
    """The builders skip Plotly's validation for speed; here it runs on all of them, and each
    figure shows what it was given: the arrays, one panel per head, the token labels, the
    outlined cell, titles in its language (written here by hand)."""
    import plotly.graph_objects as go

    figures = [
        head_detail_figure(_stages(result, 0), result.labels, 0, EN, highlight=(1, 0), scaled=False),
        heads_overview_figure(result.trace.masked_scores[0].numpy(), result.labels, "masked_scores", EN, focus=0),
        heads_overview_figure(result.trace.weights[0].numpy(), result.labels, "weights", ZH),
        channel_map_figure(3, 4, EN),
        channel_map_figure(16, 2, ZH),
    ]
    for figure in figures:
        go.Figure(figure.to_dict())  # raises ValueError on any invalid property
    detail, masked, weights, channels, channels_zh = (_spec(figure) for figure in figures)
    trace = result.trace

    stages = {
        "raw scores QKᵀ": trace.scores,
        "scaled ÷ √d": trace.scaled_scores,
        "masked (−∞ above the diagonal)": trace.masked_scores,
        "softmax weights": trace.weights,
    }
    for stage, values in stages.items():
        np.testing.assert_array_equal(_heatmap(detail, f"{stage} · head 1"), _shown_as(values[0, 0]), stage)
    titles = [annotation["text"].replace("<br>", " ") for annotation in detail["layout"]["annotations"]]
    assert titles == ["raw scores QKᵀ", "not scaled (switch off)", "masked (−∞ above the diagonal)", "softmax weights"]
    outlines = [shape for shape in detail["layout"]["shapes"] if not shape["xref"].endswith(("domain", "paper"))]
    assert sorted(shape["xref"] for shape in outlines) == ["x", "x2", "x3", "x4"], "the cell in every panel"
    assert {(shape["x0"], shape["x1"], shape["y0"], shape["y1"]) for shape in outlines} == {(-0.5, 0.5, 0.5, 1.5)}, (
        "query 1 (row), key 0 (column)"
    )

    for head in range(3):
        shown = _heatmap(masked, f"masked (−∞ above the diagonal) · head {head + 1}")
        np.testing.assert_array_equal(shown, _shown_as(trace.masked_scores[0, head]))
        shown = _heatmap(weights, f"softmax 权重 · 头 {head + 1}")
        np.testing.assert_array_equal(shown, _shown_as(trace.weights[0, head]))
    for spec in (masked, weights):
        panels = {item["xaxis"] for item in spec["data"] if item["type"] == "heatmap"}
        assert panels == {"x", "x2", "x3"}, "one panel per head"
        assert spec["layout"]["xaxis"]["tickvals"] == TEXT_LABELS
    assert masked["layout"]["title"]["text"] == "masked (−∞ above the diagonal)"
    assert weights["layout"]["title"]["text"] == "softmax 权重"
    assert [a["text"] for a in weights["layout"]["annotations"]] == ["<b>头 1</b>", "<b>头 2</b>", "<b>头 3</b>"]
    borders = {shape["xref"]: shape["line"]["width"] for shape in masked["layout"]["shapes"]}
    assert max(borders, key=borders.get) == "x domain", "head 1, the focus, has the thickest border"

    assert channels["layout"]["title"]["text"] == "The C = 12 channels, split into h = 3 heads of d = 4"
    assert [(bar["name"], bar["base"], bar["x"]) for bar in channels["data"]] == [
        ("head 1: channels 0–3", [0], [4]),
        ("head 2: channels 4–7", [4], [4]),
        ("head 3: channels 8–11", [8], [4]),
    ]
    assert channels_zh["layout"]["title"]["text"] == "C = 32 个通道，拆成 h = 16 个头，每个 d = 2"
    assert [bar["base"] for bar in channels_zh["data"]] == [[2 * head] for head in range(16)]
    assert channels_zh["data"][15]["name"] == "头 16：通道 30–31"


def test_the_channel_map_shows_which_query_heads_share_a_key_value_head():
    from figures import channel_map_figure
    from string_table.figure_words import figure_words

    plain = channel_map_figure(4, 8, figure_words("en"))
    assert len(plain.data) == 4
    shared = channel_map_figure(14, 64, figure_words("en"), kv_heads=2)
    kv = [trace for trace in shared.data if trace.y[0] == "K, V"]
    assert len(kv) == 2 and [trace.base[0] for trace in kv] == [0, 64]
    assert "query heads 1–7" in kv[0].name and "query heads 8–14" in kv[1].name
    assert kv[1].marker.color == shared.data[7].marker.color  # the colour of the first head that reads it
    assert "h_kv = 2" in shared.layout.title.text


def test_a_long_half_title_goes_on_two_lines_at_its_middle_space_and_a_short_one_stays():
    from figures.labels import two_lines

    assert two_lines("head by head, concatenated", 16) == "head by head,<br>concatenated"
    assert two_lines("all heads at once", 20) == "all heads at once"
    assert (
        two_lines("逐个头计算再拼接逐个头计算再拼接", 4) == "逐个头计算再拼接逐个头计算再拼接"
    )  # no space to break at
