"""The teacher's record of a room (both stores, as test_room_store.py): when each step was
opened and each answer last changed, the students numbered 1, 2, 3… in the order they
joined (never their ids), read only with the teacher's key; and a SQLite file made by the
store before times were kept still opens and gives its record."""

from __future__ import annotations

import sqlite3

from classroom.model import AnswerRecord, Limits
from classroom.sqlite_store import SQLiteStore

from .room_stores import DEFAULTS, FakeClock, reason, sid

# The store's schema before the record existed (as the previous release made its files).
OLD_SCHEMA = """
CREATE TABLE rooms (
  code TEXT PRIMARY KEY, key_hash TEXT NOT NULL, step INTEGER NOT NULL, revealed TEXT NOT NULL,
  version INTEGER NOT NULL, created_at REAL NOT NULL, expires_at REAL NOT NULL);
CREATE TABLE students (code TEXT NOT NULL, student TEXT NOT NULL, PRIMARY KEY (code, student));
CREATE TABLE answers (
  code TEXT NOT NULL, step INTEGER NOT NULL, student TEXT NOT NULL, answer TEXT NOT NULL,
  changes INTEGER NOT NULL, PRIMARY KEY (code, step, student));
CREATE INDEX rooms_expiry ON rooms (expires_at);
CREATE TABLE client_counts (
  kind TEXT NOT NULL, client TEXT NOT NULL, window REAL NOT NULL, until REAL NOT NULL, n INTEGER NOT NULL,
  PRIMARY KEY (kind, client, window));
CREATE INDEX client_counts_until ON client_counts (until);
"""


def test_the_record_holds_each_answer_with_seconds_after_its_step_opened(stores):
    clock = FakeClock()
    store = stores.open(DEFAULTS, clock)
    start = clock.now
    code, key = store.create()  # step 1 opens at start
    clock.now = start + 4.0
    store.answer(code, 1, sid(7), [2])
    clock.now = start + 6.5
    store.answer(code, 1, sid(3), [0, 1])
    clock.now = start + 10.0
    store.move(code, key, 2)  # step 2 opens at +10
    clock.now = start + 12.0
    store.answer(code, 2, sid(3), [1])
    clock.now = start + 15.0
    store.answer(code, 1, sid(7), [2])  # the same answer again: not a change, its time stays
    store.answer(code, 2, sid(7), [4])
    clock.now = start + 19.0
    store.answer(code, 2, sid(3), [3])  # changed: the time of the last change counts
    store.move(code, key, 1)
    store.move(code, key, 2)  # opened again: the first opening stays the step's
    assert store.record(code, key) == [
        AnswerRecord(1, 1, (2,), 4.0),
        AnswerRecord(1, 2, (0, 1), 6.5),
        AnswerRecord(2, 1, (4,), 5.0),
        AnswerRecord(2, 2, (3,), 9.0),
    ]


def test_students_are_numbered_in_the_order_they_joined_never_by_id(stores):
    store = stores.open()
    code, key = store.create()
    joined = [sid(n) for n in (9, 2, 40, 5, 1)]  # ids that sort otherwise than they joined
    for student in joined:
        store.join(code, student)
    store.join(code, sid(9))  # back again: still the first
    for student in reversed(joined):  # answers come in the other order
        store.answer(code, 1, student, [joined.index(student)])
    rows = store.record(code, key)
    assert [(row.student, row.answer) for row in rows] == [(n, (n - 1,)) for n in range(1, 6)]
    everything = repr(rows)
    assert not any(student in everything for student in joined)


def test_only_the_teacher_reads_the_record(stores):
    store = stores.open()
    code, key = store.create()
    other, other_key = store.create()
    store.answer(code, 1, sid(1), [1])
    for wrong in ("", None, other_key, key[:-1] + ("A" if key[-1] != "A" else "B")):
        assert reason(lambda w=wrong: store.record(code, w)) == "not_teacher", wrong
    assert reason(lambda: store.record("ACEFHJKM", key)) == "no_room"
    assert store.record(other, other_key) == []
    assert len(store.record(code, key)) == 1


def test_an_ended_or_expired_room_has_no_record(stores):
    clock = FakeClock()
    store = stores.open(Limits(ttl_s=60.0), clock)
    code, key = store.create()
    store.answer(code, 1, sid(1), [1])
    store.end(code, key)
    assert reason(lambda: store.record(code, key)) == "no_room"
    code, key = store.create()
    store.answer(code, 1, sid(1), [1])
    clock.now += 60.0
    assert reason(lambda: store.record(code, key)) == "no_room"


def test_a_file_made_before_times_were_kept_opens_and_gives_its_record(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    clock = FakeClock()
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
    made = SQLiteStore(path, DEFAULTS, clock)  # the old code's room, made through today's calls...
    code, key = made.create()
    made.answer(code, 1, sid(1), [2])
    made.close()
    with sqlite3.connect(path) as db:  # ...then put back as the old file held it: no times
        db.executescript("DROP TABLE opened; DROP TABLE answered;")
    store = SQLiteStore(path, DEFAULTS, clock)
    try:
        assert store.state(code).step == 1 and store.tally(code, 1).answered == 1
        assert store.record(code, key) == [AnswerRecord(1, 1, (2,), None)]
        clock.now += 3.0
        store.answer(code, 1, sid(2), [0])  # new answers in the old room are timed
        store.move(code, key, 2)
        clock.now += 2.0
        store.answer(code, 2, sid(2), [1])
        assert store.record(code, key) == [
            AnswerRecord(1, 1, (2,), None),
            AnswerRecord(1, 2, (0,), None),  # step 1 opened before times were kept
            AnswerRecord(2, 2, (1,), 2.0),
        ]
    finally:
        store.close()


def test_every_student_who_joined_is_numbered_answering_or_not(stores):
    store = stores.open()
    code, key = store.create()
    store.join(code, sid(5))  # joins, never answers: still student 1
    store.join(code, sid(3))
    store.answer(code, 1, sid(3), [0])
    store.answer(code, 1, sid(8), [1])  # joins by answering, third to join
    assert [(row.student, row.answer) for row in store.record(code, key)] == [(2, (0,)), (3, (1,))]


def test_a_move_to_the_step_already_open_is_no_opening(stores):
    clock = FakeClock()
    store = stores.open(DEFAULTS, clock)
    start = clock.now
    code, key = store.create()  # step 1 opens at start
    _forget_openings(stores, code)  # as a room made before opening times were kept
    clock.now = start + 5.0
    store.move(code, key, 1)  # the same step: the step does not change, nothing opens
    clock.now = start + 8.0
    store.answer(code, 1, sid(1), [0])
    store.move(code, key, 2)  # a change: step 2 opens at +8
    clock.now = start + 9.5
    store.move(code, key, 2)  # the same step again: its opening stays +8
    clock.now = start + 12.0
    store.answer(code, 2, sid(1), [1])
    assert store.record(code, key) == [AnswerRecord(1, 1, (0,), None), AnswerRecord(2, 1, (1,), 4.0)]


def _forget_openings(stores, code: str) -> None:
    """The room's opening times taken out of the store, past the store's own calls."""
    if stores.kind == "sqlite":
        with sqlite3.connect(stores.path) as db:
            db.execute("DELETE FROM opened WHERE code = ?", (code,))
        return
    client = stores.client()
    try:
        room = f"sa:room:{{{code}}}"
        client.hdel(room, *[name for name in client.hkeys(room) if name.startswith("opened:")])
    finally:
        client.close()


def test_an_answer_given_before_its_step_opened_has_no_seconds(stores):
    clock = FakeClock()
    store = stores.open(DEFAULTS, clock)
    start = clock.now
    code, key = store.create()  # step 1 opens at start
    clock.now = start + 2.0
    store.answer(code, 3, sid(1), [1])  # at their own pace, ahead of the teacher
    clock.now = start + 9.0
    store.move(code, key, 3)  # step 3 opens after the answer
    clock.now = start + 11.0
    store.answer(code, 3, sid(2), [0])
    assert store.record(code, key) == [AnswerRecord(3, 1, (1,), None), AnswerRecord(3, 2, (0,), 2.0)]
