"""The SQLite store gives back the room its expired rooms took: once every room has expired,
the next room made removes them and the file (with its journal) shrinks back near the size of
a store that never held them. Redis needs no such test: every key expires with its room."""

from __future__ import annotations

import sqlite3

from classroom.model import Limits
from classroom.sqlite_store import ROOM_TABLES, SCHEMA, SQLiteStore

from .room_stores import FakeClock, sid

ROOMS = 200
STUDENTS = 25
STEPS = 8
HOUR_S = 3600.0


def _size(path) -> int:
    """The store's bytes on disk: the file and whatever journal is beside it."""
    return sum(f.stat().st_size for f in (path, *path.parent.glob(path.name + "-*")) if f.exists())


def _fill(path, codes: list[str]) -> None:
    """Every room's students and their answers to every step, written past the store (fast)."""
    with sqlite3.connect(path) as db:
        db.executemany("INSERT INTO students VALUES (?, ?)", [(c, sid(s)) for c in codes for s in range(STUDENTS)])
        rows = [(c, step, sid(s), "[0]") for c in codes for step in range(1, STEPS + 1) for s in range(STUDENTS)]
        db.executemany("INSERT INTO answers VALUES (?, ?, ?, ?, 0)", rows)
        db.executemany("INSERT INTO answered VALUES (?, ?, ?, 0.0)", [row[:3] for row in rows])  # and their times


def test_expired_rooms_are_removed_and_the_file_shrinks_back(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    clock = FakeClock()
    store = SQLiteStore(path, Limits(ttl_s=HOUR_S), clock)
    try:
        store.create()
        empty = _size(path)
        codes = [store.create()[0] for _ in range(ROOMS)]
        _fill(path, codes)
        full = _size(path)
        assert full > 20 * empty, (full, empty)  # what the rooms took is far more than an empty store
        clock.now += HOUR_S + 1  # every room has expired
        code, key = store.create()
        with sqlite3.connect(path) as db:
            left = {table: db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in ROOM_TABLES}
        assert left == {table: int(table in ("rooms", "opened")) for table in ROOM_TABLES}, left
        shrunk = _size(path)
        assert shrunk <= 2 * empty + 64 * 1024, f"{full} bytes, then {shrunk} after the rooms expired (empty: {empty})"
        assert store.is_teacher(code, key) and store.state(code) is not None, "the store goes on"
    finally:
        store.close()


def test_a_file_made_before_compaction_is_made_compactable_when_the_store_opens(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    with sqlite3.connect(path) as db:  # a file as the store made it before: pages never given back
        db.executescript(SCHEMA)
        db.execute("INSERT INTO rooms VALUES ('ACEFHJKM', 'h', 1, '[]', 1, 0, 1e12)")
    db.close()
    store = SQLiteStore(path, Limits())
    try:
        with sqlite3.connect(path) as db:
            mode = db.execute("PRAGMA auto_vacuum").fetchone()[0]
        db.close()
        assert mode == 2, "incremental (SQLite's number for it)"
        assert store.state("ACEFHJKM") is not None, "its rooms kept"
    finally:
        store.close()
