""" "One token, every head", for the playground and the explorer: a strip of the text's tokens
to choose one, and for every head its row as a query (what it reads) and its column as a key
(who reads it), with the strongest links in words.

A page says how it reads and keeps the chosen token and direction (``TokenChoice``): the
playground's in its page state and link, the explorer's in its parameters' widgets. A page
that looks at one layer (the playground) draws that layer's heads; a page of every layer
(the explorer) draws every layer's, or the chosen layer's alone where they are more than
``MAX_PANELS`` (a real model), its strongest links still from every layer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from figures import token_view_figure
from gpt_core import token_attention
from string_table import t
from string_table.figure_words import figure_words

from ..charts import show_chart, sized_for_page
from ..shared.token_strip import direction_choice, link_sentences, token_strip, token_window
from .model import SourceView

MAX_PANELS = 64  # more (layers × heads) than this: the chosen layer only


@dataclass(frozen=True)
class TokenChoice:
    """How a page reads and keeps the token view's choices."""

    strip_key: str  # the token strip's widget
    chart_key: str  # the chart's key (its clicks and its place)
    direction_key: str  # the direction's widget (the link's ``token_dir``)
    directions: tuple[str, ...]  # "reads", "read_by", "both"
    position: Callable[[list[str], str], int]  # (labels, lang) -> the chosen position, inside the text
    choose: Callable[[int], None]  # keep a position the strip chose
    chosen: Callable[[], None] = lambda: None  # once both are read (the playground writes its link)


def _layers(view: SourceView) -> tuple[list, int, str | None]:
    """The layers drawn, the first one's index and the word naming layers (None: one layer's
    heads only)."""
    if view.one_layer_page:
        return [view.layer_weights()], 0, None
    weights = view.every_layer()
    if len(weights) * view.about.heads > MAX_PANELS:
        return [weights[view.layer]], view.layer, view.unit
    return list(weights), 0, view.unit


def token_view(view: SourceView, lang: str, choice: TokenChoice) -> None:
    labels = view.labels
    position = choice.position(labels, lang)

    def on_strip() -> None:
        picked = st.session_state.get(choice.strip_key)
        if picked is not None:  # a click on the chosen pill unchooses it: the token stays
            choice.choose(picked)

    # Each on its own row: the strip wraps over long texts, and the three directions keep
    # their whole labels at 1366 px and in presentation mode's larger type.
    direction = direction_choice(choice.direction_key, choice.directions, lang)
    token_strip(labels, position, choice.strip_key, on_strip, lang)
    choice.chosen()
    drawn, first, unit = _layers(view)
    # The strongest links: from every layer the page looks at (a real model's too, drawn or not).
    token = token_attention(drawn if unit is None else view.every_layer(), position)
    shown = slice(first, first + 1) if len(drawn) == 1 and unit is not None else slice(0, len(drawn))
    rows, columns = token.rows.numpy()[shown], token.columns.numpy()[shown]
    if unit is not None and len(drawn) < len(view.every_layer()):
        st.caption(t("tv.one_layer", lang, layer=first + 1, layers=len(view.every_layer())))
    sized, words, window = sized_for_page(), figure_words(lang), token_window(len(labels), position, lang)
    layer_word = None if unit is None else f"ex.col.{unit}"

    def build():
        return token_view_figure(
            rows,
            columns,
            position,
            labels,
            words,
            direction=direction,
            layer_word=layer_word,
            first_layer=first,
            window=window,
            size=sized,
        )

    show_chart(
        build,
        choice.chart_key,
        sized=True,
        share=view.shared("token", position, direction, first, len(drawn), sized, window),
        file_name=view.file_name("token", direction, position=position),
    )
    st.caption(t("tv.help", lang))
    directions = ("reads", "read_by") if direction == "both" else (direction,)
    link_sentences(token, labels, directions, lang, unit)
