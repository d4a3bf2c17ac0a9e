"""The playground's "one token, every head" view (``ui.views.token_view``) of the computed
layer: the token and the direction are in the page's state and its link (``token``,
``token_dir``); a token the text does not have falls back to the last, noted."""

from __future__ import annotations

import streamlit as st

from gpt_core import position_label
from links import playground as state
from string_table import t

from ..markdown import literal
from ..views.token_view import TokenChoice
from ..views.token_view import token_view as draw_token_view
from .controls import PAGE, current_values, write_url
from .views import View

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


def token_view(view: View, text: str, lang: str) -> None:
    def chosen() -> None:
        values = current_values()
        PAGE.remember(values)
        write_url(values, text)  # the token as shown, and a fallback from a link, are in the link

    choice = TokenChoice(
        STRIP_KEY,
        CHART_KEY,
        PAGE.key("token_dir"),
        state.TOKEN_DIRECTIONS,
        position=_token,
        choose=lambda position: PAGE.set("token", position),
        chosen=chosen,
    )
    draw_token_view(view, lang, choice)
