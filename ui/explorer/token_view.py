"""The explorer's "one token, every head" view: a strip of the prompt's tokens to choose
one, and for every head of every block its row as a query (what it reads) and its column as
a key (who reads it), with the strongest links in words.

The token is the page's ``token`` parameter (the lines view's query too: one token looked
at across the page); ``token=-1`` (every token, for the lines) shows the last one here. A
model of many layers (a real one) draws the chosen layer's heads only; its strongest links
still come from every layer."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from figures import token_view_figure
from gpt_core import token_attention
from string_table import t
from string_table.figure_words import figure_words

from ..charts import show_chart, sized_for_page
from ..shared.token_strip import direction_choice, link_sentences, token_strip, token_window
from .state import ALL_TOKENS, TOKEN_DIRECTIONS
from .views import file_name

STRIP_KEY = "ex_tv_strip"  # the strip's own key: the lines view draws the "token" parameter's widget
CHART_KEY = "ex_token_chart"
MAX_PANELS = 64  # more (layers × heads) than this: the chosen layer only


def token_view(view, lang: str, key: Callable[[str], str]) -> None:
    labels = view.trace.labels
    last = len(labels) - 1
    token_key = key("token")
    chosen = st.session_state.get(token_key, ALL_TOKENS)
    position = last if not isinstance(chosen, int) or not 0 <= chosen <= last else chosen

    def on_strip() -> None:
        picked = st.session_state.get(STRIP_KEY)
        if picked is not None:  # a click on the chosen pill unchooses it: the token stays
            st.session_state[token_key] = picked

    direction = direction_choice(key("token_dir"), TOKEN_DIRECTIONS, lang)  # each on its own row (playground's)
    token_strip(labels, position, STRIP_KEY, on_strip, lang)
    token = token_attention(view.weights, position)
    blocks = view.weights.shape[0]
    unit = view.source.words.unit  # "block" (the book's GPT) or "layer"
    one_layer = blocks * view.weights.shape[1] > MAX_PANELS
    first = view.block if one_layer else 0
    shown = slice(first, first + 1) if one_layer else slice(0, blocks)
    rows, columns = token.rows.numpy()[shown], token.columns.numpy()[shown]
    word = f"ex.col.{unit}"
    sized, words = sized_for_page(), figure_words(lang)

    if one_layer:
        st.caption(t("tv.one_layer", lang, layer=first + 1, layers=blocks))
    window = token_window(len(labels), position, lang)

    def build():
        return token_view_figure(
            rows,
            columns,
            position,
            labels,
            words,
            direction=direction,
            layer_word=word,
            first_layer=first,
            window=window,
            size=sized,
        )

    show_chart(
        build,
        CHART_KEY,
        sized=True,
        share=view.shared("token", position, direction, first, one_layer, sized, window),
        file_name=file_name(view, "token", direction, position=position),
    )
    st.caption(t("tv.help", lang))
    shown_directions = ("reads", "read_by") if direction == "both" else (direction,)
    link_sentences(token, labels, shown_directions, lang, unit)
