"""The explorer's "one token, every head" view (``ui.views.token_view``) of every block.

The token is the page's ``token`` parameter (the lines view's query too: one token looked
at across the page); ``token=-1`` (every token, for the lines) shows the last one here."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from links.explorer import ALL_TOKENS, TOKEN_DIRECTIONS

from ..views.token_view import TokenChoice
from ..views.token_view import token_view as draw_token_view
from .views import ExplorerView

STRIP_KEY = "ex_tv_strip"  # the strip's own key: the lines view draws the "token" parameter's widget
CHART_KEY = "ex_token_chart"


def token_view(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    token_key = key("token")

    def position(labels: list[str], lang: str) -> int:
        chosen, last = st.session_state.get(token_key, ALL_TOKENS), len(labels) - 1
        return last if not isinstance(chosen, int) or not 0 <= chosen <= last else chosen

    def choose(picked: int) -> None:
        st.session_state[token_key] = picked

    choice = TokenChoice(STRIP_KEY, CHART_KEY, key("token_dir"), TOKEN_DIRECTIONS, position=position, choose=choose)
    draw_token_view(view, lang, choice)
