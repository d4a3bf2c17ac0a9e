"""The contract between figures and the chart-events component (figures/events.py): every
figure a click chooses from names each heatmap's head (and block, where it draws several),
every figure whose panels show the same cells links their hover, and the component is the
one place the page listens to its charts."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from figures import grid_figure, head_detail_figure, heads_overview_figure, lines_figure
from figures.events import (
    BLOCK,
    EVENT_KEYS,
    HEAD,
    ORIGIN,
    STEP,
    SYNC_HOVER,
    clickable_heads,
    hover_is_linked,
    layout_meta,
    trace_meta,
)
from gpt_core import STAGES, PlaygroundConfig, trace_attention
from string_table.figure_words import figure_words
from tests.helpers import EXPLORER_WORDS
from ui.chart_events import CHART_EVENTS_JS, parse_click

ROOT = Path(__file__).resolve().parents[2]
EN = figure_words("en")
EXPLORER_TEXT = EXPLORER_WORDS


@pytest.fixture(scope="module")
def result():
    return trace_attention("to be or not", PlaygroundConfig(heads=3, head_dim=4, seed=1))


def _spec(figure) -> dict:
    return json.loads(figure.to_json())


def test_meta_helpers_spell_the_keys_once():
    assert trace_meta(2) == {HEAD: 2}
    assert trace_meta(2, 0) == {HEAD: 2, BLOCK: 0}
    assert layout_meta(sync_hover=True, min_width_px=812.4) == {SYNC_HOVER: True, "minWidthPx": 812}
    assert layout_meta() == {}
    assert trace_meta(2, origin=(376, 0)) == {HEAD: 2, ORIGIN: [376, 0]}
    assert trace_meta(0, step=8) == {HEAD: 0, STEP: 8}
    assert trace_meta(0, origin=(0, 0), step=1) == {HEAD: 0}, "a whole matrix's trace says nothing more"
    assert set(EVENT_KEYS.values()) == {HEAD, BLOCK, SYNC_HOVER, ORIGIN, STEP}


def test_the_detail_figure_is_clickable_per_head_and_links_its_hover(result):
    for head in range(3):
        stages = {stage: getattr(result.trace, stage)[0, head].numpy() for stage in STAGES}
        spec = _spec(head_detail_figure(stages, result.labels, head, EN))
        assert set(clickable_heads(spec)) == {head}
        assert hover_is_linked(spec)


def test_the_overview_names_each_panels_head(result):
    spec = _spec(heads_overview_figure(result.trace.weights[0].numpy(), result.labels, "weights", EN))
    assert sorted(set(clickable_heads(spec))) == [0, 1, 2]
    assert not hover_is_linked(spec), "its panels are different heads: hovering one says nothing of another"


def test_the_grid_names_each_panels_block_and_head():
    T = 5
    weights = np.tril(np.full((2, 3, T, T), 1.0 / T, dtype=np.float32))
    spec = _spec(grid_figure(weights, list("abcde"), EXPLORER_TEXT))
    panels = {(trace["meta"][BLOCK], trace["meta"][HEAD]) for trace in spec["data"] if trace["type"] == "heatmap"}
    assert panels == {(b, h) for b in range(2) for h in range(3)}
    clickable_heads(spec)  # raises if any heatmap lacks its head


def test_the_lines_view_names_each_lines_head():
    T = 4
    weights = np.tril(np.full((2, T, T), 1.0 / T, dtype=np.float32))
    spec = _spec(lines_figure(weights, list("abcd"), [0, 1], EXPLORER_TEXT))
    lines = [trace for trace in spec["data"] if trace.get("mode") == "lines" and trace.get("showlegend") is False]
    assert lines and {trace["meta"][HEAD] for trace in lines} == {0, 1}
    assert all(trace["legendgroup"] == f"head{trace['meta'][HEAD]}" for trace in lines)


def test_a_heatmap_without_its_head_breaches_the_contract():
    with pytest.raises(ValueError, match="meta.head"):
        clickable_heads({"data": [{"type": "heatmap", "name": "x", "meta": {}}]})


def test_one_component_listens_with_plotlys_public_events_and_polls_nothing():
    js = CHART_EVENTS_JS.read_text(encoding="utf-8")
    for event in ("plotly_click", "plotly_hover", "plotly_unhover"):
        assert f'"{event}"' in js
    assert "setInterval" not in js and "window.parent" not in js, "no polling, no reaching out of a frame"
    for key in EVENT_KEYS:
        assert f"keys.{key}" in js, f"the component reads meta.{key} by the name figures/events.py gives it"
    assert not (ROOT / "assets" / "sync_hover.html").exists() and not (ROOT / "assets" / "chart_clicks.js").exists()
    pages = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "ui").rglob("*.py"))
    assert "st.iframe" not in pages and "components.v1" not in pages


def test_a_click_payload_is_checked_against_the_view():
    assert parse_click({"chart": "grid", "head": 1, "row": 2, "col": 0, "block": 1}, {"grid"}, 3, 2).block == 1
    assert parse_click({"chart": "grid", "head": 2, "row": 2, "col": 0}, {"grid"}, 3, 2) is None
    assert parse_click({"chart": "other", "head": 0, "row": 0, "col": 0}, {"grid"}, 3, 2) is None
    assert parse_click("junk", {"grid"}, 3, 2) is None
