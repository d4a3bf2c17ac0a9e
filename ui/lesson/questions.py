"""Predict, then reveal: the learner commits to an answer, and it is checked against the
live numbers of the step (never against a stored answer). What answers the question (the
telling part of a figure, the traced shapes, the numbers) is drawn only once it is revealed:
after a right answer, or when the learner asks for the answer after a wrong one. A wrong
answer gets a hint, not the answer, and may be changed and checked again."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from string_table import t

from ..room.student import student_question
from ..room.teacher import teacher_question

CHECKED_PREFIX = "ls_checked_"  # the answer the learner checked, per step
REVEALED_PREFIX = "ls_revealed_"  # the step's answer is shown: RIGHT, or SHOWN (asked for)
RIGHT, SHOWN = "right", "shown"


@dataclass(frozen=True)
class Question:
    step: int
    prompt: str
    options: Sequence[Any]
    correct: Any  # one option, or a list of options when ``many``
    why: str  # the explanation, with the live numbers
    label: Callable[[Any], str] = str
    many: bool = False  # several options may be right (a multiselect)
    after: str = ""  # Markdown shown once the answer is revealed
    hint: str = ""  # shown after a wrong answer: where to look, without the answer
    reveal: Callable[[], None] | None = None  # draws what answers the question, once revealed
    accepted: tuple = ()  # every option counted right (answers the numbers cannot tell apart)
    row: Any = None  # a token question's real row (gpt_core.token_question.TokenRow): a room draws it


def answer_key(step: int) -> str:
    return f"ls_answer_{step}"


def is_right(question: Question, answer: Any) -> bool:
    if question.many:
        return sorted(answer or []) == sorted(question.correct)
    return answer in question.accepted if question.accepted else answer == question.correct


def is_revealed(step: int) -> bool:
    return bool(st.session_state.get(REVEALED_PREFIX + str(step)))


def is_retrying(step: int) -> bool:
    """Whether the learner's checked answer is still the one chosen and the step's answer is
    not revealed: a wrong answer, its hint on screen (or a right one about to be revealed)."""
    checked_key = CHECKED_PREFIX + str(step)
    checked = st.session_state.get(checked_key)
    return (
        checked_key in st.session_state
        and checked is not None
        and not is_revealed(step)
        and checked == st.session_state.get(answer_key(step))
    )


def _on_reveal(step: int) -> None:
    st.session_state[REVEALED_PREFIX + str(step)] = SHOWN


def _answer_label(question: Question, lang: str) -> str:
    options = question.correct if question.many else question.accepted or (question.correct,)
    return t("list_sep", lang).join(question.label(option) for option in options) or "–"


def _on_check(step: int) -> None:
    st.session_state[CHECKED_PREFIX + str(step)] = st.session_state.get(answer_key(step))


def ask(
    question: Question,
    lang: str,
    compact: bool = False,
    presenting: bool = False,
    answer_text: Callable[[str], None] | None = None,
    seat: Any = None,
) -> None:
    """The question, the learner's choice and a check button; a right answer reveals the
    step's telling part, a wrong one gets a hint and a way to try again or see the answer.
    ``compact`` (presentation mode, answered): the verdict and the answer in the question's
    place, so the step still fits one screen. ``presenting``: a right answer starts the run
    that draws the compact screen. ``answer_text`` draws a longer answer (``after``), below the
    question unless given. ``seat``: this session's place in a class's room (``ui/room``): the
    teacher sees the class's answers and reveals them; a student answers and waits for it."""
    if seat is not None and seat.teacher:
        if is_revealed(question.step):
            _answered(question, lang)
        teacher_question(seat, question, lang, REVEALED_PREFIX + str(question.step), compact, presenting)
    elif seat is not None:
        student_question(
            seat,
            question,
            lang,
            lambda: _the_answer(question, lang),
            lambda chosen: _chosen_label(question, chosen, lang),
            lambda q, a: is_right(q, a),
        )
    elif compact:
        _answered(question, lang)
    else:
        _own_answer(question, lang, presenting)
    if is_revealed(question.step):
        if question.reveal is not None:
            question.reveal()
        if question.after:
            (answer_text or st.markdown)(question.after)


def _own_answer(question: Question, lang: str, presenting: bool) -> None:
    """A learner on their own: the question, their choice, the check button and its verdict."""
    key = answer_key(question.step)
    st.markdown(f"**{t('ls.predict', lang)}:** {question.prompt}")
    if question.many:
        # No "Select all": Streamlit writes it in English whatever the page's language.
        st.multiselect(
            question.prompt,
            question.options,
            key=key,
            format_func=question.label,
            label_visibility="collapsed",
            placeholder=t("ls.none", lang),
            select_all=False,
        )
    else:
        st.radio(
            question.prompt,
            question.options,
            key=key,
            index=None,
            format_func=question.label,
            label_visibility="collapsed",
            horizontal=True,
        )
    # Presenting: "show the answer" beside the check button, so a wrong answer still fits.
    buttons = st.container(horizontal=True) if presenting else st.container()
    buttons.button(
        t("ls.check", lang),
        key=f"ls_check_{question.step}",
        on_click=_on_check,
        args=(question.step,),
        icon=":material/fact_check:",
    )
    _verdict(question, lang, presenting, buttons)


def _chosen_label(question: Question, chosen: Any, lang: str) -> str:
    chosen = chosen if question.many else [chosen]
    return t("list_sep", lang).join(question.label(option) for option in chosen) or "–"


def _answered(question: Question, lang: str) -> None:
    if st.session_state.get(REVEALED_PREFIX + str(question.step)) == RIGHT:
        st.success(t("ls.right", lang, why=question.why), icon=":material/check_circle:")
    else:
        _the_answer(question, lang)


def _the_answer(question: Question, lang: str) -> None:
    st.info(
        t("ls.the_answer", lang, answer=_answer_label(question, lang), why=question.why), icon=":material/lightbulb:"
    )


def _verdict(question: Question, lang: str, presenting: bool, buttons) -> None:
    step, checked_key = question.step, CHECKED_PREFIX + str(question.step)
    checked = st.session_state.get(checked_key)
    if checked_key in st.session_state and checked == st.session_state.get(answer_key(step)):
        if checked is None:
            st.warning(t("ls.choose_first", lang))
        elif is_right(question, checked):
            newly = not is_revealed(step)
            st.session_state[REVEALED_PREFIX + str(step)] = RIGHT
            if newly and presenting:
                st.rerun()  # the compact screen: the answer in the question's place
            st.success(t("ls.right", lang, why=question.why), icon=":material/check_circle:")
            return
        else:
            st.error(t("ls.wrong", lang, hint=question.hint), icon=":material/cancel:")
            if not is_revealed(step):
                if not presenting:  # presenting: the buttons say it, and the screen has no room
                    st.caption(t("ls.try_again", lang))
                (buttons if presenting else st).button(
                    t("ls.show_answer", lang),
                    key=f"ls_show_{step}",
                    on_click=_on_reveal,
                    args=(step,),
                    icon=":material/visibility:",
                )
    if is_revealed(step):
        _the_answer(question, lang)
