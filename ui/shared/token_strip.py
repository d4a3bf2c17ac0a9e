"""What the playground's and the explorer's token views share: the strip of tokens to
choose one, the choice of direction, and the strongest links in words."""

from __future__ import annotations

import streamlit as st

from figures import link_words
from gpt_core import position_label, strongest_links
from gpt_core.window import Window, window_around
from string_table import t

from ..markdown import literal

LINKS = 5  # the strongest links listed, per direction


def token_strip(labels: list[str], chosen: int, key: str, on_change, lang: str) -> None:
    """One pill per position, labelled as the charts are ("2 · cat"), the chosen one selected
    (a pill's label is Markdown: the token is quoted literally)."""
    st.session_state[key] = chosen
    st.pills(
        t("tv.token", lang),
        list(range(len(labels))),
        key=key,
        selection_mode="single",
        on_change=on_change,
        format_func=lambda i: literal(position_label(i, labels[i])),
    )


def link_sentences(token, labels: list[str], directions: tuple[str, ...], lang: str, where_word: str | None) -> None:
    """The strongest links of each direction, one sentence each (``where_word``: "layer" or
    "block" for a model of several, None for one layer)."""
    columns = st.columns(len(directions))
    for column, direction in zip(columns, directions, strict=True):
        words = link_words(strongest_links(token, direction, LINKS), labels, one_layer=where_word is None)
        lines = []
        for link in words:
            where = (
                t("tv.where.head", lang, head=link.head)
                if link.layer is None
                else t(f"tv.where.{where_word}", lang, layer=link.layer, head=link.head)
            )
            sentence = t(
                f"tv.sentence.{direction}",
                lang,
                where=where,
                token=literal(link.token),
                position=link.position,
                weight=link.weight,
            )
            lines.append(f"- {sentence}")
        column.markdown(t(f"tv.links_{direction}", lang) + "\n\n" + "\n".join(lines))


def direction_choice(key: str, directions: tuple[str, ...], lang: str) -> str:
    """Reads, is read by, or both: what the figure draws of the token."""
    st.segmented_control(
        t("tv.direction", lang), directions, key=key, required=True, format_func=lambda d: t(f"tv.dir.{d}", lang)
    )
    return st.session_state[key]


def token_window(tokens: int, position: int, lang: str) -> Window:
    """The positions a long text's token view draws: a window centred on the token (all of a
    short text's), said in a caption."""
    window = window_around(tokens, position, position)
    if not window.whole:
        last = window.first_key + window.size - 1
        st.caption(t("tv.window", lang, first=window.first_key, last=last, T=tokens))
    return window
