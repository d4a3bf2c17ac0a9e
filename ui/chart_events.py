"""The page's one chart-events component: clicks that choose and hovers that are linked, for
every chart, through Plotly's public events (``plotly_click``, ``plotly_hover``,
``plotly_unhover``) in ``assets/chart_events.js``, a components-v2 element in the page.

Why a component: Plotly heatmaps send no selection events to
``st.plotly_chart(on_select=...)`` (Streamlit issue #8760), and a transparent scatter layer
over a heatmap on the same axes did not select either (checked in Chromium on Streamlit
1.67); Plotly's own click event does fire. What a figure sets for it (``meta.head``,
``meta.block``, ``layout.meta.syncHover``) is defined in ``figures/events.py``.

A page calls ``listen`` once per run, before or after its charts: a clicked heatmap cell in a
named chart comes back as a ``Click`` (chart, head, row, column, block) with the next run,
and every chart whose layout asks for it gets its hovered cell outlined in all its panels.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import streamlit as st

from figures.events import EVENT_KEYS
from seeing_attention.paths import ASSETS

CHART_EVENTS_JS = ASSETS / "chart_events.js"


@dataclass(frozen=True)
class Click:
    chart: str  # the name the page gave the chart
    head: int | None  # 0-based, from the clicked trace's meta
    row: int  # the query
    col: int  # the key
    block: int | None = None  # 0-based, from the clicked trace's meta (charts of several blocks)


@cache  # registered once per process
def _component():
    return st.components.v2.component("chart_events", js=CHART_EVENTS_JS.read_text(encoding="utf-8"))


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
    """Listen for clicks on the charts drawn with these keys (key -> name), and link the
    hover of every chart that asks for it; returns this run's click payload, if a click
    started it."""
    result = _component()(key=key, data={"charts": charts, "keys": EVENT_KEYS}, on_clicked_change=lambda: None)
    return getattr(result, "clicked", None)
