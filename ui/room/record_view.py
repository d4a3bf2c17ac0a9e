"""The teacher's record of the room, in the sidebar: "Download the answers (CSV)" and each
step's share right (a line and a bar a step). The CSV and the
summary are ``classroom/record.py``'s; the store's ``record`` gives the answers.

Each step's question comes from the lesson itself: a room's page builds the step's question
with the class's inputs (locked to their defaults, so the same for every page of every
room), and ``remember`` keeps it for this process, by language and step (a step built only in
another language is judged by that language's question). A step no page of
this process has built since it started (a server restarted mid-class, or another machine's
page) is written with its right column empty, and "not known" in the summary.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import streamlit as st

from classroom.model import CALL_TIMEOUT_S, RoomError
from classroom.record import COLUMNS, StepQuestion, answers_csv, csv_bytes, summary
from string_table import t

from .downloads import Downloads
from .seat import FAILURES, Seat, refused, store, store_failed

# A lesson question (``ui/lesson/questions.Question``), read by its fields: no page imported.
Question = Any
DOWNLOAD_KEY = "rm_record_csv"
SUMMARY_KEY = "rm_record_summary"
BOX_KEY = "rm_record_box"
DOWNLOADS_STATE = "rm_record_downloads"  # this session's Downloads: how its last file's making went
# The click's run waits this long at most for its file (one bounded store call, then the CSV).
DOWNLOAD_WAIT_S = CALL_TIMEOUT_S + 1.0
LOG = logging.getLogger(__name__)

_QUESTIONS: dict[tuple[str, int], StepQuestion] = {}
_LOCK = threading.Lock()


def step_question(question: Question, judge: Callable[[Question, Any], bool]) -> StepQuestion:
    """The record's view of a lesson question: its prompt, its options' labels, and ``judge``
    (the lesson's ``is_right``) on the options an answer's indices pick."""
    options = list(question.options)

    def right(answer: tuple[int, ...]) -> bool:
        picked = [options[i] for i in answer if 0 <= i < len(options)]
        if len(picked) != len(answer):
            return False
        if question.many:
            return judge(question, picked)
        return len(picked) == 1 and judge(question, picked[0])

    return StepQuestion(question.prompt, [question.label(option) for option in options], right)


def remember(question: Question | None, lang: str, judge: Callable[[Question, Any], bool]) -> None:
    """Keeps the room's question of this step (built with the class's inputs) for the record."""
    if question is not None:
        with _LOCK:
            _QUESTIONS[(lang, question.step)] = step_question(question, judge)


def questions(lang: str) -> dict[int, StepQuestion]:
    """Each step's question for the record in ``lang``, or, for a step built only in another
    language (the teacher switched language during the class), that language's: the
    judgement is the same whatever the language, and its text is the one known."""
    with _LOCK:
        known = list(_QUESTIONS.items())
    found: dict[int, StepQuestion] = {}
    for (_, step), question in sorted(known, key=lambda item: item[0][0] != lang):  # lang's first
        found.setdefault(step, question)
    return found


class DownloadFailed(Exception):
    """The answers' file could not be made: the browser gets no file (the page says why)."""


def record_csv(seat: Seat, lang: str, downloads: Downloads | None = None) -> bytes:
    """The room's answers as the CSV file, read from the store when asked (in Streamlit's
    thread for deferred downloads, where no page can be drawn): a store that fails, or a
    room that ended, is logged and told to ``downloads``, for the page to say."""
    header = [t(f"room.record.col.{name}", lang) for name in COLUMNS]
    yes_no = (t("room.record.yes", lang), t("room.record.no", lang))
    try:
        rows = store().record(seat.code, seat.key)
    except RoomError as error:  # the store refuses only these two: the room is gone, or not the teacher's
        failure = "no_room" if error.reason == "no_room" else "not_teacher"
        LOG.warning("the answers' download of a room was refused: %s", error.reason)
    except Exception as error:  # noqa: BLE001 - said on the page, logged once a minute
        failure = "store"
        FAILURES.failed("the answers' download from the room store", error)
    else:
        if downloads is not None:
            downloads.made(None)
        return csv_bytes(answers_csv(rows, questions(lang), header, yes_no))
    if downloads is not None:
        downloads.made(failure)
    raise DownloadFailed(failure) from None


def summary_lines(seat: Seat, lang: str) -> list[tuple[str, float | None]]:
    """Each answered step's line ("1. 3 of 5 right · 60%") and its share right (None: not known)."""
    lines = []
    for row in summary(store().record(seat.code, seat.key), questions(lang)):
        if row.share_right is None:
            words = t("room.record.unjudged", lang, answered=row.answered)
        else:
            words = t("room.record.line", lang, right=row.right, answered=row.answered, share=f"{row.share_right:.0%}")
        lines.append((f"**{row.step}.** {words}", row.share_right))
    return lines


def record_panel(seat: Seat, lang: str) -> None:
    """The teacher's record in the sidebar: the download and the summary (the teacher only)."""
    if not seat.teacher:
        return
    with st.sidebar.expander(t("room.record.title", lang), icon=":material/download:", key=BOX_KEY):
        downloads = st.session_state.setdefault(DOWNLOADS_STATE, Downloads())
        clicked = st.download_button(
            t("room.record.download", lang),
            lambda: record_csv(seat, lang, downloads),
            file_name=f"room_{seat.code}_answers.csv",
            mime="text/csv",
            key=DOWNLOAD_KEY,
            icon=":material/table:",
            help=t("room.record.download_help", lang),
        )
        if clicked:  # the file is made beside this run: said on this run if it failed
            downloads.after_click(DOWNLOAD_WAIT_S)
        _download_failure(downloads.failure, lang)
        st.markdown(f"**{t('room.record.summary', lang)}**")
        try:
            lines = summary_lines(seat, lang)
        except RoomError as error:
            refused(error, lang)
            return
        except Exception as error:  # noqa: BLE001 - said in place; the page goes on
            store_failed(lang, error)
            return
        with st.container(key=SUMMARY_KEY):
            if not lines:
                st.caption(t("room.record.none", lang))
            for line, share in lines:
                st.markdown(line)
                if share is not None:  # the share as a bar across the sidebar, readable from afar
                    st.progress(share)


def _download_failure(failure: str | None, lang: str) -> None:
    """The last download's failure, under its button (until a download succeeds)."""
    if failure == "store":
        st.error(t("room.record.download_failed.store", lang), icon=":material/cloud_off:")
    elif failure is not None:
        st.warning(t(f"room.record.download_failed.{failure}", lang), icon=":material/info:")
