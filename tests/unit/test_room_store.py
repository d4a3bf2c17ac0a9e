"""Rooms' stores: every behaviour below runs against both SQLiteStore (a file in the test's
folder) and RedisStore (a real redis-server this session starts, harness/redis_server.py),
and so proves they behave alike: codes, the teacher's key, answers, limits, refusals,
expiry and what a room keeps. Many processes at once: test_room_store_processes.py."""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import inspect
import json
import math
import random
import re
import secrets
import sqlite3
import string
import time

import pytest

import harness.redis_server as redis_harness
from classroom import model as model_module
from classroom import store as store_module
from classroom.model import CODE_ALPHABET, Limits, RoomState, Tally, normalise_code, shown_code
from classroom.sqlite_store import ROOM_TABLES, SQLiteStore
from harness.redis_server import need_redis_server

from .room_stores import (
    CODE_CHARS,
    DEFAULTS,
    FORBIDDEN,
    MIN_CODE_BITS,
    FakeClock,
    reason,
    sid,
)


# -- codes -------------------------------------------------------------------------------------
def test_codes_are_eight_unambiguous_symbols_carrying_at_least_30_bits_and_never_repeat(stores):
    store = stores.open()
    codes = [store.create()[0] for _ in range(200)]
    symbols = set(CODE_ALPHABET)
    assert len(symbols) == len(CODE_ALPHABET), "no symbol twice in the alphabet"
    assert not symbols & FORBIDDEN and symbols <= set(string.ascii_uppercase + string.digits)
    assert CODE_CHARS * math.log2(len(symbols)) >= MIN_CODE_BITS
    for code in codes:
        assert len(code) == CODE_CHARS and set(code) <= symbols, code
        assert not set(code) & FORBIDDEN, code
    assert len(set(codes)) == 200
    # 1600 symbols drawn: each of the 19 comes up ~84 times; one never seen means the codes
    # do not use the whole alphabet (and carry fewer bits than computed above).
    assert set("".join(codes)) == symbols


def test_a_code_is_read_in_any_case_with_dashes_or_spaces_and_nothing_else():
    assert normalise_code("acef-hjkm") == "ACEFHJKM"
    assert normalise_code("ACEF HJKM") == "ACEFHJKM"
    assert normalise_code(" acef - hjkm\t") == "ACEFHJKM"
    assert normalise_code(shown_code("ACEFHJKM")) == "ACEFHJKM"
    for wrong in ("ACEFHJK", "ACEFHJKMN", "", "ACEF-HJK", "ACEF_HJKM", "ACEFHJK!", "ACEFHJKé"):
        assert normalise_code(wrong) is None, wrong
    for symbol in sorted(FORBIDDEN):
        for case in (symbol, symbol.lower()):
            assert normalise_code("ACEFHJK" + case) is None, case
    for not_text in (None, 12345678, b"ACEFHJKM", ["ACEFHJKM"]):
        assert normalise_code(not_text) is None


# -- the teacher's key -------------------------------------------------------------------------
def test_the_teacher_key_is_stored_only_as_its_sha256(stores):
    store = stores.open()
    code, key = store.create()
    store.move(code, key, 2)
    store.reveal(code, key, 2)
    stored = stores.everything()
    assert key not in stored
    assert hashlib.sha256(key.encode()).hexdigest() in stored, "the place read is where the room lives"
    assert len(key) >= 22, "128 bits of URL-safe base64"


def test_a_wrong_or_empty_key_can_neither_move_nor_reveal(stores):
    store = stores.open()
    code, key = store.create()
    other_code, other_key = store.create()
    before = store.state(code)
    one_changed = key[:-1] + ("A" if key[-1] != "A" else "B")
    wrong_keys = [
        "",
        None,
        secrets.token_urlsafe(16),
        other_key,
        one_changed,
        key.upper() if key != key.upper() else key.lower(),
        hashlib.sha256(key.encode()).hexdigest(),
        " " + key,
    ]
    for wrong in wrong_keys:
        assert reason(lambda w=wrong: store.move(code, w, 3)) == "not_teacher", wrong
        assert reason(lambda w=wrong: store.reveal(code, w, 1)) == "not_teacher", wrong
        assert store.is_teacher(code, wrong) is False
    assert store.state(code) == before
    assert store.is_teacher(code, key) and store.is_teacher(other_code, other_key)
    assert not store.is_teacher(other_code, key)


def test_the_student_side_has_no_key_to_give_and_sees_none():
    """The calls a student's page makes take no key, and the state every screen reads
    carries neither the key nor its hash."""
    student_calls = ("state", "join", "answer", "answer_of", "tally", "students")
    teacher_calls = ("move", "reveal", "is_teacher", "end", "record")
    for name in student_calls:
        assert "key" not in inspect.signature(getattr(model_module.RoomStore, name)).parameters, name
    for name in teacher_calls:
        assert "key" in inspect.signature(getattr(model_module.RoomStore, name)).parameters, name
    assert {f.name for f in dataclasses.fields(RoomState)} == {"code", "step", "revealed", "version", "expires_at"}


def test_the_state_a_student_reads_holds_no_key(stores):
    store = stores.open()
    code, key = store.create()
    shown = repr(store.state(code)) + repr(store.tally(code, 1))
    assert key not in shown and hashlib.sha256(key.encode()).hexdigest() not in shown


def test_moving_and_revealing_change_the_state_and_its_version_once(stores):
    store = stores.open()
    code, key = store.create(step=2)
    other, _ = store.create()
    first = store.state(code)
    assert (first.code, first.step, first.revealed) == (code, 2, frozenset())
    moved = store.move(code, key, 5)
    assert (moved.step, moved.version) == (5, first.version + 1)
    assert store.move(code, key, 5).version == moved.version, "the same step: nothing to redraw"
    revealed = store.reveal(code, key, 4)
    assert (revealed.revealed, revealed.version) == ({4}, moved.version + 1)
    assert store.reveal(code, key, 4).version == revealed.version
    assert store.reveal(code, key, 5).revealed == {4, 5}
    assert store.state(code) == store.reveal(code, key, 5)
    assert store.state(other).step == 1 and store.state(other).revealed == frozenset()


# -- answers -----------------------------------------------------------------------------------
def test_a_student_is_counted_once_however_often_they_answer_or_rejoin(stores):
    store = stores.open()
    code, _ = store.create()
    for _ in range(3):
        store.join(code, sid(1))
        store.answer(code, 1, sid(1), [2])
    store.answer(code, 2, sid(1), [0, 3])
    store.join(code, sid(1))
    assert store.students(code) == 1
    assert store.tally(code, 1) == Tally(1, {(2,): 1})
    assert store.tally(code, 2) == Tally(1, {(0, 3): 1})
    assert store.answer_of(code, 1, sid(1)) == (2,) and store.answer_of(code, 2, sid(1)) == (0, 3)
    assert store.answer_of(code, 3, sid(1)) is None and store.answer_of(code, 1, sid(2)) is None


def test_an_answer_is_stored_as_its_distinct_options_in_order(stores):
    store = stores.open()
    code, _ = store.create()
    store.answer(code, 1, sid(1), (5, 1, 5, 3))
    store.answer(code, 1, sid(2), [3, 1, 5])
    store.answer(code, 2, sid(1), [])
    assert store.answer_of(code, 1, sid(1)) == (1, 3, 5)
    assert store.tally(code, 1) == Tally(2, {(1, 3, 5): 2})
    assert store.answer_of(code, 2, sid(1)) == () and store.tally(code, 2) == Tally(1, {(): 1})


def test_changing_an_answer_moves_the_tally(stores):
    store = stores.open()
    code, _ = store.create()
    store.answer(code, 1, sid(1), [1])
    store.answer(code, 1, sid(2), [1])
    assert store.tally(code, 1) == Tally(2, {(1,): 2})
    store.answer(code, 1, sid(1), [2])
    assert store.tally(code, 1) == Tally(2, {(1,): 1, (2,): 1})
    store.answer(code, 1, sid(2), [2])
    assert store.tally(code, 1) == Tally(2, {(2,): 2}), "an answer no one gives any more is not counted"
    assert store.tally(code, 1).by_option() == {2: 2}


def test_once_a_step_is_revealed_its_answers_are_closed_and_others_stay_open(stores):
    store = stores.open()
    code, key = store.create()
    store.answer(code, 1, sid(1), [1])
    store.reveal(code, key, 1)
    assert reason(lambda: store.answer(code, 1, sid(1), [2])) == "revealed"
    assert reason(lambda: store.answer(code, 1, sid(2), [2])) == "revealed"
    assert store.tally(code, 1) == Tally(1, {(1,): 1}) and store.answer_of(code, 1, sid(1)) == (1,)
    store.answer(code, 2, sid(1), [2])
    assert store.answer_of(code, 2, sid(1)) == (2,)


def test_changes_beyond_the_limit_are_refused_and_the_last_accepted_answer_stays(stores):
    store = stores.open(Limits(changes_per_step=3))
    code, _ = store.create()
    store.answer(code, 1, sid(1), [0])  # the first answer is no change
    for option in (1, 2, 3):  # three changes: the limit
        store.answer(code, 1, sid(1), [option])
    assert reason(lambda: store.answer(code, 1, sid(1), [4])) == "too_many_changes"
    assert store.answer_of(code, 1, sid(1)) == (3,)
    assert store.tally(code, 1) == Tally(1, {(3,): 1})
    store.answer(code, 1, sid(1), [3])  # the same answer again changes nothing: accepted
    for option in (1, 2, 3, 4):  # the limit is per step and per student
        store.answer(code, 2, sid(1), [option])
        store.answer(code, 1, sid(2), [option])
    assert store.answer_of(code, 2, sid(1)) == (4,) and store.answer_of(code, 1, sid(2)) == (4,)


def test_more_students_than_the_limit_are_refused_and_those_in_stay(stores):
    store = stores.open(Limits(students=3))
    code, _ = store.create()
    for n in range(3):
        store.join(code, sid(n))
    assert reason(lambda: store.join(code, sid(3))) == "full"
    assert reason(lambda: store.answer(code, 1, sid(4), [1])) == "full"
    store.join(code, sid(0))
    store.answer(code, 1, sid(2), [1])
    assert store.students(code) == 3
    assert store.tally(code, 1) == Tally(1, {(1,): 1}) and store.answer_of(code, 1, sid(4)) is None


BAD_ANSWERS = [
    "1",
    "12",
    b"\x01",
    1,
    None,
    {1: 1},
    {1},
    1.0,
    [-1],
    [64],
    [1, 64],
    list(range(17)),
    [True],
    [False],
    [1, True],
    [1.0],
    [1, 1.0],
    [None],
    ["1"],
    [[1]],
    [1, "2"],
]


def test_answers_that_are_not_option_lists_are_refused_and_leave_no_trace(stores):
    limits = Limits()
    assert (limits.picks, limits.option_index) == (16, 63), "the bad answers below are sized for these"
    store = stores.open(limits)
    code, _ = store.create()
    for bad in BAD_ANSWERS:
        assert reason(lambda b=bad: store.answer(code, 1, sid(1), b)) == "bad_answer", bad
    assert store.students(code) == 0 and store.tally(code, 1) == Tally(0, {})
    store.answer(code, 1, sid(1), list(range(16)))  # the most picks, the largest index
    store.answer(code, 2, sid(1), [63])
    assert store.answer_of(code, 1, sid(1)) == tuple(range(16)) and store.answer_of(code, 2, sid(1)) == (63,)


def test_student_ids_that_the_app_never_makes_are_refused(stores):
    store = stores.open()
    code, _ = store.create()
    for bad in ("", "short", "s" * 13, "s0000000000!", "s000000000 0", "s00000000é0", None, 123456789012):
        assert reason(lambda b=bad: store.join(code, b)) == "bad_answer", bad
        assert reason(lambda b=bad: store.answer(code, 1, b, [1])) == "bad_answer", bad
    assert store.students(code) == 0


def test_steps_outside_the_lesson_are_refused(stores):
    store = stores.open(Limits(steps=10))
    code, key = store.create()
    for bad in (0, -1, 11, 1.0, True, "1", None):
        assert reason(lambda b=bad: store.answer(code, b, sid(1), [1])) == "bad_step", bad
        assert reason(lambda b=bad: store.move(code, key, b)) == "bad_step", bad
        assert reason(lambda b=bad: store.reveal(code, key, b)) == "bad_step", bad
        assert reason(lambda b=bad: store.create(step=b)) == "bad_step", bad
    assert store.state(code).step == 1 and store.state(code).revealed == frozenset()
    assert store.students(code) == 0
    store.move(code, key, 10)
    store.answer(code, 10, sid(1), [1])
    assert store.state(code).step == 10 and store.answer_of(code, 10, sid(1)) == (1,)


def test_a_code_no_room_has_is_no_room_for_every_call(stores):
    store = stores.open()
    made, key = store.create()
    unused = next(c for c in ("ACEFHJKM", "MKJHFECA", "XYWTRPNM") if c != made)
    for code in (unused, made.lower(), shown_code(made), "", "sa:room:*", "{" + made + "}", None):
        assert store.state(code) is None, code
        assert not store.is_teacher(code, key)
        assert reason(lambda c=code: store.move(c, key, 2)) == "no_room"
        assert reason(lambda c=code: store.reveal(c, key, 2)) == "no_room"
        assert reason(lambda c=code: store.join(c, sid(1))) == "no_room"
        assert reason(lambda c=code: store.answer(c, 1, sid(1), [1])) == "no_room"
        assert store.answer_of(code, 1, sid(1)) is None
        assert store.tally(code, 1) == Tally(0, {}) and store.students(code) == 0
    assert store.students(made) == 0


NOTHING = {table: [] for table in ROOM_TABLES}  # a SQLite room gone: no row in any of its tables


# -- expiry ------------------------------------------------------------------------------------
def _assert_gone(store, code: str, key: str, student: str) -> None:
    assert store.state(code) is None
    assert store.is_teacher(code, key) is False
    assert reason(lambda: store.move(code, key, 2)) == "no_room"
    assert reason(lambda: store.reveal(code, key, 2)) == "no_room"
    assert reason(lambda: store.join(code, sid(99))) == "no_room"
    assert reason(lambda: store.answer(code, 1, student, [2])) == "no_room"
    assert store.answer_of(code, 1, student) is None
    assert store.tally(code, 1) == Tally(0, {})
    assert store.students(code) == 0


def test_a_room_past_its_lifetime_is_gone_for_every_call(stores):
    clock = FakeClock()
    store = stores.open(Limits(ttl_s=600.0), clock)
    started = clock.now
    code, key = store.create()
    store.answer(code, 1, sid(1), [1])
    assert store.state(code).expires_at == started + 600.0
    clock.now = started + 600.0 - 0.001
    assert store.state(code) is not None and store.students(code) == 1 and store.tally(code, 1).answered == 1
    clock.now = started + 600.0
    _assert_gone(store, code, key, sid(1))
    clock.now = started + 10 * 24 * 3600.0
    _assert_gone(store, code, key, sid(1))


def test_the_teacher_ends_a_room_and_nothing_of_it_is_left(stores):
    store = stores.open()
    code, key = store.create()
    other, other_key = store.create()
    store.answer(code, 1, sid(1), [2])
    store.answer(other, 1, sid(1), [1])
    for wrong in ("", None, other_key, key[:-1] + ("A" if key[-1] != "A" else "B")):
        assert reason(lambda w=wrong: store.end(code, w)) == "not_teacher", wrong
    assert store.tally(code, 1) == Tally(1, {(2,): 1}), "a wrong key ends nothing"
    store.end(code, key)
    _assert_gone(store, code, key, sid(1))
    empty = NOTHING if stores.kind == "sqlite" else {}
    assert stores.room_contents(code) == empty
    assert reason(lambda: store.end(code, key)) == "no_room"
    assert reason(lambda: store.end("ACEF-HJKM", key)) == "no_room"
    assert store.tally(other, 1) == Tally(1, {(1,): 1}), "other rooms stay"


def test_room_ttl_hours_sets_the_lifetime(stores, monkeypatch):
    assert Limits.from_env({"ROOM_TTL_HOURS": "2"}).ttl_s == 7200.0
    assert Limits.from_env({}).ttl_s == 24 * 3600.0
    assert Limits.from_env({"ROOM_MAX_STUDENTS": "7"}).students == 7
    monkeypatch.setenv("ROOM_TTL_HOURS", "0.5")
    monkeypatch.delenv("ROOM_MAX_STUDENTS", raising=False)
    clock = FakeClock()
    store = stores.open(None, clock)  # no limits given: the environment's
    started = clock.now
    code, key = store.create()
    store.answer(code, 1, sid(1), [1])
    clock.now = started + 1799.0
    assert store.state(code) is not None
    clock.now = started + 1800.0
    _assert_gone(store, code, key, sid(1))


def test_a_code_made_again_after_its_room_expired_starts_empty(stores, monkeypatch):
    clock = FakeClock()
    store = stores.open(Limits(ttl_s=60.0), clock)
    monkeypatch.setattr(model_module, "new_code", lambda: "ACEFHJKM")
    code, old_key = store.create()
    store.answer(code, 1, sid(1), [1])
    store.reveal(code, old_key, 2)
    clock.now += 61.0
    again, key = store.create(step=3)
    assert again == code
    state = store.state(code)
    assert (state.step, state.revealed, state.version) == (3, frozenset(), 1)
    assert (
        store.students(code) == 0 and store.tally(code, 1) == Tally(0, {}) and store.answer_of(code, 1, sid(1)) is None
    )
    assert not store.is_teacher(code, old_key) and store.is_teacher(code, key)
    store.answer(code, 1, sid(1), [2])
    assert store.tally(code, 1) == Tally(1, {(2,): 1})


def test_a_code_in_use_is_never_given_to_a_second_room(stores, monkeypatch):
    store = stores.open()
    codes = iter(["ACEFHJKM", "ACEFHJKM", "ACEFHJKM", "MKJHFECA"])
    monkeypatch.setattr(model_module, "new_code", lambda: next(codes))
    first, first_key = store.create()
    second, second_key = store.create()
    assert (first, second) == ("ACEFHJKM", "MKJHFECA")
    assert store.is_teacher(first, first_key) and not store.is_teacher(first, second_key)


def test_redis_keeps_every_key_of_a_room_exactly_as_long_as_the_room(stores):
    if stores.kind != "redis":
        pytest.skip("Redis's own expiry (SQLite: the next test)")
    store = stores.open(Limits(ttl_s=3.0))
    code, key = store.create()
    store.answer(code, 1, sid(1), [1])
    store.answer(code, 1, sid(1), [2])
    store.reveal(code, key, 1)
    client = stores.client()
    try:
        keys = list(client.scan_iter(match=f"sa:room:{{{code}}}*"))
        assert len(keys) == 7
        for name in keys:
            assert 0 < client.pttl(name) <= 3000, name
        deadline = store.state(code).expires_at + 30.0  # Redis drops them at 3 s; a busy machine may lag
        while time.time() < deadline and (client.exists(*keys) or list(client.scan_iter(match=f"sa:room:{{{code}}}*"))):
            time.sleep(0.2)
        assert client.exists(*keys) == 0 and not list(client.scan_iter(match=f"sa:room:{{{code}}}*"))
        assert store.state(code) is None
    finally:
        client.close()


def test_sqlite_deletes_an_expired_rooms_rows(stores):
    if stores.kind != "sqlite":
        pytest.skip("SQLite's own cleanup (Redis: the test before)")
    clock = FakeClock()
    store = stores.open(Limits(ttl_s=60.0), clock)
    code, _ = store.create()
    store.answer(code, 1, sid(1), [1])
    clock.now += 60.0
    store.create()  # making a room clears every expired one
    assert stores.room_contents(code) == NOTHING
    kept, _ = store.create()
    store.answer(kept, 1, sid(1), [1])
    clock.now += 60.0
    stores.open(Limits(ttl_s=60.0), clock)  # and so does opening the file (a restarted server)
    assert stores.room_contents(kept) == NOTHING


# -- what a room keeps -------------------------------------------------------------------------
ANSWER_TEXT = re.compile(r"^(\d+(,\d+)*)?$")


def test_a_room_keeps_only_its_code_steps_student_ids_answers_key_hash_and_counters(stores):
    clock = FakeClock()
    store = stores.open(Limits(), clock)
    code, key = store.create()
    store.move(code, key, 2)
    store.reveal(code, key, 3)
    students = {sid(n) for n in range(4)}
    for n, student in enumerate(sorted(students)):
        store.answer(code, 1, student, [n % 2])
        store.answer(code, 2, student, [1, 3])
    store.answer(code, 1, sid(0), [5])
    contents = stores.room_contents(code)
    digest = hashlib.sha256(key.encode()).hexdigest()
    expires_at = clock.now + Limits().ttl_s
    if stores.kind == "sqlite":
        with sqlite3.connect(stores.path) as db:
            tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            columns = {t: [row[1] for row in db.execute(f"PRAGMA table_info({t})")] for t in tables}
        assert columns == {
            "rooms": ["code", "key_hash", "step", "revealed", "version", "created_at", "expires_at"],
            "students": ["code", "student"],
            "answers": ["code", "step", "student", "answer", "changes"],
            # the limits per client: a hash of its address per window (test_room_clients.py)
            "client_counts": ["kind", "client", "window", "until", "n"],
            "opened": ["code", "step", "at"],
            "answered": ["code", "step", "student", "at"],
        }
        assert contents["rooms"] == [(code, digest, 2, "[3]", 3, clock.now, expires_at)]
        assert {row for row in contents["students"]} == {(code, s) for s in students}
        for row_code, step, student, answer, changes in contents["answers"]:
            assert row_code == code and step in (1, 2) and student in students and changes in (0, 1)
            assert all(type(i) is int for i in json.loads(answer))
        assert len(contents["answers"]) == 8  # and when each step opened and answer changed (test_room_record.py)
        assert contents["opened"] == [(code, 1, clock.now), (code, 2, clock.now)]
        assert sorted(contents["answered"]) == sorted((code, st, s, clock.now) for st in (1, 2) for s in students)
        return
    room = f"sa:room:{{{code}}}"
    parts = ("students", "answers", "changes", "tally", "joined", "answered")
    assert set(contents) == {room, *(f"{room}:{part}" for part in parts)}
    assert contents[room] == {
        "key_hash": digest,
        "step": "2",
        "version": "3",
        "revealed:3": "1",
        "expires_at": repr(expires_at),
        "opened:1": repr(clock.now),
        "opened:2": repr(clock.now),
    }
    assert contents[f"{room}:joined"] == {s: str(n) for n, s in enumerate(sorted(students), 1)}
    assert contents[f"{room}:answered"] == {f"{st}:{s}": repr(clock.now) for st in (1, 2) for s in students}
    assert contents[f"{room}:students"] == students
    assert {f.split(":", 1)[1] for f in contents[f"{room}:answers"]} == students
    for part in ("answers", "changes", "tally"):
        for field, value in contents[f"{room}:{part}"].items():
            step, rest = field.split(":", 1)
            assert step in ("1", "2"), field
            assert rest in students if part != "tally" else ANSWER_TEXT.match(rest), field
            assert (ANSWER_TEXT if part == "answers" else re.compile(r"^\d+$")).match(value), (field, value)
    assert contents[f"{room}:changes"] == {f"1:{sid(0)}": "1"}
    assert contents[f"{room}:tally"] == {"1:0": "1", "1:1": "2", "1:5": "1", "2:1,3": "4"}


def test_the_tally_equals_a_hand_count(stores):
    rng = random.Random(20240611)
    store = stores.open(Limits(changes_per_step=1000))
    code, _ = store.create()
    final: dict[tuple[int, str], tuple[int, ...]] = {}
    for _ in range(600):
        student, step = sid(rng.randrange(60)), rng.randrange(1, 4)
        answer = [rng.randrange(6) for _ in range(rng.randrange(1, 4))]
        store.answer(code, step, student, answer)
        final[(step, student)] = tuple(sorted(set(answer)))
    for step in (1, 2, 3):
        answers = [a for (s, _), a in final.items() if s == step]
        by_answer = collections.Counter(answers)
        by_option = collections.Counter(option for answer in answers for option in answer)
        tally = store.tally(code, step)
        assert tally.answered == len(answers) and tally.by_answer == dict(by_answer)
        assert tally.by_option() == dict(by_option)
    assert store.students(code) == len({student for _, student in final})
    for (step, student), answer in final.items():
        assert store.answer_of(code, step, student) == answer


def test_open_store_reads_room_store(stores, monkeypatch):
    from classroom.redis_store import RedisStore

    monkeypatch.setenv("ROOM_STORE", stores.spec)
    store = store_module.open_store(limits=DEFAULTS)
    stores.opened.append(store)
    assert isinstance(store, SQLiteStore if stores.kind == "sqlite" else RedisStore)
    code, _ = stores.open().create()
    assert store.state(code) is not None, "the same place as the store the test opened"


# -- without redis-server ----------------------------------------------------------------------
def test_without_redis_server_its_tests_skip_naming_the_package(monkeypatch):
    monkeypatch.setattr(redis_harness, "redis_server_path", lambda: None)
    monkeypatch.delenv("REQUIRE_REDIS", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install redis-server"):
        need_redis_server()


def test_without_redis_server_and_require_redis_they_fail(monkeypatch):
    monkeypatch.setattr(redis_harness, "redis_server_path", lambda: None)
    monkeypatch.setenv("REQUIRE_REDIS", "1")
    with pytest.raises(pytest.fail.Exception, match="REQUIRE_REDIS=1"):
        need_redis_server()


def test_limits_from_the_environment_keep_the_default_for_what_is_not_a_positive_number(caplog):
    defaults = Limits()
    for bad in ("abc", "0", "-2", "nan", "inf", "1e999"):
        limits = Limits.from_env({"ROOM_TTL_HOURS": bad, "ROOM_MAX_STUDENTS": bad})
        assert (limits.ttl_s, limits.students) == (defaults.ttl_s, defaults.students), bad
    assert "ROOM_TTL_HOURS='abc' is not a positive number" in caplog.text
    assert Limits.from_env({"ROOM_TTL_HOURS": "0.25", "ROOM_MAX_STUDENTS": "40"}) == Limits(ttl_s=900.0, students=40)
    assert Limits.from_env({"ROOM_MAX_STUDENTS": "2.5"}).students == defaults.students, "a count is a whole number"
