"""The browser's Back and Forward buttons: one history entry per page visit.

Streamlit (1.67) pushes a history entry each time a page writes its link with
``st.query_params``, and on Back it runs the page again with the older link, which a page
that keeps its view in the session does not replay: Back seemed to undo nothing, and the
entries it passed were overwritten with the page's current view. A small script in the page
(``assets/history.js``, a components-v2 element) makes a push that keeps the page a
replacement: each page visit is one entry, and its link is always the page as the student
left it. Back and Forward move between pages, each shown as it was left; a page's own
changes are undone with its own controls, not with Back.
"""

from __future__ import annotations

from functools import cache

import streamlit as st

from seeing_attention.paths import ASSETS

HISTORY_JS = ASSETS / "history.js"
HISTORY_KEY = "one_entry_per_page"


@cache  # registered once per process; Streamlit carries it to each runtime (AppTest's too)
def _component():
    return st.components.v2.component("one_entry_per_page", js=HISTORY_JS.read_text(encoding="utf-8"))


def one_entry_per_page() -> None:
    """Put the script in the sidebar, on a session's first run: it draws nothing and patches
    the window's history once (a later run of the same window need not send it again)."""
    if st.session_state.get(HISTORY_KEY + "_mounted"):
        return
    with st.sidebar:
        _component()(key=HISTORY_KEY, data={})
    st.session_state[HISTORY_KEY + "_mounted"] = True
