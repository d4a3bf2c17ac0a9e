"""Tabs whose hidden panels do not run: only the open tab's content is made and sent.

A page's tabs all run on every rerun by default (Streamlit sends every panel, shown or
not); on the playground that was a sixth of a seed change's cost on the server. These tabs
track which one is open (switching reruns the page) and the page draws only that one.
The open tab is kept across a change of language (Streamlit's state holds its label)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from .strings import LANGUAGES, t


def lazy_tabs(names: Sequence[str], key: str, lang: str, string_prefix: str) -> tuple[str, dict]:
    """Draw tabs labelled ``t(f"{string_prefix}.{name}", lang)``; return the open tab's name
    and each name's container. The caller fills only the open one."""
    labels = [t(f"{string_prefix}.{name}", lang) for name in names]
    chosen = st.session_state.get(key)
    if chosen not in labels:  # not drawn yet, a label in the other language, or a crafted value
        index = next((i for i, name in enumerate(names) for other in LANGUAGES
                      if t(f"{string_prefix}.{name}", other) == chosen), 0)  # fmt: skip
        st.session_state[key] = labels[index]
    tabs = st.tabs(labels, key=key, on_change="rerun")
    open_name = next((name for name, tab in zip(names, tabs, strict=True) if tab.open), names[0])
    return open_name, dict(zip(names, tabs, strict=True))
