"""The lesson page: one step at a time, the step in the URL (``?step=3``), previous/next
buttons and a step list; in presentation mode one step per screen (``layout.py``) with
previous/next in a bar fixed at the screen's bottom."""

from __future__ import annotations

import streamlit as st

from ..page_state.rules import Param
from ..page_state.state import PageState
from ..shell import is_presenting, page_title, setup_page
from ..strings import t
from .keys import pressed
from .layout import NAV_BAR_KEY, StepLayout
from .questions import ask, is_retrying, is_revealed
from .steps import STEPS

STEP_PARAM = "step"
PAGE = PageState("ls_", (Param(STEP_PARAM, "int", 1, 1, len(STEPS)),))
STEP_STATE = PAGE.key(STEP_PARAM)  # not a widget: the buttons and the step list set it
PICK_KEY = "ls_pick"


def _go(step: int) -> None:
    PAGE.set(STEP_PARAM, step)


def _navigation(step: int, lang: str, presenting: bool, bottom: bool = False) -> None:
    """Previous, where we are, next: at the top, and again at the bottom (``bottom``: the
    buttons only), so the next step is in reach where the step ends."""
    total = len(STEPS)
    back, where, forward = st.columns([1, 3, 1] if presenting else [1, 4, 1], vertical_alignment="center")
    suffix = "_bottom" if bottom else ""
    back.button(t("ls.previous", lang), key=f"ls_prev_{STEP_STATE}{suffix}", on_click=_go, args=(step - 1,),
                disabled=step == 1, icon=":material/arrow_back:", width="stretch")  # fmt: skip
    if bottom:
        where.caption(t("ls.keys_help", lang))
    elif presenting:  # one step per screen: where we are, no list
        where.markdown(f"**{t('ls.step_of', lang, n=step, total=total)}**")
    else:
        st.session_state[PICK_KEY] = step
        where.selectbox(t("ls.steps", lang), list(range(1, total + 1)), key=PICK_KEY, on_change=_on_pick,
                        format_func=lambda n: f"{n}. {t(f'ls.{n}.title', lang)}", label_visibility="collapsed")  # fmt: skip
    forward.button(t("ls.next", lang), key=f"ls_next_{STEP_STATE}{suffix}", on_click=_go, args=(step + 1,),
                   disabled=step == total, icon=":material/arrow_forward:", width="stretch")  # fmt: skip


def _on_pick() -> None:
    picked = st.session_state.get(PICK_KEY)
    if PAGE.by_name[STEP_PARAM].accepts(picked):  # a crafted client may send anything
        PAGE.set(STEP_PARAM, picked)


def render() -> None:
    lang = setup_page("lesson")
    presenting = is_presenting()
    PAGE.restore()
    move = pressed()  # a step key (a presenter's clicker) started this run
    if move and PAGE.by_name[STEP_PARAM].accepts(PAGE.get(STEP_PARAM) + move):
        PAGE.set(STEP_PARAM, PAGE.get(STEP_PARAM) + move)
    step = PAGE.get(STEP_PARAM)
    if not presenting:
        page_title("lesson", lang)
        st.caption(t("page.lesson.blurb", lang))
    PAGE.settle({STEP_PARAM: step})
    PAGE.show_notes(lang, total=len(STEPS))
    if not presenting:
        _navigation(step, lang, presenting)
    PAGE.write_url({STEP_PARAM: step}, lang)
    st.subheader(f"{step}. {t(f'ls.{step}.title', lang)}")
    layout = StepLayout(presenting, is_revealed(step), is_retrying(step))
    with layout.text:
        question = STEPS[step - 1](lang, layout)
        if question is not None:
            if not presenting:
                st.divider()
            ask(question, lang, layout.compact, presenting, answer_text=layout.answer_text)
    if presenting:  # one bar at the screen's bottom, always in reach
        with st.container(key=NAV_BAR_KEY):
            _navigation(step, lang, presenting)
    else:
        st.divider()
        _navigation(step, lang, presenting, bottom=True)
