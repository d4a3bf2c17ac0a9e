"""A class's room on the lesson page, in AppTest: the teacher makes a room from the link,
students join from theirs, answer, are counted once, follow the teacher, see the reveal;
wrong keys, made-up codes, a full room and a store that cannot be reached each get their
message and never a traceback. Every page here reads one SQLite file of the test's own."""

from __future__ import annotations

import json
import re

import pytest

from classroom.model import CODE_ALPHABET, Limits, is_student_id, normalise_code
from classroom.store import reset_shared_store, shared_store
from string_table import t
from ui.room import seat as seat_module
from ui.room.seat import SEAT_STATE

from .conftest import open_page

PAGE = "pages/2_lesson.py"
# Step 1 asks the shape of QKᵀ for the book's 6 characters at d = 4: its options, in order.
STEP1_OPTIONS = ["6 × 6", "6 × 4", "4 × 4"]
STEP1_RIGHT = 0


@pytest.fixture(autouse=True)
def room_store(tmp_path, monkeypatch):
    monkeypatch.setenv("ROOM_STORE", f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    monkeypatch.delenv("ROOM_MAX_STUDENTS", raising=False)
    monkeypatch.delenv("ROOM_TTL_HOURS", raising=False)
    reset_shared_store()
    yield
    reset_shared_store()


def texts(at) -> str:
    shown = [m.value for m in at.markdown] + [c.value for c in at.caption]
    shown += [e.value for kind in ("warning", "info", "error", "success") for e in at.get(kind)]
    return "\n".join(shown).replace("\\", "")


def teacher(lang: str = "en", **query):
    at = open_page(PAGE, room="new", **({"lang": lang} if lang != "en" else {}), **query)
    assert not at.exception, at.exception
    return at


def student(code: str, **query):
    at = open_page(PAGE, room=code, **query)
    assert not at.exception, at.exception
    return at


def me(at) -> str:
    """The student id this page's session holds (a browser keeps it in a cookie, not the link)."""
    return at.session_state[SEAT_STATE][2]


def same_browser(monkeypatch, student_id: str | None) -> None:
    """The next pages open in a browser whose cookie holds ``student_id`` (None: no cookie)."""
    monkeypatch.setattr(seat_module, "browser_student", lambda: student_id)


def answer(at, option: str, step: int = 1):
    at.radio(key=f"rm_answer_{step}").set_value(option).run()
    assert not at.exception, at.exception


def bars(at) -> dict:
    """The answers chart: option label -> count, and each bar's colour."""
    (chart,) = [c for c in at.get("plotly_chart") if c.proto.id and "rm_answers" in c.proto.id] or [None]
    spec = json.loads(chart.proto.spec)
    trace = spec["data"][0]
    return dict(zip(trace["y"], trace["x"], strict=True)), trace["marker"]["color"]


def test_a_teacher_link_makes_a_room_whose_code_and_key_are_in_the_link():
    at = teacher(present="1")
    code, key = at.query_params["room"], at.query_params["key"]
    assert normalise_code(code) == code and len(code) == 8 and set(code) <= set(CODE_ALPHABET)
    assert shared_store().is_teacher(code, key) and shared_store().state(code).step == 1
    shown = texts(at)
    assert f"{code[:4]}-{code[4:]}" in shown, "the code as a projector shows it"
    assert t("room.answered", "en", n=0) in shown
    assert len(at.get("image")) == 1, "the link's QR code"
    projected = [m.value.replace("\\", "") for m in at.markdown if "room=" in m.value]
    assert len(projected) == 1 and projected[0].endswith(f"?room={code}"), projected
    assert key not in projected[0], "the projected link carries no key"
    at.run()
    assert at.query_params["room"] == code, "a rerun makes no second room"


def test_a_student_is_counted_once_and_the_teacher_sees_the_answers_live_without_the_right_one(monkeypatch):
    at = teacher()
    code = at.query_params["room"]
    one = student(code)
    first = me(one)
    assert is_student_id(first) and "me" not in one.query_params, "the id is the browser's, not the link's"
    answer(one, STEP1_OPTIONS[1])
    answer(one, STEP1_OPTIONS[2])  # a change, not a second student
    same_browser(monkeypatch, first)
    reloaded = student(code)  # the same browser reloading the page
    same_browser(monkeypatch, None)
    assert reloaded.radio(key="rm_answer_1").value == STEP1_OPTIONS[2], "their answer is still there"
    two = student(code)
    answer(two, STEP1_OPTIONS[2])
    assert shared_store().students(code) == 2
    at.run()
    assert t("room.answered", "en", n=2) in texts(at)
    counts, colors = bars(at)
    assert counts == {"6 × 6": 0, "6 × 4": 0, "4 × 4": 2}
    assert len(set(colors)) == 1 and "✓" not in "".join(counts), "nothing marked before the reveal"


def test_reveal_reaches_the_students_and_closes_the_answers():
    at = teacher()
    code = at.query_params["room"]
    right, wrong = student(code), student(code)
    answer(right, STEP1_OPTIONS[STEP1_RIGHT])
    answer(wrong, STEP1_OPTIONS[1])
    assert not [b for b in right.button if b.key == "rm_reveal"], "a student has no Reveal"
    at.button(key="rm_reveal").click().run()
    assert not at.exception, at.exception
    assert 1 in shared_store().state(code).revealed
    counts, colors = bars(at)
    assert counts == {"6 × 6 ✓": 1, "6 × 4": 1, "4 × 4": 0}
    assert colors[0] != colors[1] == colors[2], "the right option marked"
    for page, said in ((right, "room.you_were_right"), (wrong, "room.you_were_wrong")):
        page.run()
        assert not page.exception, page.exception
        shown = texts(page)
        assert t(said, "en", answer=STEP1_OPTIONS[0 if page is right else 1]) in shown
        assert "The answer: **6 × 6**".replace("**", "") in shown.replace("**", "")
        assert page.radio(key="rm_answer_1").disabled
    assert shared_store().answer_of(code, 1, me(wrong)) == (1,)


def test_next_moves_the_students_who_follow_and_not_those_at_their_own_pace():
    at = teacher()
    code = at.query_params["room"]
    follower, own = student(code), student(code)
    own.toggle(key="rm_own_pace").set_value(True).run()
    own.button(key="ls_next_ls_step").click().run()  # to step 2 on their own
    at.button(key="ls_next_ls_step").click().run()
    at.button(key="ls_next_ls_step").click().run()
    assert shared_store().state(code).step == 3
    follower.run()
    own.run()
    assert follower.subheader[0].value.startswith("3.")
    assert own.subheader[0].value.startswith("2.")
    assert t("room.back_to_teacher", "en", n=3) in [b.label for b in own.button]
    own.button(key="rm_back").click().run()
    assert own.subheader[0].value.startswith("3.")
    assert not [b for b in follower.button if b.key and b.key.startswith("ls_next")], "followers have no Next"
    at.button(key="ls_prev_ls_step").click().run()
    follower.run()
    assert follower.subheader[0].value.startswith("2.")


def test_the_room_remembers_each_steps_answers():
    at = teacher()
    code = at.query_params["room"]
    one = student(code)
    answer(one, STEP1_OPTIONS[0])
    at.button(key="ls_next_ls_step").click().run()
    at.button(key="ls_prev_ls_step").click().run()
    assert bars(at)[0] == {"6 × 6": 1, "6 × 4": 0, "4 × 4": 0}


def test_reopening_the_teacher_link_elsewhere_is_the_same_teacher_on_the_rooms_step():
    at = teacher()
    code, key = at.query_params["room"], at.query_params["key"]
    at.button(key="ls_next_ls_step").click().run()
    lectern = open_page(PAGE, room=code, key=key, step="1")
    assert not lectern.exception
    assert lectern.subheader[0].value.startswith("2."), "the room's step, not the link's"
    assert [b for b in lectern.button if b.key == "rm_reveal"]
    assert "me" not in lectern.query_params


def test_a_wrong_key_is_a_student_with_a_note():
    at = teacher()
    code = at.query_params["room"]
    guess = open_page(PAGE, room=code, key="not-the-key")
    assert not guess.exception
    assert t("room.not_teacher_note", "en") in texts(guess)
    assert not [b for b in guess.button if b.key == "rm_reveal"]
    assert is_student_id(me(guess)) and "key" not in guess.query_params


@pytest.mark.parametrize("raw", ["HELLO", "<b>x</b>$x$", "ACEF-HJK0"])
def test_a_code_that_cannot_be_one_says_so_and_offers_the_lesson_alone(raw):
    at = open_page(PAGE, room=raw)
    assert not at.exception, at.exception
    shown = texts(at)
    assert "is not a room code" in shown
    assert not at.subheader, "no lesson under the message"
    assert [b for b in at.get("link_button") if b.proto.label == t("room.lesson_alone", "en")]


def test_a_code_no_room_has_says_the_room_may_be_over():
    at = open_page(PAGE, room="ACEF-HJKM", lang="zh")
    assert not at.exception, at.exception
    assert "没有课堂码为 ACEF-HJKM 的课堂" in texts(at)
    assert "24 小时" in texts(at)


def test_a_full_room_says_so(monkeypatch):
    monkeypatch.setenv("ROOM_MAX_STUDENTS", "1")
    reset_shared_store()
    at = teacher()
    code = at.query_params["room"]
    student(code)
    late = open_page(PAGE, room=code)
    assert not late.exception, late.exception
    assert t("room.error.full", "en", n=1) in texts(late)


def test_a_store_that_cannot_be_reached_leaves_the_lesson_going(monkeypatch):
    monkeypatch.setenv("ROOM_STORE", "redis://127.0.0.1:9/0")  # nothing listens on the discard port
    reset_shared_store()
    at = open_page(PAGE, room="new")
    assert not at.exception, at.exception
    assert t("room.error.store", "en") in texts(at)
    assert at.subheader[0].value.startswith("1."), "the lesson goes on alone"


def test_the_room_in_chinese_and_its_parameters_are_no_unknown_parameters():
    at = teacher(lang="zh")
    code = at.query_params["room"]
    one = student(code, lang="zh")
    answer(one, STEP1_OPTIONS[0])
    at.run()
    assert t("room.answered", "zh", n=1) == "已有 1 人作答" and "已有 1 人作答" in texts(at)
    assert not re.search(r"room|key|\bme\b", " ".join(w.value for w in [*at.warning, *one.warning]))
    assert any(f"room={code}&lang=zh" in c.value for c in at.code)


def test_limits_of_the_app_are_the_stores():
    assert shared_store().limits == Limits.from_env()


def test_the_teacher_ends_the_room_and_every_page_says_so():
    at = teacher()
    code = at.query_params["room"]
    one = student(code)
    answer(one, STEP1_OPTIONS[0])
    at.sidebar.button(key="rm_end").click().run()
    assert not at.exception, at.exception
    assert shared_store().state(code) is not None, "one click ends nothing: it asks"
    assert t("room.end_confirm", "en") in texts(at)
    at.sidebar.button(key="rm_end_no").click().run()
    assert shared_store().state(code) is not None and t("room.end_confirm", "en") not in texts(at), "kept"
    at.sidebar.button(key="rm_end").click().run()
    at.sidebar.button(key="rm_end_yes").click().run()
    assert not at.exception, at.exception
    assert shared_store().state(code) is None and shared_store().tally(code, 1).answered == 0
    assert t("room.ended", "en", code=f"{code[:4]}-{code[4:]}") in texts(at)
    assert not at.subheader, "no lesson under the message"
    one.run()
    assert not one.exception, one.exception
    assert "There is no room with the code" in texts(one)
    assert [b for b in one.get("link_button") if b.proto.label == t("room.lesson_alone", "en")]
