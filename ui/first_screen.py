"""A page's first screen first: the page's first run in a session draws what a student sees
at once (the controls and the first chart) and leaves out what is below the fold or in a
closed tab (further charts, tables, code, downloads, the hover script). Those need large
parts of Streamlit's front end (the data grid, the syntax highlighter) and much drawing
that the browser would otherwise do while it draws the first chart
(``benchmarks/first_visit.py`` measures it). A small component in the page
(``assets/first_screen.js``) asks for the next run once the first chart is drawn, and
every later run draws the whole page, whatever started it (a widget changed meanwhile too).
"""

from __future__ import annotations

from functools import cache

import streamlit as st

from seeing_attention.paths import ASSETS

FIRST_SCREEN_JS = ASSETS / "first_screen.js"
CHART_DRAWN = "[data-testid='stPlotlyChart'] .js-plotly-plot .heatmaplayer image"
FALLBACK_MS = 8_000  # ask anyway when no chart is drawn by then
_STATE_PREFIX = "shown_first_screen_"
COMPONENT_KEY_PREFIX = "first_screen_"
MAIN_WIDTH_STATE = "main_width"  # the page's main column in the browser, in CSS pixels
MIN_WIDTH_PX, MAX_WIDTH_PX = 300, 4000


@cache  # registered once per process; Streamlit carries it to each runtime (AppTest's too)
def _component():
    return st.components.v2.component("first_screen", js=FIRST_SCREEN_JS.read_text(encoding="utf-8"))


def is_first_screen(page_key: str) -> bool:
    """True on this page's first run in this session (and only then)."""
    key = _STATE_PREFIX + page_key
    first = not st.session_state.get(key, False)
    st.session_state[key] = True
    return first


def _keep_width(key: str) -> None:
    """Keep the main column's width the browser sent with the trigger (a plausible one)."""
    try:
        sent = st.session_state[key]["drawn"]
        width = sent.get("width") if isinstance(sent, dict) else None
    except (KeyError, TypeError, AttributeError):
        return
    if isinstance(width, (int, float)) and not isinstance(width, bool) and MIN_WIDTH_PX <= width <= MAX_WIDTH_PX:
        st.session_state[MAIN_WIDTH_STATE] = float(width)


def main_width() -> float | None:
    """The page's main column width the browser last reported, if it did."""
    return st.session_state.get(MAIN_WIDTH_STATE)


def ask_for_the_rest(page_key: str) -> None:
    """Start the page's next run once its first chart is drawn in the browser; the trigger
    carries the main column's width (``main_width``)."""
    key = COMPONENT_KEY_PREFIX + page_key
    _component()(
        key=key,
        data={"selector": CHART_DRAWN, "fallback_ms": FALLBACK_MS},
        on_drawn_change=lambda: _keep_width(key),  # the run it starts draws the rest
    )
