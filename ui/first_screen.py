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
from pathlib import Path

import streamlit as st

FIRST_SCREEN_JS = Path(__file__).resolve().parents[1] / "assets" / "first_screen.js"
CHART_DRAWN = "[data-testid='stPlotlyChart'] .js-plotly-plot .heatmaplayer image"
FALLBACK_MS = 8_000  # ask anyway when no chart is drawn by then
_STATE_PREFIX = "shown_first_screen_"
COMPONENT_KEY_PREFIX = "first_screen_"


@cache  # registered once per process; Streamlit carries it to each runtime (AppTest's too)
def _component():
    return st.components.v2.component("first_screen", js=FIRST_SCREEN_JS.read_text(encoding="utf-8"))


def is_first_screen(page_key: str) -> bool:
    """True on this page's first run in this session (and only then)."""
    key = _STATE_PREFIX + page_key
    first = not st.session_state.get(key, False)
    st.session_state[key] = True
    return first


def ask_for_the_rest(page_key: str) -> None:
    """Start the page's next run once its first chart is drawn in the browser."""
    _component()(
        key=COMPONENT_KEY_PREFIX + page_key,
        data={"selector": CHART_DRAWN, "fallback_ms": FALLBACK_MS},
        on_drawn_change=lambda: None,  # the trigger only starts the run; the run draws the rest
    )
