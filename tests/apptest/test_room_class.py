"""A class's room on the lesson page, in AppTest, where a class leans on it: a store that
fails, loses its file or refuses; limits per client (rooms, students new to a room, codes
tried) and on steps; codes echoed without characters that reorder text; a reveal that is per
step; the student link (PUBLIC_URL, or a warning); every step's inputs the class's. Every
page here reads one SQLite file of the test's own (test_room.py's fixture)."""

from __future__ import annotations

import sqlite3

import pytest

from classroom import store as store_module
from classroom.model import Limits, RoomError, is_student_id
from classroom.sqlite_store import SQLiteStore
from classroom.store import reset_shared_store, shared_store
from string_table import t
from ui.lesson.steps import STEPS

from .conftest import open_page
from .test_room import (  # noqa: F401 - room_store: the autouse fixture, for this module too
    PAGE,
    STEP1_OPTIONS,
    me,
    room_store,
    same_browser,
    student,
    teacher,
    texts,
)

# Unicode's explicit directional formatting characters (UAX #9): ALM, LRM, RLM, LRE, RLE, PDF,
# LRO, RLO, LRI, RLI, FSI, PDI.
BIDI = {chr(c) for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))}


def test_a_code_with_characters_that_reorder_text_is_echoed_without_them():
    at = open_page(PAGE, room="\u202eMKJH-FECA\u2066x\u200f")
    assert not at.exception, at.exception
    shown = texts(at)
    assert "is not a room code" in shown and "MKJH-FECAx" in shown, shown
    assert not set(shown) & BIDI, "no character that reorders the echoed code"


def test_a_room_takes_the_lessons_steps_and_no_other():
    assert shared_store().limits.steps == len(STEPS)
    at = teacher()
    code, key = at.query_params["room"], at.query_params["key"]
    one = me(student(code))
    for step in (1, len(STEPS)):
        shared_store().move(code, key, step)
        shared_store().answer(code, step, one, [0])
    store = shared_store()
    for beyond in (len(STEPS) + 1, 64):
        calls = (store.move, store.reveal, lambda code, key, step: store.answer(code, step, one, [0]))
        for call in calls:
            with pytest.raises(RoomError) as refused:
                call(code, key, beyond)
            assert refused.value.reason == "bad_step", (call, beyond)


def test_a_store_failure_leaves_the_room_and_its_key_in_the_link(monkeypatch):
    made = teacher(present="1")
    code, key = made.query_params["room"], made.query_params["key"]
    one = student(code)
    monkeypatch.setenv("ROOM_STORE", "redis://127.0.0.1:9/0")  # the store fails from now on
    reset_shared_store()
    fresh_teacher = open_page(PAGE, room=code, key=key, present="1", view="answers")
    fresh_student = open_page(PAGE, room=code)
    made.run()  # pages that held their seat, rerun (a fragment's tick, a click)
    one.run()
    teachers, students = {"room": code, "key": key}, {"room": code}
    pages = [(fresh_teacher, {**teachers, "view": "answers"}), (fresh_student, students)]
    for at, kept in [*pages, (made, teachers), (one, students)]:
        assert not at.exception, at.exception
        assert t("room.error.store", "en") in texts(at)
        link = {name: at.query_params.get(name) for name in kept}
        assert link == kept, f"a reload finds the room again: {dict(at.query_params)}"


def test_a_removed_room_file_is_made_again_and_the_page_says_the_rooms_were_lost(tmp_path):
    made = teacher()
    code = made.query_params["room"]
    for file in tmp_path.glob("rooms.sqlite3*"):
        file.unlink()
    late = student(code)
    assert t("room.error.lost", "en", code=f"{code[:4]}-{code[4:]}") in texts(late)
    again = teacher()
    new_code = again.query_params["room"]
    assert new_code != code and shared_store().state(new_code) is not None, "a new room works at once"
    assert student(new_code).query_params["room"] == new_code


def _answer_widget(at, step: int):
    """The student's answer to ``step``: its radio group or its multiselect."""
    found = [w for kind in ("radio", "multiselect") for w in at.get(kind) if w.key == f"rm_answer_{step}"]
    assert len(found) == 1, f"step {step}: one answer widget, found {len(found)}"
    return found[0]


def _without_code(shown: str, code: str) -> str:
    return shown.replace(f"{code[:4]}-{code[4:]}", "CODE")


@pytest.mark.parametrize("revealed", [1, 4, 8])
def test_a_reveal_is_per_step_a_student_on_every_other_step_sees_no_answer_and_can_choose(revealed):
    made = teacher()
    code, key = made.query_params["room"], made.query_params["key"]
    shared_store().move(code, key, revealed)
    projector = open_page(PAGE, room=code, key=key)  # the teacher's link on the projector: the room's step
    assert projector.subheader[0].value.startswith(f"{revealed}.")
    projector.button(key="rm_reveal").click().run()
    assert not projector.exception, projector.exception
    assert shared_store().state(code).revealed == frozenset({revealed}), "the reveal is the shown step's"
    one = student(code)
    one_id = me(one)
    unrevealed = teacher()  # a room where nothing is revealed: what a student sees before any reveal
    other_code, other_key = unrevealed.query_params["room"], unrevealed.query_params["key"]
    control = student(other_code)
    answer_prefix = t("ls.the_answer", "en", answer="", why="").split("**")[0]  # "The answer: "
    answered_prefix = t("room.you_were_wrong", "en", answer="").rstrip(".")  # "You answered "
    for step in range(1, 9):
        shared_store().move(code, key, step)
        shared_store().move(other_code, other_key, step)
        one.run()
        control.run()
        assert not one.exception, one.exception
        assert one.subheader[0].value.startswith(f"{step}."), "the student follows the teacher"
        shown = texts(one)
        widget = _answer_widget(one, step)
        if step == revealed:
            assert widget.proto.disabled and answer_prefix in shown, "the revealed step shows its answer"
            continue
        assert not widget.proto.disabled, f"step {step}: the student can still choose"
        assert answer_prefix not in shown and answered_prefix not in shown, f"step {step}: no answer shown"
        assert t("room.wait_reveal", "en") in shown
        assert _without_code(shown, code) == _without_code(texts(control), other_code), f"step {step}: as unrevealed"
        assert len(one.get("plotly_chart")) == len(control.get("plotly_chart")), f"step {step}: no chart of the answer"
        shared_store().answer(code, step, one_id, [0])  # what choosing sends: the store takes it
        assert shared_store().answer_of(code, step, one_id) == (0,)


# A moment well inside one minute's and one hour's window: the limits count in fixed windows,
# and a test whose pages straddled a window's end (a busy machine) would count in two.
STILL = 1_800_000_030.0


def _limited(tmp_path, monkeypatch, **limits) -> None:
    """The app's store with these limits (every AppTest page is one client: this machine), on a
    clock that stands still inside one window."""
    reset_shared_store()
    store = SQLiteStore(tmp_path / "limited.sqlite3", Limits(**limits), clock=lambda: STILL)
    monkeypatch.setattr(store_module, "_STORE", store)


def _rooms_in(path) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0]
    finally:
        db.close()


def test_rooms_made_per_client_are_limited(tmp_path, monkeypatch):
    _limited(tmp_path, monkeypatch, rooms_per_hour=3)
    for _ in range(3):
        assert is_student_id(me(student(teacher().query_params["room"])))
    refused = open_page(PAGE, room="new")
    assert not refused.exception, refused.exception
    assert t("room.error.too_many_rooms", "en") in texts(refused) and not refused.subheader
    assert _rooms_in(tmp_path / "limited.sqlite3") == 3, "no fourth room"


def test_students_new_to_a_room_per_client_are_limited_and_a_returning_one_is_not(tmp_path, monkeypatch):
    _limited(tmp_path, monkeypatch, joins_per_minute=3)
    code = teacher().query_params["room"]
    ids = [me(student(code)) for _ in range(3)]
    late = open_page(PAGE, room=code)
    assert t("room.error.too_many_joins", "en") in texts(late) and not late.subheader
    same_browser(monkeypatch, "s00000000099")  # a made-up id in a cookie: a new student too
    made_up = open_page(PAGE, room=code)
    assert t("room.error.too_many_joins", "en") in texts(made_up)
    assert not shared_store().has_student(code, "s00000000099")
    same_browser(monkeypatch, ids[0])
    back = student(code)
    assert me(back) == ids[0] and t("room.error.too_many_joins", "en") not in texts(back)
    assert shared_store().students(code) == 3


def test_codes_tried_per_client_are_limited_even_a_right_one_then(tmp_path, monkeypatch):
    _limited(tmp_path, monkeypatch, guesses_per_minute=3)
    code = teacher().query_params["room"]
    for guess in ("ACEFHJKM", "HELLO", "ACEFHJKN"):
        assert t("room.error.too_many_guesses", "en") not in texts(open_page(PAGE, room=guess))
    blocked = open_page(PAGE, room=code)
    assert not blocked.exception, blocked.exception
    assert t("room.error.too_many_guesses", "en") in texts(blocked) and not blocked.subheader
    assert shared_store().students(code) == 0


def test_the_student_link_is_public_url_s_lesson_and_a_link_for_this_machine_only_is_warned(monkeypatch):
    local = teacher(present="1")  # AppTest's page has no browser address: no phone could open it
    assert t("room.link_local", "en") in texts(local)
    monkeypatch.setenv("PUBLIC_URL", "https://class.example.org/attention/")
    at = teacher(present="1", lang="zh")
    code = at.query_params["room"]
    # As read: the Markdown's escapes and the word joiner that keeps it from becoming a link dropped.
    projected = [m.value.replace("\\", "").replace("\u2060", "") for m in at.markdown if "room=" in m.value]
    assert projected == [f"https://class.example.org/attention/lesson?room={code}&lang=zh"], projected
    assert t("room.link_local", "zh") not in texts(at)
    assert [c.value for c in at.sidebar.code][0].startswith(projected[0] + "&key="), "the teacher's link too"


def test_in_a_room_every_steps_inputs_are_the_classs_and_cannot_be_changed():
    at = teacher()
    code, key = at.query_params["room"], at.query_params["key"]
    one = student(code)
    for step in range(1, len(STEPS) + 1):
        shared_store().move(code, key, step)
        one.run()
        at.run()
        for page in (one, at):
            inputs = [w for kind in ("text_input", "select_slider") for w in page.get(kind) if w.key.startswith("ls_")]
            assert inputs and all(w.disabled for w in inputs), f"step {step}: {[(w.key, w.disabled) for w in inputs]}"
    shared_store().move(code, key, 1)
    one.run()
    assert _answer_widget(one, 1).options == STEP1_OPTIONS
    one.session_state["ls_text_1"] = "abc"  # what a crafted client could send for the locked inputs
    one.session_state["ls_d_1"] = 8
    one.run()
    assert not one.exception, one.exception
    assert _answer_widget(one, 1).options == STEP1_OPTIONS, "judged on the class's question: 6 tokens, d = 4"
