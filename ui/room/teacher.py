"""The teacher's side of a room on the lesson page: how to join (the student link, its code
and a QR code, large enough for the back of a hall), the class's answers to the step live
(a count and a bar per option, redrawn every second without a touch), and Reveal, which
reveals the step's answer on every student's screen."""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any

import segno
import streamlit as st

from classroom.model import RoomError
from figures.room import answer_counts, answers_figure
from figures.token_question import token_question_figure
from links.lesson import VIEW_ANSWERS, VIEW_FIGURE, VIEW_JOIN, VIEW_PARAM, VIEWS
from string_table import t
from string_table.figure_words import figure_words

from ..charts import show_chart
from ..markdown import literal
from .links import link_em
from .seat import (
    ENDED_STATE,
    SEAT_STATE,
    Seat,
    code_text,
    link_for_this_machine_only,
    refused,
    store,
    store_failed,
    student_link,
)

# A lesson question (``ui/lesson/questions.Question``: step, prompt, options, label,
# correct, many, accepted), read by its fields: a shared module imports no page.
Question = Any

LIVE_EVERY_S = 1.0  # the count is at most this old, plus a round trip
QR_PX = 260
QR_PX_PRESENTING = 300
VIEW_KEY = "rm_view"  # presenting: the switch of what the figure's place shows
# What the switch last chose (not a widget's state: it outlives a run that draws no bar); the
# teacher's link keeps it across a reload (links/lesson.py's VIEW_PARAM).
VIEW_STATE = "rm_view_chosen"
REVEAL_KEY = "rm_reveal"
END_KEY = "rm_end"
END_ASKED = "rm_end_asked"  # the teacher asked to end the room: confirm or keep it
END_YES_KEY, END_NO_KEY = "rm_end_yes", "rm_end_no"
CHART_KEY = "rm_answers"
LINK_KEY = "rm_link"  # the projected student link


@lru_cache(maxsize=64)
def qr_png(link: str) -> bytes:
    """The link's QR code as a PNG (medium error correction: a projector's glare)."""
    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="png", scale=10, border=2)
    return buffer.getvalue()


def join_card(seat: Seat, lang: str, presenting: bool) -> None:
    """How students join: the code, the link and its QR code."""
    link = student_link(seat.code, lang)
    st.markdown(f"### {t('room.join_title', lang)}")
    qr, words = st.columns([1, 1], vertical_alignment="center")
    qr.image(qr_png(link), width=QR_PX_PRESENTING if presenting else QR_PX, alt=t("room.qr_alt", lang, link=link))
    with words:
        st.markdown(f"## {code_text(seat.code)}")
        st.caption(t("room.join_how", lang))
    projected_link(link)
    if link_for_this_machine_only():
        st.warning(t("room.link_local", lang), icon=":material/wifi_off:")


def projected_link(link: str) -> None:
    """The link on one line across the card, never broken inside a word and under nothing:
    its type as large as fits (the container's width over the link's length in monospace)."""
    em = link_em(link)
    st.html(
        f"<style>.st-key-{LINK_KEY} {{ container-type: inline-size; }} .st-key-{LINK_KEY} p {{ white-space: nowrap; "
        f"font-family: 'Source Code Pro', monospace; font-size: min(1.4rem, calc(100cqi / {em:.2f})); }}</style>"
    )
    with st.container(key=LINK_KEY):
        st.markdown(literal(link))


def teacher_link(seat: Seat, lang: str) -> None:
    """The teacher's own link, in the sidebar (not on the projected page): opened on another
    device, that device is the teacher."""
    base = student_link(seat.code, lang)
    with st.sidebar.expander(t("room.code", lang, code=code_text(seat.code)), icon=":material/groups:"):
        st.caption(t("room.teacher_link", lang))
        st.code(f"{base}&key={seat.key}", language=None, wrap_lines=True)
        if st.session_state.get(END_ASKED):
            _confirm_end(seat, lang)
        else:
            help_text = t("room.end_help", lang)
            st.button(
                t("room.end", lang),
                key=END_KEY,
                on_click=_ask_end,
                args=(True,),
                icon=":material/logout:",
                help=help_text,
            )


def _ask_end(asked: bool) -> None:
    st.session_state[END_ASKED] = asked


def _confirm_end(seat: Seat, lang: str) -> None:
    """Ending cannot be undone: the teacher says so twice."""
    st.warning(t("room.end_confirm", lang), icon=":material/warning:")
    yes, no = st.columns(2)
    yes.button(t("room.end_yes", lang), key=END_YES_KEY, on_click=_end, args=(seat,), type="primary", width="stretch")
    no.button(t("room.end_no", lang), key=END_NO_KEY, on_click=_ask_end, args=(False,), width="stretch")


def _end(seat: Seat) -> None:
    """Ends the room for everyone: its answers are gone, the students' pages say so."""
    try:
        st.session_state.pop(END_ASKED, None)
        store().end(seat.code, seat.key)
        st.session_state.pop(SEAT_STATE, None)
        st.session_state[ENDED_STATE] = seat.code
    except RoomError as error:
        st.session_state["rm_error"] = error.reason
    except Exception:  # noqa: BLE001 - said in place on the next run
        st.session_state["rm_error"] = "store"


def right_options(question: Question) -> list[int]:
    """The indices of the options counted right."""
    options = list(question.options)
    right = question.correct if question.many else (question.accepted or (question.correct,))
    return [options.index(option) for option in right if option in options]


def _reveal(seat: Seat, step: int, revealed_key: str, lang: str) -> None:
    try:
        store().reveal(seat.code, seat.key, step)
        st.session_state[revealed_key] = "shown"
    except RoomError as error:
        st.session_state["rm_error"] = error.reason
    except Exception:  # noqa: BLE001 - said in place on the next run
        st.session_state["rm_error"] = "store"


def _tally(seat: Seat, step: int, lang: str):
    try:
        return store().tally(seat.code, step), store().students(seat.code)
    except Exception as error:  # noqa: BLE001
        store_failed(lang, error)
        return None, 0


@st.fragment(run_every=LIVE_EVERY_S)
def live_count(seat: Seat, step: int, lang: str) -> None:
    """How many answered and how many are in the room, redrawn every second."""
    tally, _ = _tally(seat, step, lang)
    if tally is not None:
        st.markdown(f"**{t('room.answered', lang, n=tally.answered)}**")


@st.fragment(run_every=LIVE_EVERY_S)
def live_answers(seat: Seat, question: Question, lang: str, revealed: bool, count: bool = True) -> None:
    """The answers' bars (the right ones marked once revealed), with the count unless
    ``count`` is False (drawn elsewhere)."""
    tally, joined = _tally(seat, question.step, lang)
    if tally is None:
        return
    if count:
        st.markdown(f"**{t('room.answered', lang, n=tally.answered)}** · {t('room.joined', lang, n=joined)}")
    if tally.answered == 0:
        st.caption(t("room.no_answers", lang))
        if not (revealed and getattr(question, "row", None) is not None):
            return
    if getattr(question, "row", None) is not None:
        token_answers(question, answer_counts(len(question.options), tally.by_option()), lang, revealed)
        return
    labels = [question.label(option) for option in question.options]
    figure = answers_figure(
        labels, tally.by_option(), figure_words(lang), right_options(question) if revealed else None
    )
    show_chart(figure, CHART_KEY, table=False)


def token_answers(question: Question, counts: list[int], lang: str, revealed: bool) -> None:
    """A token question: the class's choices as a bar per key token and, once revealed, the
    head's real row beside them and the share of the class that chose the strongest key."""
    row = question.row
    words = figure_words(lang)
    weights = row.weights if revealed else None
    figure = token_question_figure(row.labels, words, counts=counts, weights=weights, head=row.head)
    show_chart(figure, CHART_KEY, table=False)
    answered = sum(counts)
    if revealed and answered:
        strongest = right_options(question)
        chose = sum(counts[i] for i in strongest)
        keys = t("list_sep", lang).join(question.label(question.options[i]) for i in strongest)
        share = f"{chose / answered:.0%}"
        st.markdown(t("room.tq_share", lang, share=share, n=chose, answered=answered, keys=literal(keys)))


def _on_view_change() -> None:
    chosen = st.session_state.get(VIEW_KEY)
    if chosen in VIEWS:  # None is a click on the chosen one: it stays chosen
        st.session_state[VIEW_STATE] = chosen


def shown_view() -> str:
    """What the teacher chose to show in the figure's place (presenting)."""
    chosen = st.session_state.get(VIEW_STATE)
    return chosen if chosen in VIEWS else VIEW_FIGURE


def start_view(made: bool) -> None:
    """A teacher's page that has just made or opened its room shows what its link says
    (a reload keeps the teacher's choice), else how to join."""
    if made:
        linked = st.query_params.get(VIEW_PARAM)
        st.session_state[VIEW_STATE] = linked if linked in VIEWS else VIEW_JOIN


def view_query(seat: Seat | None) -> dict[str, str]:
    """What the teacher's link keeps of the view (a student's link: nothing; a page whose
    store failed keeps the link's as it was)."""
    if seat is None:
        linked = st.query_params.get(VIEW_PARAM)
        return {VIEW_PARAM: linked} if linked in VIEWS else {}
    return {VIEW_PARAM: shown_view()} if seat.teacher else {}


def teacher_question(
    seat: Seat, question: Question, lang: str, revealed_key: str, compact: bool, presenting: bool = False
) -> None:
    """The question as the class sees it, their answers live, and Reveal (which sets
    ``revealed_key``, the lesson's own mark of a revealed step, as the room's). Presenting,
    the answers' bars go in the figure's place when the teacher chooses (``projected``)."""
    revealed = question.step in seat.state.revealed or bool(st.session_state.get(revealed_key))
    if not compact:  # once revealed, the class no longer predicts: the question alone
        st.markdown(question.prompt if revealed else f"**{t('room.teacher_prompt', lang)}** {question.prompt}")
    error = st.session_state.pop("rm_error", None)
    if error == "store":
        st.error(t("room.error.store", lang), icon=":material/cloud_off:")
    elif error is not None:
        refused(RoomError(error), lang)
    if not presenting:  # presenting, the count is in the bar (teacher_bar) and the bars where chosen
        live_answers(seat, question, lang, revealed)
    if not revealed:
        st.button(
            t("room.reveal", lang),
            key=REVEAL_KEY,
            on_click=_reveal,
            icon=":material/visibility:",
            type="primary",
            args=(seat, question.step, revealed_key, lang),
        )


def teacher_bar(seat: Seat, step: int, total: int, lang: str) -> None:
    """Presenting, in the bar at the screen's bottom: the room's code, how many answered
    (live), and what the figure's place shows (the figure, the answers, how to join)."""
    st.session_state[VIEW_KEY] = shown_view()  # the switch shows the choice, whatever the last run drew
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    with row:
        st.markdown(f"**{t('ls.step_of', lang, n=step, total=total)}** · {code_text(seat.code)}")
        live_count(seat, step, lang)
    row.segmented_control(
        t("room.show", lang),
        VIEWS,
        key=VIEW_KEY,
        format_func=lambda v: t(f"room.view.{v}", lang),
        label_visibility="collapsed",
        on_change=_on_view_change,
    )


def projected(seat: Seat, question: Question | None, lang: str, revealed: bool, presenting: bool) -> None:
    """Presenting: what the teacher chose to show in the figure's place instead of the
    step's figure: the class's answers, or how to join (a step without a question: how to
    join)."""
    if shown_view() == VIEW_ANSWERS and question is not None:
        live_answers(seat, question, lang, revealed, count=False)
    else:
        join_card(seat, lang, presenting)
