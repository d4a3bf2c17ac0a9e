"""Beside a long text's window (``gpt_core.window``): the map of the whole text, the window
outlined (a click on it moves the window: the page's chart events send the block's first
query and key), what the window is, and how much of the chosen query's attention lies
outside it. Shared by the playground and the explorer."""

from __future__ import annotations

import numpy as np
import streamlit as st

from figures import window_map_figure
from gpt_core.window import Window, weight_outside
from string_table import t
from string_table.figure_words import figure_words

from .charts import show_chart, type_scale

MAP_SHARE, NOTE_SHARE = 2, 3


def window_map(
    weights: np.ndarray,
    window: Window,
    head: int,
    row: int,
    lang: str,
    key: str,
    share: tuple | None,
    file_name: str,
    shares: tuple[int, int] = (MAP_SHARE, NOTE_SHARE),
    drawn_above: bool = False,
) -> None:
    """``weights``: the head's (T, T) softmax weights; ``row``: the chosen query; ``shares``:
    the map's and the note's widths (a narrow column gives the map more of it).
    ``drawn_above``: the same map already stands higher on the page (the first screen's): only
    the note is drawn here, pointing to it, so the page sends the map once."""
    if drawn_above:
        window_note(weights, window, row, lang, st, above=True)
        return
    map_col, note_col = st.columns(list(shares), vertical_alignment="center")
    scale = type_scale()
    with map_col:
        show_chart(
            lambda: window_map_figure(weights, window, "weights", head, figure_words(lang), scale),
            key,
            share=share,
            file_name=file_name,
        )
    window_note(weights, window, row, lang, note_col)


def window_note(weights: np.ndarray, window: Window, row: int, lang: str, place, above: bool = False) -> None:
    """What the window is, where its map stands, and the chosen query's share outside it: one
    block of text (each element a rerun sends costs the server as much as a line of it)."""
    lines = [t("win.note_above" if above else "win.note", lang, T=window.tokens, n=window.size)]
    if row in window.queries:
        outside = float(weight_outside(weights, window)[row - window.first_query])
        if not np.isnan(outside):  # NaN: the row is hidden until the learner's guess (Predict first)
            lines.append(t("win.outside", lang, row=row, share=f"{outside:.1%}"))
    place.markdown("\n\n".join(lines))
