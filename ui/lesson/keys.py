"""The lesson's keys: Right arrow or Page Down for the next step, Left arrow or Page Up for the
previous one (what a presenter's clicker sends), through ``assets/lesson_keys.js``, a
components-v2 element in the page. Keys typed into a control stay that control's, except in
presentation mode: there the clicker moves the step whatever was clicked last."""

from __future__ import annotations

from functools import cache

import streamlit as st

from seeing_attention.paths import ASSETS

LESSON_KEYS_JS = ASSETS / "lesson_keys.js"
KEYS_KEY = "ls_keys"
MOVES = {"next": 1, "previous": -1}


@cache  # registered once per process
def _component():
    return st.components.v2.component("lesson_keys", js=LESSON_KEYS_JS.read_text(encoding="utf-8"))


def pressed(presenting: bool = False) -> int:
    """+1 or -1 when this run was started by a step key, else 0 (anything else a client sends
    is ignored). ``presenting``: the clicker's keys move the step whatever has the focus."""
    result = _component()(key=KEYS_KEY, data={"presenting": presenting}, on_go_change=lambda: None)
    payload = getattr(result, "go", None)
    return MOVES.get(payload.get("go"), 0) if isinstance(payload, dict) else 0
