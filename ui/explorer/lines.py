"""The explorer's lines: each query joined to the keys it weighs past a threshold, for the
chosen head or every head of the chosen block, every token or one; a long text's window."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from figures import lines_figure
from figures.lines import LINE_THRESHOLD, LINES_CUT, LINES_DRAWN, LINES_OUTSIDE, LINES_STRONGEST
from gpt_core import position_label
from gpt_core.window import window_around
from links.explorer import ALL_TOKENS, LINE_MODES
from string_table import t
from string_table.figure_words import figure_words

from ..charts import prepared, show_chart, type_scale
from .views import LINES_CHART_KEY, ExplorerView

LINES_WINDOW = 40  # a long text's lines: this many queries and keys, a row each, on one screen
LINES_SHARE = (3, 2)  # the lines figure's column and the space beside it


def lines(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    labels = view.trace.labels
    unit = t(f"ex.col.{view.source.words.unit}", lang)
    mode_col, token_col = st.columns(2)
    mode_col.segmented_control(
        t("ex.lines_mode", lang),
        LINE_MODES,
        key=key("lines"),
        required=True,
        format_func=lambda mode: t(f"ex.lines_mode.{mode}", lang, unit=unit),
    )
    token_col.selectbox(
        t("ex.token", lang),
        [ALL_TOKENS, *range(len(labels))],
        key=key("token"),
        format_func=lambda i: t("ex.all_tokens", lang) if i == ALL_TOKENS else position_label(i, labels[i]),
    )
    mode, token = st.session_state[key("lines")], st.session_state[key("token")]
    heads = [view.head] if mode == "head" else list(range(view.about.heads))
    st.caption(t("ex.lines_help", lang, threshold=LINE_THRESHOLD))
    chosen, scale = None if token == ALL_TOKENS else token, type_scale()
    centre = view.chosen_row if chosen is None else chosen
    window = window_around(
        len(labels),
        centre,
        view.chosen_col if chosen is None else max(0, chosen - LINES_WINDOW // 2 + 1),
        size=LINES_WINDOW,
    )

    def build():
        return lines_figure(
            view.weights[view.layer], labels, heads, figure_words(lang), token=chosen, scale=scale, window=window
        )

    drawn = prepared(build, sized=True, share=view.shared("lines", view.layer, tuple(heads), chosen, scale, window))
    _captions(drawn.meta, window, lang)
    if not drawn.meta.get(LINES_DRAWN, 1):  # an empty figure says why
        _no_lines(drawn.meta, lang)
    chart_col, _ = st.columns(LINES_SHARE)
    with chart_col:
        show_chart(
            drawn,
            LINES_CHART_KEY,
            file_name=view.file_name(
                "lines", block=view.layer + 1, head=view.head + 1 if mode == "head" else "all", token=chosen
            ),
        )


def _captions(meta: dict, window, lang: str) -> None:
    """What the lines leave out: a long text's window, and the lines outside it or cut."""
    if not window.whole:
        last_query, last_key = window.first_query + window.size - 1, window.first_key + window.size - 1
        values = dict(q0=window.first_query, q1=last_query, k0=window.first_key, k1=last_key, T=window.tokens)
        st.caption(t("ex.lines_window", lang, **values))
    outside, cut = meta.get(LINES_OUTSIDE, 0), meta.get(LINES_CUT, 0)
    if outside + cut:
        st.caption(t("ex.lines_left_out", lang, n=outside + cut, outside=outside, cut=cut))


def _no_lines(meta: dict, lang: str) -> None:
    """No weight of the queries shown reaches the threshold (a long text's weights spread
    thin over many keys): say so, with the largest, rather than an empty chart."""
    strongest = f"{meta.get(LINES_STRONGEST, 0.0):.3f}"
    st.info(t("ex.lines_none", lang, threshold=LINE_THRESHOLD, strongest=strongest), icon=":material/info:")
