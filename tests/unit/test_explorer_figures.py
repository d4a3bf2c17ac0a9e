"""The explorer's figures: the grid's panels, the lines of a token, the metric heatmap and
the generation heatmap carry exactly the numbers they are given, with labels escaped."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from figures import HEAD_COLORS, generation_figure, grid_figure, head_color, lines_figure, metric_figure
from figures.grid import panel_name
from figures.lines import LINE_BINS, LINE_THRESHOLD, line_color, line_dash, line_name, weight_bin
from gpt_core.window import window_around
from harness.charts import decode, traces_by_name
from links.explorer import MAX_HEADS as EXPLORER_MAX_HEADS
from string_table.figure_words import figure_words
from tests.helpers import EXPLORER_WORDS

TEXT = EXPLORER_WORDS
LABELS = ["<b>", "a", "&", "<i>x", "b", "c"]


def _weights(blocks: int, heads: int, T: int, seed: int = 0) -> np.ndarray:
    """Random causal softmax weights, (blocks, h, T, T)."""
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(blocks, heads, T, T)) * 2
    scores[..., np.triu(np.ones((T, T), dtype=bool), 1)] = -np.inf
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return (weights / weights.sum(-1, keepdims=True)).astype(np.float32)


def _spec(figure: go.Figure) -> dict:
    go.Figure(figure.to_dict())  # every property valid (the builders skip validation)
    return json.loads(figure.to_json())


def test_grid_has_one_square_panel_per_block_and_head_with_its_weights_and_meta():
    weights = _weights(2, 3, len(LABELS))
    spec = _spec(grid_figure(weights, LABELS, TEXT, focus=(1, 2)))
    traces = traces_by_name(spec)
    for b in range(2):
        for h in range(3):
            trace = traces[panel_name(b, h, TEXT)]
            assert trace["meta"] == {"head": h, "block": b}
            z = decode(trace["z"]).reshape(len(LABELS), len(LABELS))
            lower = np.tril(np.ones_like(z, dtype=bool))
            np.testing.assert_allclose(z[lower], weights[b, h][lower])
            assert np.isnan(z[~lower]).all(), "the masked future is a gap"
    titles = [a["text"] for a in spec["layout"]["annotations"]]
    assert any("block 2" in title and "head 3" in title for title in titles)
    colours = {a["font"]["color"] for a in spec["layout"]["annotations"]}
    assert colours == {head_color(h) for h in range(3)}
    widths = [shape["line"]["width"] for shape in spec["layout"]["shapes"]]
    assert widths.count(max(widths)) == 1 and widths.index(max(widths)) == 5, "only the focused panel is thick"


def test_grid_labels_only_beside_the_first_column_and_under_the_bottom_row_escaped():
    spec = _spec(grid_figure(_weights(2, 3, len(LABELS)), LABELS, TEXT))
    layout = spec["layout"]
    for index in range(1, 7):
        suffix = "" if index == 1 else str(index)
        block, head = divmod(index - 1, 3)
        assert layout[f"yaxis{suffix}"].get("showticklabels", True) == (head == 0), index
        assert layout[f"xaxis{suffix}"].get("showticklabels", True) == (block == 1), index
        assert layout[f"yaxis{suffix}"]["scaleanchor"] == f"x{suffix}", "square panels"
    shown = " ".join(layout["yaxis"]["ticktext"] + layout["xaxis4"]["ticktext"])
    assert "<b>" not in shown.replace("<br>", "") and "&lt;b&gt;" in shown
    assert "<i>" not in shown


def _segments(trace: dict) -> list[tuple[int, int, float]]:
    x, y, weights = trace["x"], trace["y"], trace["customdata"]
    return [(y[i], y[i + 1], weights[i]) for i in range(0, len(x), 3)]


def _lines(spec: dict, head: int) -> dict[tuple[int, int], float]:
    found = {}
    for step in range(LINE_BINS):
        trace = traces_by_name(spec).get(line_name(head, step, TEXT))
        if trace is not None:
            assert trace["line"]["color"] == line_color(head, step) and trace["line"]["dash"] == line_dash(head)
            for query, key, weight in _segments(trace):
                assert weight_bin(weight) == step
                found[(query, key)] = weight
    return found


def test_the_lines_of_a_token_are_exactly_its_weights_above_the_threshold():
    weights = _weights(1, 2, len(LABELS), seed=3)[0]
    token = 4
    spec = _spec(lines_figure(weights, LABELS, [1], TEXT, token=token))
    lines = _lines(spec, 1)
    expected = {
        (token, key): float(weights[1, token, key])
        for key in range(token + 1)
        if weights[1, token, key] >= LINE_THRESHOLD
    }
    assert lines.keys() == expected.keys()
    for pair, weight in expected.items():
        assert lines[pair] == pytest.approx(weight, abs=1e-6)
    assert not _lines(spec, 0), "only the chosen head"


def _brightness(color: str) -> int:
    return sum(int(color[i : i + 2], 16) for i in (1, 3, 5))


def test_all_lines_of_a_block_and_more_weight_is_darker_and_thicker():
    weights = _weights(1, 3, len(LABELS), seed=4)[0]
    spec = _spec(lines_figure(weights, LABELS, [0, 1, 2], TEXT))
    for head in range(3):
        lines = _lines(spec, head)
        expected = {(q, k) for q in range(len(LABELS)) for k in range(q + 1) if weights[head, q, k] >= LINE_THRESHOLD}
        assert lines.keys() == expected
    for head in range(3):
        steps = [
            traces_by_name(spec)[line_name(head, step, TEXT)]["line"]
            for step in range(LINE_BINS)
            if line_name(head, step, TEXT) in traces_by_name(spec)
        ]
        assert len(steps) > 1
        widths, brightness = [line["width"] for line in steps], [_brightness(line["color"]) for line in steps]
        assert widths == sorted(set(widths)) and brightness == sorted(set(brightness), reverse=True)
    assert line_color(0, LINE_BINS - 1) == head_color(0), "the heaviest lines are in the head's own colour"


def _entries(spec: dict) -> dict[int, dict]:
    """Each head's legend entry, by 0-based head."""
    entries = [trace for trace in spec["data"] if trace.get("showlegend")]
    assert [trace["name"] for trace in entries] == [f"head {n + 1}" for n in range(len(entries))], "in head order"
    return dict(enumerate(entries))


@pytest.mark.parametrize("heads", [8, len(HEAD_COLORS)])
def test_every_head_has_its_own_colour_and_dash_in_its_lines_and_legend(heads):
    weights = _weights(1, heads, len(LABELS), seed=5)[0]
    spec = _spec(lines_figure(weights, LABELS, list(range(heads)), TEXT))
    entries = _entries(spec)
    assert [entries[h]["line"]["color"] for h in range(heads)] == list(HEAD_COLORS[:heads]), "the palette's colours"
    looks = {(entry["line"]["color"], entry["line"]["dash"]) for entry in entries.values()}
    assert len(looks) == heads, "no two heads share both colour and dash"
    assert len({entry["line"]["dash"] for entry in entries.values()}) > 1, "the dash tells heads apart without colour"
    steps = {line_name(head, step, TEXT): (head, step) for head in range(heads) for step in range(LINE_BINS)}
    lines = [trace for trace in spec["data"] if trace.get("mode") == "lines" and not trace.get("showlegend")]
    assert {steps[trace["name"]][0] for trace in lines} == set(range(heads))
    for trace in lines:
        head, step = steps[trace["name"]]
        entry = entries[head]
        assert trace["meta"]["head"] == head and trace["legendgroup"] == entry["legendgroup"], trace["name"]
        assert trace["line"]["dash"] == entry["line"]["dash"], f"{trace['name']}: the dash of its legend entry"
        assert trace["line"]["color"] == line_color(head, step), f"{trace['name']}: its legend entry's colour, lighter"
        assert trace.get("opacity", 1) == 1, f"{trace['name']}: opaque, crossing lines do not blend"


def test_lines_are_drawn_lightest_first_so_heavy_lines_stay_on_top():
    weights = _weights(1, 4, len(LABELS), seed=6)[0]
    spec = _spec(lines_figure(weights, LABELS, list(range(4)), TEXT))
    widths = [
        trace["line"]["width"] for trace in spec["data"] if trace.get("mode") == "lines" and not trace.get("showlegend")
    ]
    assert widths == sorted(widths)


def test_no_two_heads_of_the_largest_model_share_colour_and_dash():
    looks = {(head_color(head), line_dash(head)) for head in range(EXPLORER_MAX_HEADS)}
    assert len(looks) == EXPLORER_MAX_HEADS


def test_lines_labels_are_escaped():
    spec = _spec(lines_figure(_weights(1, 1, len(LABELS))[0], LABELS, [0], TEXT))
    texts = [text for trace in spec["data"] if trace.get("mode") == "markers+text" for text in trace["text"]]
    assert "&lt;b&gt;" in texts and "&amp;" in texts and "<b>" not in texts


def test_weight_bins_cover_threshold_to_one():
    assert weight_bin(LINE_THRESHOLD) == 0 and weight_bin(1.0) == LINE_BINS - 1
    assert [weight_bin(w) for w in (0.1, 0.3, 0.5, 0.7, 0.9)] == sorted(
        weight_bin(w) for w in (0.1, 0.3, 0.5, 0.7, 0.9)
    )


def test_metric_figure_holds_the_values_with_blocks_as_rows():
    values = np.array([[0.1, 0.9], [0.5, 0.2]], dtype=np.float32)
    spec = _spec(metric_figure(values, "previous", TEXT))
    trace = spec["data"][0]
    np.testing.assert_allclose(decode(trace["z"]).reshape(2, 2), values)
    assert trace["zmax"] == 1.0 and trace["y"] == ["block 1", "block 2"]
    entropy = _spec(metric_figure(values * 3, "entropy", TEXT, limit=np.log(6)))
    assert entropy["data"][0]["zmax"] == pytest.approx(np.log(6))


def test_generation_rows_are_left_aligned_with_gaps_where_the_context_was_shorter():
    rows = [np.array([0.4, 0.6], dtype=np.float32), np.array([0.2, 0.3, 0.5], dtype=np.float32)]
    spec = _spec(generation_figure(rows, ["<", "\n"], ["ab", "ab<"], head=1, block=0, text=TEXT))
    trace = spec["data"][0]
    z = decode(trace["z"]).reshape(2, 3)
    np.testing.assert_allclose(z[0, :2], rows[0])
    assert np.isnan(z[0, 2])
    np.testing.assert_allclose(z[1], rows[1])
    assert trace["text"][1][2] == "&lt;" and trace["meta"] == {"head": 1, "block": 0}
    ticks = spec["layout"]["yaxis"]["ticktext"]
    assert ticks[0] == "1: &lt;" and ticks[1] == "2: ⏎"
    with pytest.raises(ValueError, match="context"):
        generation_figure([np.ones(2)], ["a"], ["abc"], 0, 0, TEXT)


@pytest.mark.parametrize("window", [None, "long"])
def test_grid_title_is_the_grids_own_not_the_last_panels(window):
    """A fresh explorer chooses block 1, head 1: the figure's title names the whole grid, never
    a panel (the last one drawn was block 2 · head 4)."""
    labels = [f"t{i}" for i in range(80)] if window else LABELS
    chosen = window_around(len(labels), len(labels) - 1, 0) if window else None
    text = figure_words("en")  # every word, the window's title too
    spec = _spec(grid_figure(_weights(2, 4, len(labels)), labels, text, focus=(0, 0), window=chosen))
    title = spec["layout"]["title"]["text"]
    assert title.startswith(text["ex.grid_title"])
    assert text["ex.col.block"] not in title.removeprefix(text["ex.grid_title"]), title
