"""The teacher's record of a room, in AppTest, in both languages: students answer through
the store, the teacher's page downloads the CSV (every answer, with its question, the
student's number, the option's label, right or wrong as computed here, seconds after the
step opened) and shows each step's share right. The room's questions: step 1 asks the shape
of QKᵀ for the book's 6 tokens at d = 4 (test_room.py); step 2 the shape after
``.transpose(1, 2)`` of (B, T, h, d) = (1, 6, 4, 8), the class's defaults: (1, 4, 6, 8)."""

from __future__ import annotations

import csv
import io
import logging

import pytest

from classroom.model import RoomError
from classroom.store import shared_store
from string_table import t
from ui.room import record_view
from ui.room.failures import FailureLog

from .conftest import open_page
from .test_room import (  # noqa: F401 - room_store: the autouse fixture, for this module too
    PAGE,
    STEP1_OPTIONS,
    STEP1_RIGHT,
    room_store,
    teacher,
)

STEP2_OPTIONS = ["(1, 6, 4, 8)", "(1, 4, 6, 8)", "(1, 6, 32)"]
STEP2_RIGHT = 1
OPTIONS = {1: STEP1_OPTIONS, 2: STEP2_OPTIONS}
RIGHT = {1: STEP1_RIGHT, 2: STEP2_RIGHT}
STUDENTS = [f"s{n:011d}" for n in (40, 7, 93, 12)]  # ids that sort otherwise than they join
PICKS = {1: [0, 1, 0, 2], 2: [1, 1, 0, 1]}  # each student's option, by step, in join order
SLOW_S = 600.0  # an answer's seconds after its step opened, at most (a busy machine's test)


def _teacher_on(code: str, key: str, lang: str):
    """The teacher's link opened again: the page takes the room's step."""
    query = {"lang": lang} if lang != "en" else {}
    at = open_page(PAGE, room=code, key=key, **query)
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_teacher_downloads_every_answer_and_sees_each_steps_share_right(lang, downloads):
    at = teacher(lang)
    code, key = at.query_params["room"], at.query_params["key"]
    store = shared_store()
    for student, pick in zip(STUDENTS, PICKS[1], strict=True):
        store.answer(code, 1, student, [pick])
    store.move(code, key, 2)
    for student, pick in reversed(list(zip(STUDENTS, PICKS[2], strict=True))):
        store.answer(code, 2, student, [pick])
    at = _teacher_on(code, key, lang)  # on step 2 now: both steps' questions drawn by the room's pages
    data = downloads(f"room_{code}_answers.csv")
    assert data.startswith(b"\xef\xbb\xbf"), "UTF-8 with the mark a spreadsheet reads"
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    names = ("step", "question", "student", "answer", "right", "seconds")
    assert rows[0] == [t(f"room.record.col.{name}", lang) for name in names]
    yes, no = t("room.record.yes", lang), t("room.record.no", lang)
    expected = [
        [str(step), t(f"ls.{step}.q", lang), str(n), OPTIONS[step][pick], yes if pick == RIGHT[step] else no]
        for step in (1, 2)
        for n, pick in enumerate(PICKS[step], 1)
    ]
    assert [row[:5] for row in rows[1:]] == expected
    assert all(0.0 <= float(row[5]) <= SLOW_S for row in rows[1:]), rows
    assert not any(student in data.decode("utf-8-sig") for student in STUDENTS), "numbers, never ids"
    summary = "\n".join(m.value for m in at.markdown)
    for step in (1, 2):
        right = sum(pick == RIGHT[step] for pick in PICKS[step])
        share = f"{right / len(PICKS[step]):.0%}"
        line = t("room.record.line", lang, right=right, answered=len(PICKS[step]), share=share)
        assert f"**{step}.** {line}" in summary, summary
    bars = [bar.value for bar in at.get("progress")]  # as Streamlit sends them: percent
    assert bars == [round(100 * sum(p == RIGHT[s] for p in PICKS[s]) / len(PICKS[s])) for s in (1, 2)], bars
    assert t("room.record.download", lang) in [b.label for b in at.get("download_button")]


def test_a_student_page_has_no_record(downloads):
    at = teacher()
    code = at.query_params["room"]
    downloads.names.clear()  # the teacher's page's
    one = open_page(PAGE, room=code)
    assert not one.exception, one.exception
    assert t("room.record.download", "en") not in [b.label for b in one.get("download_button")]
    assert not [name for name in downloads.names if name and name.startswith("room_")], "no room file made"


def test_a_step_built_in_the_other_language_is_still_judged(downloads, monkeypatch):
    monkeypatch.setattr(record_view, "_QUESTIONS", {})  # no page of this process has built a step yet
    at = teacher("zh")  # the room's step 1 built in Chinese only
    code, key = at.query_params["room"], at.query_params["key"]
    store = shared_store()
    for student, pick in zip(STUDENTS, PICKS[1], strict=True):
        store.answer(code, 1, student, [pick])
    store.move(code, key, 2)
    at = _teacher_on(code, key, "en")  # the teacher switched to English on step 2
    rows = list(csv.reader(io.StringIO(downloads(f"room_{code}_answers.csv").decode("utf-8-sig"))))
    yes, no = t("room.record.yes", "en"), t("room.record.no", "en")
    expected = [
        ["1", t("ls.1.q", "zh"), str(n), STEP1_OPTIONS[pick], yes if pick == STEP1_RIGHT else no]
        for n, pick in enumerate(PICKS[1], 1)
    ]
    assert [row[:5] for row in rows[1:]] == expected
    right = sum(pick == STEP1_RIGHT for pick in PICKS[1])
    line = t("room.record.line", "en", right=right, answered=len(PICKS[1]), share=f"{right / len(PICKS[1]):.0%}")
    assert f"**1.** {line}" in "\n".join(m.value for m in at.markdown)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    ("failure", "said"),
    [
        (ConnectionError("the store did not answer"), "room.record.download_failed.store"),
        (RoomError("no_room"), "room.record.download_failed.no_room"),
    ],
)
def test_a_download_that_fails_is_said_in_place_and_logged(lang, failure, said, downloads, monkeypatch, caplog):
    at = teacher(lang)
    code = at.query_params["room"]
    store = shared_store()

    def fails(*_):
        raise failure

    monkeypatch.setattr(store, "record", fails)  # the store fails, or the room ended, from the click on
    # a log of its own: failures of one kind are logged once a minute, and another test's may be in it
    monkeypatch.setattr(record_view, "FAILURES", FailureLog(record_view.FAILURES.logger))
    with caplog.at_level(logging.WARNING), pytest.raises(Exception) as made:  # noqa: PT011 - no file, whatever Streamlit is told
        downloads(f"room_{code}_answers.csv")
    at.run()
    assert not at.exception, at.exception
    shown = [element.value for kind in ("error", "warning") for element in at.get(kind)]
    assert t(said, lang) in shown, shown
    assert any(record.levelno >= logging.WARNING and "download" in record.getMessage() for record in caplog.records)
    assert made.value is not failure, "the store's own error is not handed to Streamlit"
