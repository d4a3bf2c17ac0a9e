"""The token view's figure: a bar chart per (layer, head) of one token's row and column,
the token marked and labelled, every label escaped; and its strongest links as words."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from figures import ChartSize, link_words, token_view_figure
from figures.panels import MIN_TICK_FONT_PX
from figures.token_view_plan import MIN_PANEL_WIDTH_PX
from gpt_core import Link, PlaygroundConfig, position_label, strongest_links, token_attention, trace_attention
from harness.charts import decode, traces_by_name
from string_table.figure_words import figure_words

EN, ZH = figure_words("en"), figure_words("zh")
TOKENS = ["<b>x</b>", "a", "&amp;", "b", "c"]  # a label Plotly would parse, and an entity


def _weights(T: int, heads: int, seed: int) -> np.ndarray:
    """Causal softmax weights (h, T, T) of random scores."""
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(heads, T, T)).astype(np.float32)
    scores[:, np.triu(np.ones((T, T), dtype=bool), 1)] = -np.inf
    exps = np.exp(scores - scores.max(-1, keepdims=True))
    return exps / exps.sum(-1, keepdims=True)


def _token(layers: int, heads: int, T: int, position: int):
    return token_attention([_weights(T, heads, seed) for seed in range(layers)], position)


def _spec(figure) -> dict:
    return json.loads(figure.to_json())


def _bars(spec: dict) -> dict[str, dict]:
    return traces_by_name(spec)


def test_every_head_of_every_layer_has_its_row_and_column_as_bars():
    token = _token(2, 3, 5, 2)
    spec = _spec(token_view_figure(token.rows.numpy(), token.columns.numpy(), 2, TOKENS, EN, layer_word="ex.col.block"))
    bars = _bars(spec)
    assert len(spec["data"]) == 2 * 3 * 2
    for layer in range(2):
        for head in range(3):
            row = bars[f"block {layer + 1} · head {head + 1} · reads"]
            column = bars[f"block {layer + 1} · head {head + 1} · is read by"]
            np.testing.assert_array_equal(decode(row["y"]).astype(np.float32), token.rows[layer, head, :3].numpy())
            np.testing.assert_array_equal(
                decode(column["y"]).astype(np.float32), token.columns[layer, head, 2:].numpy()
            )
            assert row["xaxis"] == column["xaxis"], "one panel per head"
    assert len({trace["xaxis"] for trace in spec["data"]}) == 6


def test_labels_are_escaped_and_the_chosen_token_is_labelled_and_shaded():
    token = _token(1, 2, 5, 2)
    spec = _spec(token_view_figure(token.rows.numpy(), token.columns.numpy(), 2, TOKENS, EN))
    bars = _bars(spec)
    assert bars["head 1 · reads"]["x"] == ["0 · &lt;b&gt;x&lt;/b&gt;", "1 · a", "2 · &amp;amp;"]
    assert bars["head 2 · is read by"]["x"] == ["2 · &amp;amp;", "3 · b", "4 · c"]
    axis = spec["layout"]["xaxis"]
    assert axis["categoryarray"][0] == "0 · &lt;b&gt;x&lt;/b&gt;" and "<b>" not in "".join(axis["ticktext"])
    assert "2 · &amp;amp;" in axis["tickvals"], "the chosen token's label is shown"
    shaded = [shape for shape in spec["layout"]["shapes"] if shape["xref"] == "x"]
    assert [(shape["x0"], shape["x1"]) for shape in shaded] == [(1.5, 2.5)]
    assert "2 · &amp;amp;" in spec["layout"]["title"]["text"]


@pytest.mark.parametrize("position", [0, 37, 99])
def test_the_chosen_tokens_label_is_shown_when_only_every_kth_fits(position):
    labels = [f"w{i}" for i in range(100)]
    token = _token(1, 8, 100, position)
    spec = _spec(token_view_figure(token.rows.numpy(), token.columns.numpy(), position, labels, EN))
    for name, axis in spec["layout"].items():
        if name.startswith("xaxis"):
            assert position_label(position, labels[position]) in axis["tickvals"]
            assert len(axis["tickvals"]) < 100, "not every label fits"
            assert axis["tickfont"]["size"] >= MIN_TICK_FONT_PX


def test_one_direction_draws_only_its_bars():
    token = _token(1, 2, 5, 1)
    reads = _bars(_spec(token_view_figure(token.rows.numpy(), token.columns.numpy(), 1, TOKENS, ZH, direction="reads")))
    assert set(reads) == {"头 1 · 读取", "头 2 · 读取"}
    read_by = _spec(token_view_figure(token.rows.numpy(), token.columns.numpy(), 1, TOKENS, EN, direction="read_by"))
    assert set(_bars(read_by)) == {"head 1 · is read by", "head 2 · is read by"}


def _domains(spec: dict) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    layout = spec["layout"]
    return [
        (tuple(layout[f"xaxis{s}"]["domain"]), tuple(layout[f"yaxis{s}"]["domain"]))
        for s in [""] + [str(i) for i in range(2, 100) if f"xaxis{i}" in layout]
    ]


@pytest.mark.parametrize(("heads", "T"), [(4, 6), (16, 60), (12, 128)])
def test_panels_never_overlap_and_keep_their_width_by_taking_rows(heads, T):
    token = _token(1, heads, T, T // 2)
    width = 870
    spec = _spec(
        token_view_figure(
            token.rows.numpy(),
            token.columns.numpy(),
            T // 2,
            [f"t{i}" for i in range(T)],
            EN,
            size=ChartSize(width_px=width),
        )
    )
    domains = _domains(spec)
    assert len(domains) == heads
    for i, (x, y) in enumerate(domains):
        assert 0 <= x[0] < x[1] <= 1 and 0 <= y[0] < y[1] <= 1
        for other_x, other_y in domains[i + 1 :]:
            assert min(x[1], other_x[1]) <= max(x[0], other_x[0]) or min(y[1], other_y[1]) <= max(y[0], other_y[0])
    plot = width - spec["layout"]["margin"]["l"] - spec["layout"]["margin"]["r"]
    assert min((x[1] - x[0]) * plot for x, _ in domains) >= MIN_PANEL_WIDTH_PX - 1 or heads == 1


def test_wrong_shapes_positions_and_directions_are_refused():
    token = _token(1, 2, 5, 1)
    rows, columns = token.rows.numpy(), token.columns.numpy()
    with pytest.raises(ValueError):
        token_view_figure(rows, columns[:, :, :4], 1, TOKENS, EN)
    with pytest.raises(IndexError):
        token_view_figure(rows, columns, 5, TOKENS, EN)
    with pytest.raises(ValueError):
        token_view_figure(rows, columns, 1, TOKENS, EN, direction="up")


# Token 3 (大) of 动手学大模型 in Chinese: what each direction's title and bars say (by hand).
TITLES = {
    "reads": "每个头中 3 · 大 读取什么",
    "read_by": "每个头中谁读取 3 · 大",
    "both": "每个头中 3 · 大 读取什么、被谁读取",
}
SERIES = {"reads": ("读取",), "read_by": ("被读取",), "both": ("读取", "被读取")}


def test_the_figure_is_valid_plotly():
    """Valid for Plotly in every direction, and it shows what it was given: the bars are
    token 3's row (what it reads) and column (what reads it) of the traced weights, sliced
    here from the weights, one panel per head, only the chosen direction's series, the
    token's labels and its shading, the title in Chinese."""
    result = trace_attention("动手学大模型", PlaygroundConfig(heads=4, head_dim=4))
    token = token_attention([result.trace.weights], 3)
    weights = result.trace.weights[0].numpy()  # (h, T, T): query (row) reads key (column)
    labels = ["0 · 动", "1 · 手", "2 · 学", "3 · 大", "4 · 模", "5 · 型"]
    for direction in ("reads", "read_by", "both"):
        figure = token_view_figure(
            token.rows.numpy(),
            token.columns.numpy(),
            3,
            result.labels,
            ZH,
            direction=direction,
            layer_word="ex.col.layer",
        )
        go.Figure(figure.to_dict())
        spec = _spec(figure)
        bars = _bars(spec)
        expected = {f"层 1 · 头 {head} · {series}" for head in range(1, 5) for series in SERIES[direction]}
        assert set(bars) == expected, direction
        for head in range(4):
            panel = "x" if head == 0 else f"x{head + 1}"
            if "读取" in SERIES[direction]:
                row = bars[f"层 1 · 头 {head + 1} · 读取"]
                assert row["x"] == labels[:4] and row["xaxis"] == panel
                np.testing.assert_allclose(decode(row["y"]), weights[head, 3, :4], rtol=0, atol=1e-7)
            if "被读取" in SERIES[direction]:
                column = bars[f"层 1 · 头 {head + 1} · 被读取"]
                assert column["x"] == labels[3:] and column["xaxis"] == panel
                np.testing.assert_allclose(decode(column["y"]), weights[head, 3:, 3], rtol=0, atol=1e-7)
        layout = spec["layout"]
        assert layout["title"]["text"] == TITLES[direction]
        assert [a["text"] for a in layout["annotations"]] == [f"<b>层 1 · 头 {head}</b>" for head in range(1, 5)]
        assert layout["xaxis"]["tickvals"] == labels
        shaded = {(shape["xref"], shape["x0"], shape["x1"]) for shape in layout["shapes"]}
        assert shaded == {(axis, 2.5, 3.5) for axis in ("x", "x2", "x3", "x4")}, "token 3 shaded in every panel"


def test_link_words_name_layer_head_token_and_weight():
    labels = ["the", "cat", "sat"]
    links = [Link(0, 2, 1, 0.7149, "reads"), Link(1, 0, 2, 0.25, "read_by")]
    words = link_words(links, labels)
    assert [(w.layer, w.head, w.position, w.token, w.weight, w.direction) for w in words] == [
        (1, 3, 1, "cat", "0.71", "reads"),
        (2, 1, 2, "sat", "0.25", "read_by"),
    ]
    assert link_words(links, labels, one_layer=True)[0].layer is None
    token = _token(1, 2, 3, 1)
    strongest = link_words(strongest_links(token, "reads", 2), labels)
    assert [w.weight for w in strongest] == [f"{link.weight:.2f}" for link in strongest_links(token, "reads", 2)]


@pytest.mark.parametrize(("T", "direction"), [(5, "both"), (128, "reads"), (128, "both")])
def test_one_weight_scale_for_every_panel_holds_every_bar(T, direction):
    token = _token(2, 3, T, T - 1 if direction == "reads" else T // 2)
    spec = _spec(
        token_view_figure(
            token.rows.numpy(),
            token.columns.numpy(),
            token.position,
            [f"t{i}" for i in range(T)],
            EN,
            direction=direction,
            layer_word="ex.col.block",
        )
    )
    ranges = {tuple(axis["range"]) for name, axis in spec["layout"].items() if name.startswith("yaxis")}
    assert len(ranges) == 1, "every panel on one scale"
    ((low, high),) = ranges
    tallest = max(max(decode(trace["y"])) for trace in spec["data"])
    assert low == 0 and tallest <= high and tallest > high / 1.1 / 2.5, "the scale fits the bars"
