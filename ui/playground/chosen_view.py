"""The view the controls ask for, shared by the page and compare mode's set-up A: computed
once per change of the numbers (``computed``), with the source's notes and the text its link
carries, and the chosen head and cell kept inside it."""

from __future__ import annotations

import streamlit as st

from gpt_core.window import first_key
from links import playground as state
from links.rules import Note, clamp_position

from ..views import notes
from . import computed
from .controls import widget_key, write_url
from .views import View

TEXT_STATE = "pg_text_shown"  # the text shown last run: a new text resets the chosen cell


def sync_focus(view: View, text: str) -> list[Note]:
    """Keep the chosen head and cell inside the computed view. A new text resets the cell (it
    named positions of the old one's tokens); another model or tokenizer on the same text
    keeps it where it still exists. A position past the text's end becomes its last token:
    the notes say so (shown when the position came from a link)."""
    ss = st.session_state
    T = len(view.result.tokens)
    if ss.get(TEXT_STATE, text) != text:
        ss[widget_key("row")], ss[widget_key("col")] = state.LAST_ROW, state.FIRST_KEY  # the last query sees every key
    ss[TEXT_STATE] = text
    ss[widget_key("head")] = min(ss[widget_key("head")], view.result.config.heads)
    notes: list[Note] = []
    for name in ("row", "col"):
        ss[widget_key(name)], moved = clamp_position(name, ss[widget_key(name)], T)
        notes += moved
    if ss[widget_key("row")] == state.LAST_ROW:
        ss[widget_key("row")] = T - 1
    if ss[widget_key("col")] == state.FIRST_KEY:  # a long text: the row's own key, the diagonal in the window
        ss[widget_key("col")] = first_key(T, ss[widget_key("row")])
    return notes


def computed_view(values: dict, lang: str, source) -> tuple[View, str | None] | None:
    """The view for the controls' values and the text its link carries (None: the student's
    whole text), or None after a message."""
    if source is None:  # a model that could not be loaded: its message is shown
        write_url(values, None)
        return None
    layer = min(values["block"], source.description.layers) - 1
    shown = computed.readable_view(source, values["text"], layer, lang)
    if shown is None:
        write_url(values, None)
        return None
    view, text = shown
    notes.warnings(view.notes, lang)  # above the first chart; the rest under it
    if text != values["text"]:  # the source's own example, drawn instead of a text it cannot read
        return view, text
    # A source the reader sets up (random weights) redraws its numbers from the link's settings
    # and the text it read, which the link carries; a model's keeps the student's text, what it
    # left out noted above.
    return view, view.text_used if source.settings else None
