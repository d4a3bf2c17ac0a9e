"""The playground's "one token, every head" view: a strip of the tokens to choose one, and
for every head its row as a query (what it reads) and its column as a key (who reads it),
with the strongest links in words. The token and the direction are in the link
(``token``, ``token_dir``); a token the text does not have falls back to the last, noted."""

from __future__ import annotations

import streamlit as st

from figures import ChartSize, token_view_figure
from gpt_core import position_label, token_attention
from links import playground as state
from string_table import t
from string_table.figure_words import figure_words

from ..charts import page_width, show_chart, type_scale
from ..markdown import literal
from ..shared.token_strip import direction_choice, link_sentences, token_strip, token_window
from .controls import PAGE, current_values, write_url
from .views import View, file_name

STRIP_KEY = "pg_tv_strip"  # the token strip (the link's value is PAGE's "token": -1, the last)
CHART_KEY = "pg_token_chart"


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


def token_view(view: View, text: str, lang: str) -> None:
    labels = view.result.labels
    chosen = _token(labels, lang)
    # Each on its own row: the strip wraps over long texts, and the three directions keep
    # their whole labels at 1366 px and in presentation mode's larger type.
    direction = direction_choice(PAGE.key("token_dir"), state.TOKEN_DIRECTIONS, lang)
    token_strip(labels, chosen, STRIP_KEY, _on_strip, lang)
    values = current_values()
    PAGE.remember(values)
    write_url(values, text)  # the token as shown, and a fallback from a link, are in the link
    token = token_attention([view.stages["weights"]], chosen)
    rows, columns = token.rows.numpy(), token.columns.numpy()
    width, scale, words = page_width(), type_scale(), figure_words(lang)

    window = token_window(len(labels), chosen, lang)

    def build():
        return token_view_figure(
            rows,
            columns,
            chosen,
            labels,
            words,
            direction=direction,
            size=ChartSize(width_px=width, scale=scale),
            window=window,
        )

    share = (view.identity, "token", chosen, direction, width, scale, window) if view.identity else None
    show_chart(
        build, CHART_KEY, sized=True, share=share, file_name=file_name(view, "token", direction, position=chosen)
    )
    st.caption(t("tv.help", lang))
    shown = ("reads", "read_by") if direction == "both" else (direction,)
    link_sentences(token, labels, shown, lang, None)
