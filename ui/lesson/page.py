"""The lesson page: one step at a time, the step in the URL (``?step=3``), previous/next
buttons and a step list; in presentation mode one step per screen (``layout.py``) with
previous/next in a bar fixed at the screen's bottom."""

from __future__ import annotations

import streamlit as st

from links.lesson import STEP_PARAM, VIEW_FIGURE, params, parse_query
from string_table import t

from ..page_state.state import PageState
from ..room.record_view import record_panel, remember
from ..room.seat import SEAT_STATE, Seat, code_text, link_query, moved, seat_from_link
from ..room.student import back_to_teacher, student_bar
from ..room.teacher import (
    join_card,
    projected,
    shown_view,
    start_view,
    teacher_bar,
    teacher_link,
    view_query,
)
from ..shell import is_presenting, page_title, setup_page
from .keys import pressed
from .layout import NAV_BAR_KEY, StepLayout
from .questions import REVEALED_PREFIX, SHOWN, ask, is_retrying, is_revealed, is_right
from .steps import INPUT_KEYS, STEPS

PARAMS = params(len(STEPS))
PAGE = PageState("ls_", PARAMS, parse=lambda query: parse_query(PARAMS, query))
SYNCED_ROOM = "ls_room_synced"  # the room whose step this session's teacher page took on arrival
STEP_STATE = PAGE.key(STEP_PARAM)  # not a widget: the buttons and the step list set it
PICK_KEY = "ls_pick"


def _go(step: int) -> None:
    PAGE.set(STEP_PARAM, step)


def _navigation(step: int, lang: str, presenting: bool, bottom: bool = False, seat: Seat | None = None) -> None:
    """Previous, where we are, next: at the top, and again at the bottom (``bottom``: the
    buttons only), so the next step is in reach where the step ends."""
    total = len(STEPS)
    back, where, forward = st.columns(
        [1, 3, 1] if presenting and seat is None else [1, 5, 1] if presenting else [1, 4, 1],
        vertical_alignment="center",
    )
    suffix = "_bottom" if bottom else ""
    back.button(
        t("ls.previous", lang),
        key=f"ls_prev_{STEP_STATE}{suffix}",
        on_click=_go,
        args=(step - 1,),
        disabled=step == 1,
        icon=":material/arrow_back:",
        width="stretch",
    )
    if bottom:
        where.caption(t("ls.keys_help", lang))
    elif presenting and seat is not None and seat.teacher:  # the room's code, its count, what is shown
        with where:
            teacher_bar(seat, step, total, lang)
    elif presenting:  # one step per screen: where we are, no list
        where.markdown(f"**{t('ls.step_of', lang, n=step, total=total)}**")
    else:
        st.session_state[PICK_KEY] = step
        where.selectbox(
            t("ls.steps", lang),
            list(range(1, total + 1)),
            key=PICK_KEY,
            on_change=_on_pick,
            format_func=lambda n: f"{n}. {t(f'ls.{n}.title', lang)}",
            label_visibility="collapsed",
        )
    forward.button(
        t("ls.next", lang),
        key=f"ls_next_{STEP_STATE}{suffix}",
        on_click=_go,
        args=(step + 1,),
        disabled=step == total,
        icon=":material/arrow_forward:",
        width="stretch",
    )


def _on_pick() -> None:
    picked = st.session_state.get(PICK_KEY)
    if PAGE.by_name[STEP_PARAM].accepts(picked):  # a crafted client may send anything
        PAGE.set(STEP_PARAM, picked)


def _room_step(seat: Seat | None, lang: str, presenting: bool) -> tuple[int, Seat | None]:
    """The step to show: a step key's move (a presenter's clicker started this run), the
    teacher's step for a student who follows, the room's step for a teacher arriving; the
    teacher's page then moves the room. A revealed step of the room is revealed here too."""
    ss = st.session_state
    move = pressed(presenting)
    if move and not (seat and seat.follows) and PAGE.by_name[STEP_PARAM].accepts(PAGE.get(STEP_PARAM) + move):
        PAGE.set(STEP_PARAM, PAGE.get(STEP_PARAM) + move)
    if seat is not None and (seat.follows or (seat.teacher and ss.get(SYNCED_ROOM) != seat.code)):
        PAGE.set(STEP_PARAM, seat.state.step)
    if seat is not None:
        ss[SYNCED_ROOM] = seat.code
        seat = moved(seat, PAGE.get(STEP_PARAM), lang)
        for revealed in seat.state.revealed:
            ss[REVEALED_PREFIX + str(revealed)] = ss.get(REVEALED_PREFIX + str(revealed)) or SHOWN
    return PAGE.get(STEP_PARAM), seat


def _room_top(seat: Seat, step: int, lang: str, presenting: bool) -> None:
    """The room above the step: a student's bar; the teacher's link (sidebar) and, in normal
    mode, how to join."""
    if not seat.teacher:
        student_bar(seat, lang)
        back_to_teacher(seat, lang, step, _go)
        return
    teacher_link(seat, lang)
    if not presenting:
        with st.expander(t("room.code", lang, code=code_text(seat.code)), expanded=True, icon=":material/groups:"):
            join_card(seat, lang, presenting)


def render() -> None:
    lang = setup_page("lesson")
    presenting = is_presenting()
    PAGE.restore()
    made = SEAT_STATE not in st.session_state
    seat = seat_from_link(lang, PAGE.get(STEP_PARAM))
    if seat is not None and seat.teacher:
        start_view(made)  # a room just made or opened: its link's view, else how to join first
    step, seat = _room_step(seat, lang, presenting)
    if not presenting:
        page_title("lesson", lang)
        st.caption(t("page.lesson.blurb", lang))
    PAGE.settle({STEP_PARAM: step})
    PAGE.show_notes(lang, total=len(STEPS))
    if seat is not None:
        _room_top(seat, step, lang, presenting)
    navigates = seat is None or not seat.follows
    if not presenting and navigates:
        _navigation(step, lang, presenting)
    PAGE.write_url({STEP_PARAM: step}, lang, **link_query(seat), **view_query(seat))
    st.subheader(f"{step}. {t(f'ls.{step}.title', lang)}")
    _step(step, lang, presenting, seat)
    if seat is not None:  # after the step: its question is known to the record
        record_panel(seat, lang)
    if presenting and navigates:  # one bar at the screen's bottom, always in reach
        with st.container(key=NAV_BAR_KEY):
            _navigation(step, lang, presenting, seat=seat)
    elif navigates:
        st.divider()
        _navigation(step, lang, presenting, bottom=True)


def _step(step: int, lang: str, presenting: bool, seat: Seat | None) -> None:
    if seat is not None:  # the class's inputs: every page of the room asks the same question
        for key in INPUT_KEYS:
            st.session_state.pop(key, None)
    # A student of a room (on a phone, mostly): the question and its choices first, then, once
    # revealed, the verdict; the step's explanation and figures below.
    first = st.container() if seat is not None and not seat.teacher and not presenting else None
    layout = StepLayout(presenting, is_revealed(step), is_retrying(step) and seat is None, locked=seat is not None)
    with layout.text:
        question = STEPS[step - 1](lang, layout)
    if seat is not None:  # the class's question of this step, for the teacher's record
        remember(question, lang, is_right)
    if question is not None:
        with first if first is not None else layout.text:
            if not presenting and first is None:
                st.divider()
            ask(question, lang, layout.compact, presenting, answer_text=layout.answer_text, seat=seat)
            if first is not None:
                st.divider()
    if seat is not None and seat.teacher and presenting and shown_view() != VIEW_FIGURE:
        with layout.figure():  # what the teacher chose to project, in the figure's place
            projected(seat, question, lang, is_revealed(step), presenting)
