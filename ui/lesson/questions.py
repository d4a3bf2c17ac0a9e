"""Predict, then reveal: the learner commits to an answer, and it is checked against the
live numbers of the step (never against a stored answer)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from ..strings import t

CHECKED_PREFIX = "ls_checked_"  # the answer the learner checked, per step


@dataclass(frozen=True)
class Question:
    step: int
    prompt: str
    options: Sequence[Any]
    correct: Any  # one option, or a list of options when ``many``
    why: str  # the explanation, with the live numbers
    label: Callable[[Any], str] = str
    many: bool = False  # several options may be right (a multiselect)
    after: str = ""  # Markdown shown once the answer is checked, right or wrong


def answer_key(step: int) -> str:
    return f"ls_answer_{step}"


def is_right(question: Question, answer: Any) -> bool:
    if question.many:
        return sorted(answer or []) == sorted(question.correct)
    return answer == question.correct


def _on_check(step: int) -> None:
    st.session_state[CHECKED_PREFIX + str(step)] = st.session_state.get(answer_key(step))


def ask(question: Question, lang: str) -> None:
    """The question, the learner's choice, a check button, and the verdict once checked."""
    key = answer_key(question.step)
    st.markdown(f"**{t('ls.predict', lang)}:** {question.prompt}")
    if question.many:
        st.multiselect(question.prompt, question.options, key=key, format_func=question.label,
                       label_visibility="collapsed", placeholder=t("ls.none", lang))  # fmt: skip
    else:
        st.radio(question.prompt, question.options, key=key, index=None, format_func=question.label,
                 label_visibility="collapsed", horizontal=True)  # fmt: skip
    st.button(t("ls.check", lang), key=f"ls_check_{question.step}", on_click=_on_check, args=(question.step,),
              icon=":material/fact_check:")  # fmt: skip
    checked_key = CHECKED_PREFIX + str(question.step)
    if checked_key not in st.session_state:
        return
    checked = st.session_state[checked_key]
    if checked != st.session_state.get(key):
        return  # the answer changed since it was checked: the old verdict no longer applies
    if checked is None:
        st.warning(t("ls.choose_first", lang))
    elif is_right(question, checked):
        st.success(t("ls.right", lang, why=question.why), icon=":material/check_circle:")
    else:
        st.error(t("ls.wrong", lang, why=question.why), icon=":material/cancel:")
    if checked is not None and question.after:
        st.markdown(question.after)
