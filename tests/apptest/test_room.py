"""A class's room on the lesson page, in AppTest: the teacher makes a room from the link,
students join from theirs, answer, are counted once, follow the teacher, see the reveal;
wrong keys, made-up codes, a full room and a store that cannot be reached each get their
message and never a traceback. Every page here reads one SQLite file of the test's own."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from ui.lesson.steps import STEPS
from ui.room import seat as seat_module
from ui.room import store as store_module
from ui.room.seat import SEAT_STATE
from ui.room.sqlite_store import SQLiteStore
from ui.room.store import (
    CODE_ALPHABET,
    Limits,
    RoomError,
    is_student_id,
    normalise_code,
    reset_shared_store,
    shared_store,
)
from ui.strings import t

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


# Unicode's explicit directional formatting characters (UAX #9): ALM, LRM, RLM, LRE, RLE, PDF,
# LRO, RLO, LRI, RLI, FSI, PDI.
BIDI = {chr(c) for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))}


def test_a_code_with_characters_that_reorder_text_is_echoed_without_them():
    at = open_page(PAGE, room="\u202eMKJH-FECA\u2066x\u200f")
    assert not at.exception, at.exception
    shown = texts(at)
    assert "is not a room code" in shown and "MKJH-FECAx" in shown, shown
    assert not set(shown) & BIDI, "no character that reorders the echoed code"


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


def _limited(tmp_path, monkeypatch, **limits) -> None:
    """The app's store with these limits (every AppTest page is one client: this machine)."""
    reset_shared_store()
    monkeypatch.setattr(store_module, "_STORE", SQLiteStore(tmp_path / "limited.sqlite3", Limits(**limits)))


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
