"""Compare mode (cmp=1): two set-ups on one text, each column's numbers gpt_core's own, the
link carrying both, the chosen cell outlined in both, B − A below."""

from __future__ import annotations

import json

import numpy as np
import pytest

from figures.palette import HIGHLIGHT_COLOR
from gpt_core import PlaygroundConfig, tokenize, trace_attention
from gpt_core.explore import trace_model
from harness.charts import assert_displays, decode
from tests.apptest.conftest import open_page
from ui.playground.compare import A_CHART_KEY, B_CHART_KEY, DIFF_CHART_KEY
from ui.shared.resources import shipped_model

PAGE = "pages/1_playground.py"
TEXT = "动手学大模型"


def _chart(at, key: str) -> dict:
    (chart,) = [chart for chart in at.get("plotly_chart") if chart.proto.id.endswith("-" + key)]
    return json.loads(chart.proto.spec)


def _value_traces(spec: dict) -> list[dict]:
    return [trace for trace in spec["data"] if trace["type"] == "heatmap" and "layer" not in trace.get("meta", {})]


def _assert_shows(spec: dict, expected: np.ndarray) -> None:
    """Each panel shows its head's numbers of ``expected`` (h, T, T) as the browser prints them."""
    traces = _value_traces(spec)
    assert len(traces) == len(expected)
    for trace, matrix in zip(traces, expected, strict=True):
        assert_displays(trace, matrix)


def _values(spec: dict) -> list[np.ndarray]:
    """Each panel's values (the −∞ layers left out), in head order, as (T, T)."""
    traces = _value_traces(spec)
    matrices = [decode(trace["z"]).astype(np.float32) for trace in traces]
    T = int(round(np.sqrt(matrices[0].size)))
    return [matrix.reshape(T, T) for matrix in matrices]


def _outlines(spec: dict) -> set[tuple]:
    shapes = [shape for shape in spec["layout"]["shapes"] if shape["line"]["color"] == HIGHLIGHT_COLOR]
    return {(shape["x0"], shape["x1"], shape["y0"], shape["y1"]) for shape in shapes}


def _stack(spec: dict) -> np.ndarray:
    return np.stack(_values(spec))


@pytest.mark.parametrize(
    ("lang", "a_title", "diff_title"), [("en", "Set-up A", "Difference B − A"), ("zh", "设置 A", "差值 B − A")]
)
def test_compare_mode_shows_two_set_ups_and_their_difference_in_both_languages(lang, a_title, diff_title):
    at = open_page(PAGE, cmp="1", lang=lang)
    assert not at.exception, at.exception
    assert diff_title in {header.value for header in at.subheader}
    assert a_title in {expander.label for expander in at.expander}, "A's controls folded under its name"
    a, b = _chart(at, A_CHART_KEY), _chart(at, B_CHART_KEY)
    assert len(_values(a)) == 4 and len(_values(b)) == 8, "the default comparison: 4 vs 8 heads"
    assert len(_values(_chart(at, DIFF_CHART_KEY))) == 1, "different head counts: the heads' means"
    assert at.query_params["cmp"] == "1" and at.query_params["b_heads"] == "8"


def test_the_link_carries_both_set_ups_and_reproduces_both_columns_exactly():
    at = open_page(
        PAGE,
        cmp="1",
        text=TEXT,
        heads="2",
        head_dim="4",
        seed="5",
        stage="scaled_scores",
        b_heads="3",
        b_head_dim="6",
        b_seed="7",
        b_scale="0",
    )
    assert not at.exception, at.exception
    link = {key: at.query_params[key] for key in at.query_params}
    assert {"b_heads": "3", "b_head_dim": "6", "b_seed": "7", "b_scale": "0", "cmp": "1"}.items() <= link.items()
    opened = open_page(PAGE, **link)
    assert not opened.exception, opened.exception
    config_a = PlaygroundConfig(heads=2, head_dim=4, seed=5)
    config_b = PlaygroundConfig(heads=3, head_dim=6, seed=7, scale=False)
    for key, config in ((A_CHART_KEY, config_a), (B_CHART_KEY, config_b)):
        expected = trace_attention(TEXT, config).trace.scaled_scores[0].numpy()
        _assert_shows(_chart(opened, key), expected)
        _assert_shows(_chart(at, key), expected)


def test_the_difference_is_b_minus_a_per_head_when_the_shapes_match():
    at = open_page(PAGE, cmp="1", text=TEXT, heads="3", b_heads="3", b_seed="1", b_scale="0", stage="weights")
    assert not at.exception, at.exception
    a = trace_attention(TEXT, PlaygroundConfig(heads=3, head_dim=8)).trace.weights[0].numpy()
    b = trace_attention(TEXT, PlaygroundConfig(heads=3, head_dim=8, seed=1, scale=False)).trace.weights[0].numpy()
    diff = _chart(at, DIFF_CHART_KEY)
    _assert_shows(diff, b - a)
    assert [trace["zmid"] for trace in diff["data"] if trace.get("showscale")] == [0.0]


def test_different_head_counts_compare_the_heads_means_and_say_so():
    at = open_page(PAGE, cmp="1", text=TEXT, heads="2", b_heads="4", stage="weights")
    assert not at.exception, at.exception
    a = trace_attention(TEXT, PlaygroundConfig(heads=2, head_dim=8)).trace.weights[0].numpy()
    b = trace_attention(TEXT, PlaygroundConfig(heads=4, head_dim=8)).trace.weights[0].numpy()
    _assert_shows(_chart(at, DIFF_CHART_KEY), [b.mean(0) - a.mean(0)])
    assert any("A has 2 heads and B has 4" in caption.value for caption in at.caption)


def test_the_chosen_cell_is_outlined_in_both_columns_and_the_difference():
    at = open_page(PAGE, cmp="1", text=TEXT, row="4", col="2")
    assert not at.exception, at.exception
    cell = {(1.5, 2.5, 3.5, 4.5)}
    for key in (A_CHART_KEY, B_CHART_KEY, DIFF_CHART_KEY):
        assert _outlines(_chart(at, key)) == cell, key
    a_shapes = [s for s in _chart(at, A_CHART_KEY)["layout"]["shapes"] if s["line"]["color"] == HIGHLIGHT_COLOR]
    assert len(a_shapes) == 4, "one outline per panel"


def test_bad_b_values_fall_back_with_a_note():
    at = open_page(PAGE, cmp="1", b_heads="99", b_seed="x", b_weights="h3", b_mode="dream")
    assert not at.exception, at.exception
    notes = " ".join(warning.value for warning in at.warning)
    for name in ("b_heads", "b_seed", "b_mode"):
        assert name.replace("_", "\\_") in notes, name  # Markdown-escaped, literally
    assert "h3" in notes and "set-up B" in notes
    assert len(_values(_chart(at, B_CHART_KEY))) == 8, "the default: 8 heads"
    assert at.query_params["b_heads"] == "8" and at.query_params["b_weights"] == "random"


def test_a_shipped_model_as_b_shows_its_real_stream_and_its_link_leaves_out_random_settings():
    text = "ROMEO: what"
    at = open_page(PAGE, cmp="1", text=text, b_weights="h2", b_block="2", stage="weights")
    assert not at.exception, at.exception
    checkpoint = shipped_model(2)
    expected = trace_model(checkpoint.model, checkpoint.vocabulary, text).layers[1].weights[0].numpy()
    _assert_shows(_chart(at, B_CHART_KEY), expected)
    assert at.query_params["b_weights"] == "h2" and "b_heads" not in at.query_params


def test_without_compare_mode_the_link_carries_no_set_up_b():
    at = open_page(PAGE, b_heads="2")
    assert not at.exception, at.exception
    assert not [key for key in at.query_params if key.startswith("b_") or key == "cmp"]
    assert not [chart for chart in at.get("plotly_chart") if chart.proto.id.endswith(A_CHART_KEY)]


def test_different_tokens_are_said_plainly_with_no_difference_chart():
    # A: a shipped model reads characters (11 tokens); B: random weights read the words.
    words = len(tokenize("ROMEO: what", "word"))
    assert words != 11
    at = open_page(PAGE, cmp="1", text="ROMEO: what", tok="word", weights="h2", row="8", col="1")
    assert not at.exception, at.exception
    assert any(f"A reads 11 tokens and B reads {words}" in info.value for info in at.info)
    assert not [chart for chart in at.get("plotly_chart") if chart.proto.id.endswith(DIFF_CHART_KEY)]
    assert _outlines(_chart(at, A_CHART_KEY)) == {(0.5, 1.5, 7.5, 8.5)}
    assert not _outlines(_chart(at, B_CHART_KEY)), "the cell is outside B's tokens"
    assert any(f"outside this set-up's {words} tokens" in caption.value for caption in at.caption)
