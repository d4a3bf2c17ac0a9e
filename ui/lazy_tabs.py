"""Tabs whose hidden panels do not run: only the open tab's content is made and sent.

A page's tabs all run on every rerun by default (Streamlit sends every panel, shown or
not); on the playground that was a sixth of a seed change's cost on the server. These tabs
track which one is open (switching reruns the page) and the page draws only that one.
The open tab is kept across a change of language (Streamlit's state holds its label)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from string_table import LANGUAGES, t


def lazy_tabs(
    names: Sequence[str],
    key: str,
    lang: str,
    string_prefix: str,
    chosen: str | None = None,
    on_choose: Callable[[str], None] | None = None,
) -> tuple[str, dict]:
    """Draw tabs labelled ``t(f"{string_prefix}.{name}", lang)``; return the open tab's name
    and each name's container. The caller fills only the open one.

    With ``chosen`` (a name, kept by the page: its link holds it), that tab is open, and a
    click on another calls ``on_choose(name)`` before the page runs; without, the tabs keep
    their own choice. Either way the open tab survives a change of language."""
    labels = [t(f"{string_prefix}.{name}", lang) for name in names]
    if chosen is not None:
        st.session_state[key] = labels[names.index(chosen)] if chosen in names else labels[0]
    stored = st.session_state.get(key)
    if stored not in labels:  # not drawn yet, a label in the other language, or a crafted value
        index = next(
            (i for i, name in enumerate(names) for other in LANGUAGES if t(f"{string_prefix}.{name}", other) == stored),
            0,
        )
        st.session_state[key] = labels[index]

    def clicked() -> None:
        label = st.session_state.get(key)
        if on_choose is not None and label in labels:
            on_choose(names[labels.index(label)])

    tabs = st.tabs(labels, key=key, on_change=clicked if on_choose is not None else "rerun")
    open_name = next((name for name, tab in zip(names, tabs, strict=True) if tab.open), names[0])
    return open_name, dict(zip(names, tabs, strict=True))
