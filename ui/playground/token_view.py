"""The playground's "one token, every head" view: a strip of the tokens to choose one, and
for every head its row as a query (what it reads) and its column as a key (who reads it),
with the strongest links in words. The token and the direction are in the link
(``token``, ``token_dir``); a token the text does not have falls back to the last, noted."""

from __future__ import annotations

import streamlit as st

from figures import link_words, token_view_figure
from gpt_core import position_label, strongest_links, token_attention

from ..charts import page_width, show_chart, type_scale
from ..figure_text import figure_words
from ..markdown import literal
from ..strings import t
from . import state
from .controls import PAGE, current_values, write_url
from .views import View

STRIP_KEY = "pg_tv_strip"  # the token strip (the link's value is PAGE's "token": -1, the last)
CHART_KEY = "pg_token_chart"
LINKS = 5


def _token(labels: list[str], lang: str) -> int:
    """The chosen position, kept inside the text: a token the text does not have is the last
    one, with a note."""
    chosen, last = PAGE.get("token"), len(labels) - 1
    if chosen == state.LAST_TOKEN:
        return last
    if chosen > last:
        label = literal(position_label(last, labels[last]))
        st.warning(t("tv.out_of_range", lang, value=chosen, last=last, label=label), icon=":material/link_off:")
        PAGE.set("token", state.LAST_TOKEN)
        return last
    return chosen


def _on_strip() -> None:
    chosen = st.session_state.get(STRIP_KEY)
    if chosen is not None:  # a click on the chosen pill unchooses it: the token stays
        PAGE.set("token", chosen)


def token_strip(labels: list[str], chosen: int, key: str, on_change, lang: str) -> None:
    """One pill per position, labelled as the charts are ("2 · cat"), the chosen one selected
    (a pill's label is Markdown: the token is quoted literally)."""
    st.session_state[key] = chosen
    st.pills(t("tv.token", lang), list(range(len(labels))), key=key, selection_mode="single", on_change=on_change,
             format_func=lambda i: literal(position_label(i, labels[i])))  # fmt: skip


def link_sentences(token, labels: list[str], directions: tuple[str, ...], lang: str, where_word: str | None) -> None:
    """The strongest links of each direction, one sentence each (``where_word``: "layer" or
    "block" for a model of several, None for one layer)."""
    columns = st.columns(len(directions))
    for column, direction in zip(columns, directions, strict=True):
        words = link_words(strongest_links(token, direction, LINKS), labels, one_layer=where_word is None)
        lines = []
        for link in words:
            where = (t("tv.where.head", lang, head=link.head) if link.layer is None
                     else t(f"tv.where.{where_word}", lang, layer=link.layer, head=link.head))  # fmt: skip
            sentence = t(f"tv.sentence.{direction}", lang, where=where, token=literal(link.token),
                         position=link.position, weight=link.weight)  # fmt: skip
            lines.append(f"- {sentence}")
        column.markdown(t(f"tv.links_{direction}", lang) + "\n\n" + "\n".join(lines))


def direction_choice(key: str, lang: str, on_change=None) -> str:
    st.segmented_control(t("tv.direction", lang), state.TOKEN_DIRECTIONS, key=key, required=True, on_change=on_change,
                         format_func=lambda d: t(f"tv.dir.{d}", lang))  # fmt: skip
    return st.session_state[key]


def token_view(view: View, text: str, lang: str) -> None:
    labels = view.result.labels
    chosen = _token(labels, lang)
    strip_col, direction_col = st.columns([4, 1], vertical_alignment="bottom")
    with strip_col:
        token_strip(labels, chosen, STRIP_KEY, _on_strip, lang)
    with direction_col:
        direction = direction_choice(PAGE.key("token_dir"), lang)
    values = current_values()
    PAGE.remember(values)
    write_url(values, text)  # the token as shown, and a fallback from a link, are in the link
    token = token_attention([view.stages["weights"]], chosen)
    rows, columns = token.rows.numpy(), token.columns.numpy()
    width, scale, words = page_width(), type_scale(), figure_words(lang)

    def build():
        return token_view_figure(rows, columns, chosen, labels, words, direction=direction, width_px=width, scale=scale)

    share = (view.identity, "token", chosen, direction, width, scale) if view.identity else None
    show_chart(build, CHART_KEY, sized=True, share=share)
    st.caption(t("tv.help", lang))
    shown = ("reads", "read_by") if direction == "both" else (direction,)
    link_sentences(token, labels, shown, lang, None)
