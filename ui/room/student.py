"""A student's side of a room on the lesson page: the page follows the teacher's step (or
the student's own, at their own pace), the answer is sent as soon as it is chosen and may be
changed until the teacher reveals, and the reveal shows the answer and why on every screen.

The page learns of the teacher's moves by asking the store every ``FOLLOW_EVERY_S`` seconds
(a fragment: one small read); when the room's version has changed, the whole page redraws."""

from __future__ import annotations

from typing import Any

import streamlit as st

from classroom.model import RoomError
from figures.token_question import token_question_figure
from string_table import t
from string_table.figure_words import figure_words

from ..charts import show_chart
from .seat import OWN_PACE_KEY, Seat, code_text, refused, store, store_failed

# A lesson question (``ui/lesson/questions.Question``: step, prompt, options, label,
# correct, many, accepted), read by its fields: a shared module imports no page.
Question = Any

FOLLOW_EVERY_S = 1.5
SEEN_VERSION = "rm_seen_version"  # the room's version this page last drew
ANSWER_PREFIX = "rm_answer_"
SENT_ERROR = "rm_sent_error"
OWN_ROW_KEY = "rm_own_row"


@st.fragment(run_every=FOLLOW_EVERY_S)
def _follow(code: str) -> None:
    """Redraws the page once the teacher moved or revealed."""
    try:
        state = store().state(code)
    except Exception:  # noqa: BLE001 - the next tick tries again; the page says nothing new
        return
    if state is None or state.version != st.session_state.get(SEEN_VERSION):
        st.rerun(scope="app")  # moved, revealed, or ended (the page then says the room is over)


def student_bar(seat: Seat, lang: str) -> None:
    """Which room, whether the page follows the teacher, and the switch to one's own pace."""
    st.session_state[SEEN_VERSION] = seat.state.version
    where, pace = st.columns([3, 2], vertical_alignment="center")
    following = t("room.following", lang) if seat.follows else ""
    where.markdown(f"**{t('room.code', lang, code=code_text(seat.code))}** · {following}")
    pace.toggle(t("room.own_pace", lang), key=OWN_PACE_KEY, help=t("room.own_pace_help", lang))
    _follow(seat.code)


def picked_indices(options: list, chosen: Any, many: bool) -> list[int] | None:
    """The options' indices of a choice, or None when the choice is not made of the options
    (a crafted client may send anything)."""
    try:
        chosen = list(chosen or []) if many else ([] if chosen is None else [chosen])
        return [options.index(option) for option in chosen]
    except (ValueError, TypeError):
        return None


def _send(seat: Seat, question: Question, key: str) -> None:
    picked = picked_indices(list(question.options), st.session_state.get(key), question.many)
    if picked is None:
        st.session_state[SENT_ERROR] = "bad_answer"
        st.session_state[key] = [] if question.many else None  # no choice shown rather than one never sent
        return
    try:
        store().answer(seat.code, question.step, seat.student, picked)
    except RoomError as error:
        st.session_state[SENT_ERROR] = error.reason
    except Exception:  # noqa: BLE001 - said in place on the next run
        st.session_state[SENT_ERROR] = "store"


def _stored_choice(seat: Seat, question: Question) -> Any:
    """The student's answer as the store has it (a reloaded page shows it again)."""
    stored = store().answer_of(seat.code, question.step, seat.student)
    options = list(question.options)
    picked = [options[i] for i in stored or () if i < len(options)]
    return picked if question.many else (picked[0] if picked else None)


@st.fragment  # choosing an answer reruns the question only: a class answering at once stays light
def student_question(seat: Seat, question: Question, lang: str, the_answer, label_of, is_right) -> None:
    """The question; the choice is sent at once. Once revealed: the student's own answer
    against the right one (``the_answer`` draws the answer and why; ``label_of`` writes a
    choice's words; ``is_right`` judges it, as the lesson does)."""
    key = ANSWER_PREFIX + str(question.step)
    revealed = question.step in seat.state.revealed
    try:
        if key not in st.session_state:
            st.session_state[key] = _stored_choice(seat, question)
    except Exception as error:  # noqa: BLE001
        store_failed(lang, error)
        return
    # Once revealed, the answering is over: the question without its lead asking to predict.
    st.markdown(question.prompt if revealed else f"**{t('ls.predict', lang)}:** {question.prompt}")
    if question.many:
        st.multiselect(
            question.prompt,
            question.options,
            key=key,
            format_func=question.label,
            disabled=revealed,
            label_visibility="collapsed",
            placeholder=t("ls.none", lang),
            select_all=False,
            on_change=_send,
            args=(seat, question, key),
        )
    else:
        st.radio(
            question.prompt,
            question.options,
            key=key,
            format_func=question.label,
            disabled=revealed,
            label_visibility="collapsed",
            horizontal=True,
            on_change=_send,
            args=(seat, question, key),
        )
    error = st.session_state.pop(SENT_ERROR, None)
    if error == "store":
        st.error(t("room.error.store", lang), icon=":material/cloud_off:")
    elif error is not None:
        refused(RoomError(error), lang)
    chosen = st.session_state.get(key)
    answered = bool(chosen) if question.many else chosen is not None
    if not revealed:
        st.caption(
            t("room.your_answer_in" if answered else "room.answer_now", lang) + " " + t("room.wait_reveal", lang)
        )
        return
    if not answered:
        st.caption(t("room.you_did_not_answer", lang))
    else:
        right = is_right(question, chosen)
        st.markdown(t("room.you_were_right" if right else "room.you_were_wrong", lang, answer=label_of(chosen)))
    the_answer()
    if getattr(question, "row", None) is not None:
        own_row(question, chosen if answered else None, lang)


def own_row(question: Question, chosen: Any, lang: str) -> None:
    """A token question, revealed: the head's real row with the student's own choice marked."""
    row, options = question.row, list(question.options)
    mine = options.index(chosen) if chosen in options else None
    figure = token_question_figure(row.labels, figure_words(lang), weights=row.weights, chosen=mine, head=row.head)
    show_chart(figure, OWN_ROW_KEY, table=False)


def back_to_teacher(seat: Seat, lang: str, step: int, go) -> None:
    """At one's own pace, on another step than the teacher's: a button back to it."""
    if seat.teacher or seat.follows or step == seat.state.step:
        return
    st.button(
        t("room.back_to_teacher", lang, n=seat.state.step),
        key="rm_back",
        on_click=go,
        args=(seat.state.step,),
        icon=":material/groups:",
    )
