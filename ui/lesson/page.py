"""The lesson page: one step at a time, the step in the URL (``?step=3``), previous/next
buttons and a step list; in presentation mode one step per screen with large buttons."""

from __future__ import annotations

import streamlit as st

from ..markdown import literal
from ..shell import is_presenting, page_title, setup_page
from ..strings import t
from .questions import ask
from .steps import STEPS

STEP_PARAM = "step"
STEP_STATE = "ls_step"


def _step_from_url() -> int | None:
    raw = st.query_params.get(STEP_PARAM)
    if raw is None:
        return None
    try:
        step = int(raw)
    except ValueError:
        return None
    return step if 1 <= step <= len(STEPS) else None


def _go(step: int) -> None:
    st.session_state[STEP_STATE] = step


def _navigation(step: int, lang: str, presenting: bool) -> None:
    total = len(STEPS)
    back, where, forward = st.columns([1, 3, 1] if presenting else [1, 4, 1], vertical_alignment="center")
    back.button(t("ls.previous", lang), key=f"ls_prev_{STEP_STATE}", on_click=_go, args=(step - 1,), disabled=step == 1,
                icon=":material/arrow_back:", width="stretch")  # fmt: skip
    if presenting:  # one step per screen: where we are, no list
        where.markdown(f"**{t('ls.step_of', lang, n=step, total=total)}**")
    else:
        st.session_state["ls_pick"] = step
        where.selectbox(t("ls.steps", lang), list(range(1, total + 1)), key="ls_pick", on_change=_on_pick,
                        format_func=lambda n: f"{n}. {t(f'ls.{n}.title', lang)}", label_visibility="collapsed")  # fmt: skip
    forward.button(t("ls.next", lang), key=f"ls_next_{STEP_STATE}", on_click=_go, args=(step + 1,),
                   disabled=step == total, icon=":material/arrow_forward:", width="stretch")  # fmt: skip


def _on_pick() -> None:
    st.session_state[STEP_STATE] = st.session_state["ls_pick"]


def _first_step(lang: str) -> int:
    """The step a session starts at: the link's, else 1 (with a note for a step that is not one)."""
    linked = _step_from_url()
    if linked is None and STEP_PARAM in st.query_params:
        st.info(t("ls.bad_step", lang, value=literal(st.query_params[STEP_PARAM][:20]), total=len(STEPS)))
    return linked or 1


def render() -> None:
    lang = setup_page("lesson")
    presenting = is_presenting()
    if STEP_STATE not in st.session_state:
        st.session_state[STEP_STATE] = _first_step(lang)
    step = st.session_state[STEP_STATE]
    if not presenting:
        page_title("lesson", lang)
        st.caption(t("page.lesson.blurb", lang))
    _navigation(step, lang, presenting)
    st.query_params[STEP_PARAM] = str(step)
    st.subheader(f"{step}. {t(f'ls.{step}.title', lang)}")
    question = STEPS[step - 1](lang)
    if question is not None:
        st.divider()
        ask(question, lang)
