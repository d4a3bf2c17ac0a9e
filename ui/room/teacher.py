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

from figures.room import answers_figure

from ..charts import show_chart
from ..figure_text import figure_words
from ..strings import t
from .seat import Seat, code_text, refused, store, store_failed, student_link
from .store import RoomError

# A lesson question (``ui/lesson/questions.Question``: step, prompt, options, label,
# correct, many, accepted), read by its fields: a shared module imports no page.
Question = Any

LIVE_EVERY_S = 1.0  # the count is at most this old, plus a round trip
QR_PX = 260
QR_PX_PRESENTING = 300
SHOW_JOIN_KEY = "rm_show_join"
REVEAL_KEY = "rm_reveal"
CHART_KEY = "rm_answers"


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
        st.code(link, language=None, wrap_lines=True)
        st.caption(t("room.join_how", lang))


def teacher_link(seat: Seat, lang: str) -> None:
    """The teacher's own link, in the sidebar (not on the projected page): opened on another
    device, that device is the teacher."""
    base = student_link(seat.code, lang)
    with st.sidebar.expander(t("room.code", lang, code=code_text(seat.code)), icon=":material/groups:"):
        st.caption(t("room.teacher_link", lang))
        st.code(f"{base}&key={seat.key}", language=None, wrap_lines=True)


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


@st.fragment(run_every=LIVE_EVERY_S)
def live_answers(seat: Seat, question: Question, lang: str, revealed: bool) -> None:
    """How many answered, and the answers' bars (the right ones marked once revealed)."""
    try:
        tally = store().tally(seat.code, question.step)
        joined = store().students(seat.code)
    except Exception as error:  # noqa: BLE001
        store_failed(lang, error)
        return
    st.markdown(f"**{t('room.answered', lang, n=tally.answered)}** · {t('room.joined', lang, n=joined)}")
    if tally.answered == 0:
        st.caption(t("room.no_answers", lang))
        return
    labels = [question.label(option) for option in question.options]
    figure = answers_figure(
        labels, tally.by_option(), figure_words(lang), right_options(question) if revealed else None
    )
    show_chart(figure, CHART_KEY, table=False)


def teacher_question(seat: Seat, question: Question, lang: str, revealed_key: str, compact: bool) -> None:
    """The question as the class sees it, their answers live, and Reveal (which sets
    ``revealed_key``, the lesson's own mark of a revealed step, as the room's)."""
    revealed = question.step in seat.state.revealed or bool(st.session_state.get(revealed_key))
    if not compact:
        st.markdown(f"**{t('room.teacher_prompt', lang)}** {question.prompt}")
    error = st.session_state.pop("rm_error", None)
    if error == "store":
        st.error(t("room.error.store", lang), icon=":material/cloud_off:")
    elif error is not None:
        refused(RoomError(error), lang)
    live_answers(seat, question, lang, revealed)
    if not revealed:
        st.button(t("room.reveal", lang), key=REVEAL_KEY, on_click=_reveal, icon=":material/visibility:", type="primary",
                  args=(seat, question.step, revealed_key, lang))  # fmt: skip
