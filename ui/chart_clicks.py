"""Choosing by clicking a chart: a heatmap cell clicked in a named chart comes back as
(chart, head, row, column). Plotly heatmaps send no selection events to
``st.plotly_chart(on_select=...)`` (Streamlit issue #8760), and a transparent scatter
layer over a heatmap on the same axes did not select either (checked in Chromium on
Streamlit 1.67); Plotly's own click event does fire, so a small component in the page
(``assets/chart_clicks.js``) listens for it and starts a run with the clicked cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import streamlit as st

CHART_CLICKS_JS = Path(__file__).resolve().parents[1] / "assets" / "chart_clicks.js"


@dataclass(frozen=True)
class Click:
    chart: str  # the name the page gave the chart
    head: int | None  # 0-based, from the clicked trace's meta
    row: int  # the query
    col: int  # the key
    block: int | None = None  # 0-based, from the clicked trace's meta (charts of several blocks)


@cache  # registered once per process
def _component():
    return st.components.v2.component("chart_clicks", js=CHART_CLICKS_JS.read_text(encoding="utf-8"))


def _valid(value: object, count: int | None) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0 and (count is None or value < count)


def parse_click(payload: object, charts: set[str], tokens: int, heads: int) -> Click | None:
    """The click a payload describes, or None when it is not one this page can use (a
    stale chart after the text changed, or anything malformed)."""
    if not isinstance(payload, dict) or payload.get("chart") not in charts:
        return None
    head = payload.get("head")
    row, col = payload.get("row"), payload.get("col")
    if not (_valid(row, tokens) and _valid(col, tokens)) or (head is not None and not _valid(head, heads)):
        return None
    block = payload.get("block")
    return Click(payload["chart"], head, row, col, block if _valid(block, None) else None)


def listen(charts: dict[str, str], key: str) -> object:
    """Listen for clicks on the charts drawn with these keys (key -> name); returns this
    run's click payload, if a click started it."""
    result = _component()(key=key, data={"charts": charts}, on_clicked_change=lambda: None)
    return getattr(result, "clicked", None)
