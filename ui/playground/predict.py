"""Predict first (``predict=1``): the chosen query's row is hidden in every head until the
learner taps the key they think it reads most; then the row is drawn again and each head
says where the guess ranks among the row's keys. A guess answers one query row of one
computation: a new row, text or setting asks again."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import streamlit as st

from gpt_core import position_label
from links import playground as state
from string_table import t

from ..contained import contained
from ..markdown import literal
from .computed import SHARED_VIEWS
from .controls import widget_key
from .views import View

GUESS_STATE = "pg_predict_guess"  # (the query row's key, the position guessed)
PILLS_KEY = "pg_predict_pills"
MAX_PILLS = 48  # keys a row may offer as pills; a longer row lists them in a box


def question_key(values: dict[str, Any], row: int) -> tuple:
    """What a guess answers: the numbers' controls and the query row (not the head: one guess
    is ranked in every head)."""
    return (*(values[name] for name in state.NUMBER_PARAMS), row)


def guess_for(values: dict[str, Any], row: int) -> int | None:
    """The position guessed for this question, or None while it is still to be asked."""
    asked, guess = st.session_state.get(GUESS_STATE, (None, None))
    return guess if asked == question_key(values, row) else None


def hidden(view: View, row: int) -> View:
    """``view`` with query ``row`` of every head and stage empty (NaN: drawn as no cell, no
    value to hover, write or read back), shared between sessions under its own key, and kept
    in the server's bounded cache of views beside the view it hides a row of."""
    if not view.identity:
        return _without(view, row)
    return SHARED_VIEWS.get((*view.identity, "predict", row), lambda: _without(view, row))


def _without(view: View, row: int) -> View:

    def without_row(matrices: np.ndarray) -> np.ndarray:
        emptied = np.array(matrices, dtype=np.float32, copy=True)
        emptied[:, row, :] = np.nan
        return emptied

    return dataclasses.replace(
        view,
        stages={stage: without_row(matrices) for stage, matrices in view.stages.items()},
        dropped_weights=without_row(view.dropped_weights),
        identity=(*view.identity, "predict", row) if view.identity else (),
    )


def ranks(weights: np.ndarray, row: int, guess: int) -> list[int]:
    """Per head, where key ``guess`` ranks among the keys query ``row`` reads (1: the
    strongest; keys of equal weight share a rank). weights: (h, T, T)."""
    readable = np.asarray(weights)[:, row, : row + 1]
    return [1 + int(np.count_nonzero(head > head[guess])) for head in readable]


def _choose(key: tuple) -> None:
    chosen = st.session_state.get(PILLS_KEY)
    if chosen is not None:
        st.session_state[GUESS_STATE] = (key, chosen)


def ask(view: View, values: dict[str, Any], row: int, lang: str) -> None:
    """The question and one pill per key the query can read ("2 · cat", escaped); a row of
    more than MAX_PILLS keys (a long text) lists them in a box instead of a wall of pills."""
    labels = view.result.labels
    st.session_state[PILLS_KEY] = None
    query = literal(position_label(row, labels[row]))
    choice = dict(key=PILLS_KEY, on_change=_choose, args=(question_key(values, row),))
    if row + 1 <= MAX_PILLS:  # a pill's label is Markdown: escaped
        st.pills(
            t("pg.predict_ask", lang, query=query),
            list(range(row + 1)),
            selection_mode="single",
            format_func=lambda i: literal(position_label(i, labels[i])),
            **choice,
        )
    else:  # a list's option is plain text
        st.selectbox(
            t("pg.predict_ask_list", lang, query=query),
            list(range(row + 1)),
            index=None,
            placeholder=t("pg.predict_placeholder", lang),
            format_func=lambda i: position_label(i, labels[i]),
            **choice,
        )
    st.caption(t("pg.predict_hidden", lang))


def answer(view: View, row: int, guess: int, lang: str) -> None:
    """Per head: the guess's rank among the row's keys and the strongest key."""
    labels, weights = view.result.labels, view.stages["weights"]
    lines = []
    for head, rank in enumerate(ranks(weights, row, guess)):
        readable = weights[head, row, : row + 1]
        tied = np.flatnonzero(readable == readable.max())  # every key at the top, as ranks count them
        strongest = t("list_sep", lang).join(literal(position_label(int(k), labels[k])) for k in tied)
        lines.append(
            "- "
            + t(
                "pg.predict_rank",
                lang,
                head=head + 1,
                rank=rank,
                keys=row + 1,
                strongest=strongest,
            )
        )
    guessed = literal(position_label(guess, labels[guess]))
    st.markdown(t("pg.predict_result", lang, guess=guessed) + "\n\n" + "\n".join(lines))


def shown_view(view: View, values: dict[str, Any], lang: str) -> tuple[View, bool]:
    """With Predict first on, the question (pending: the view with the row hidden) or the
    answer; the view to draw and whether the guess is still to come. Should Predict first
    fail, it says so in its place and the views are drawn as without it."""
    if not values.get("predict"):
        return view, False
    with contained(t("pg.predict", lang), lang):
        return _question_or_answer(view, values, lang)
    return view, False


def _question_or_answer(view: View, values: dict[str, Any], lang: str) -> tuple[View, bool]:
    row = st.session_state[widget_key("row")]
    guess = guess_for(values, row)
    if guess is None:
        ask(view, values, row, lang)
        return hidden(view, row), True
    answer(view, row, guess, lang)
    return view, False
