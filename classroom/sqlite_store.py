"""Rooms in one SQLite file (the default store): WAL mode, so every process on one machine
shares the file, writers wait for each other and readers never wait. The behaviour is the
store's (``model.RoomStore``); the Redis store (``redis_store.py``) has the same."""

from __future__ import annotations

import hmac
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from gpt_core.data import corpus_cache_dir

from . import model as _model
from .model import (
    CALL_TIMEOUT_S,
    KEY_BYTES,
    AnswerRecord,
    Limits,
    RoomError,
    RoomState,
    Tally,
    checked_answer,
    is_student_id,
    key_hash,
    seconds_after,
    window_start,
)

LOG = logging.getLogger(__name__)
DB_FILE = "rooms.sqlite3"
INCREMENTAL = 2  # PRAGMA auto_vacuum's value for incremental: free pages are given back on request
BUSY_TIMEOUT_S = CALL_TIMEOUT_S - 0.5  # a writer waits this long for another's lock, then gives up

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
  code TEXT PRIMARY KEY, key_hash TEXT NOT NULL, step INTEGER NOT NULL, revealed TEXT NOT NULL,
  version INTEGER NOT NULL, created_at REAL NOT NULL, expires_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS students (
  code TEXT NOT NULL, student TEXT NOT NULL, PRIMARY KEY (code, student));
CREATE TABLE IF NOT EXISTS answers (
  code TEXT NOT NULL, step INTEGER NOT NULL, student TEXT NOT NULL, answer TEXT NOT NULL,
  changes INTEGER NOT NULL, PRIMARY KEY (code, step, student));
CREATE INDEX IF NOT EXISTS rooms_expiry ON rooms (expires_at);
CREATE TABLE IF NOT EXISTS client_counts (
  kind TEXT NOT NULL, client TEXT NOT NULL, window REAL NOT NULL, until REAL NOT NULL, n INTEGER NOT NULL,
  PRIMARY KEY (kind, client, window));
CREATE INDEX IF NOT EXISTS client_counts_until ON client_counts (until);
CREATE TABLE IF NOT EXISTS opened (
  code TEXT NOT NULL, step INTEGER NOT NULL, at REAL NOT NULL, PRIMARY KEY (code, step));
CREATE TABLE IF NOT EXISTS answered (
  code TEXT NOT NULL, step INTEGER NOT NULL, student TEXT NOT NULL, at REAL NOT NULL,
  PRIMARY KEY (code, step, student));
"""
# A room's rows, in every table that holds them (a file made before ``opened`` and ``answered``
# existed gets them from SCHEMA's CREATE TABLE IF NOT EXISTS when it opens). A student's
# number is the order of their row in ``students`` (its rowid grows with every insert).
ROOM_TABLES = ("rooms", "students", "answers", "opened", "answered")
_OPEN = "INSERT OR IGNORE INTO opened VALUES (?, ?, ?)"  # a step's first opening is kept


def default_sqlite_path() -> Path:
    return corpus_cache_dir() / DB_FILE


class SQLiteStore:
    """Rooms in one SQLite file in WAL mode: every process on the machine opens the same file,
    writers wait for each other (``busy_timeout``), readers never wait. One connection per
    thread (Streamlit runs each session's script in its own thread)."""

    def __init__(
        self, path: Path | str | None = None, limits: Limits | None = None, clock: Callable[[], float] = time.time
    ) -> None:
        self.path = Path(path) if path is not None else default_sqlite_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.limits = limits or Limits.from_env()
        self.clock = clock
        self._local = threading.local()
        self._lost = False
        self._known = self._file_id()  # the file this store opened (None: not made yet)
        self._compactable()
        with self._tx() as db:  # a restarted server: rooms that expired while it was down go
            forgot = self._forget_expired(db, self.clock())
        if forgot:
            self._compact()

    @property
    def lost(self) -> bool:
        return self._lost

    def _file_id(self) -> tuple[int, int] | None:
        try:
            found = os.stat(self.path)
        except FileNotFoundError:
            return None
        return found.st_dev, found.st_ino

    def _db(self) -> sqlite3.Connection:
        """This thread's connection to the file now at ``path``: a file removed (or replaced)
        under the store is made again with its tables, and the store says its rooms were lost
        (a connection to the removed file would go on writing to a file nobody else sees)."""
        db = getattr(self._local, "db", None)
        found = self._file_id()
        if db is not None and found == self._local.file:
            return db
        if db is not None:
            db.close()
        if found is None and self._known is not None:
            self._file_lost()
        db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")  # WAL: a committed answer survives the process's death
        db.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
        db.execute("PRAGMA auto_vacuum=INCREMENTAL")  # a new file: freed pages can be given back
        db.executescript(SCHEMA)
        self._local.db, self._local.file = db, self._file_id()
        if self._known is not None and self._local.file != self._known:
            self._file_lost()
        self._known = self._local.file
        return db

    def _file_lost(self) -> None:
        """The file was removed: what was left of it beside it (its journal) goes too, so the
        new file starts empty and sound."""
        if not self._lost:
            LOG.warning("the rooms' file %s was removed: a new one is made, and the rooms it held are lost", self.path)
        self._lost = True
        if not self.path.exists():
            for leftover in (self.path.with_name(self.path.name + suffix) for suffix in ("-wal", "-shm")):
                leftover.unlink(missing_ok=True)

    def _tx(self) -> _Transaction:
        return _Transaction(self._db())

    # -- the teacher ---------------------------------------------------------------------------
    def create(self, step: int = 1) -> tuple[str, str]:
        self._check_step(step)
        key = secrets.token_urlsafe(KEY_BYTES)
        now = self.clock()
        with self._tx() as db:
            forgot = self._forget_expired(db, now)
            while True:
                code = _model.new_code()  # read at call time (the tests choose codes)
                if db.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone() is None:
                    break
            db.execute(
                "INSERT INTO rooms VALUES (?, ?, ?, '[]', 1, ?, ?)",
                (code, key_hash(key), step, now, now + self.limits.ttl_s),
            )
            db.execute(_OPEN, (code, step, now))
        if forgot:
            self._compact()
        return code, key

    def state(self, code: str) -> RoomState | None:
        row = (
            self._db()
            .execute(
                "SELECT step, revealed, version, expires_at FROM rooms WHERE code = ? AND expires_at > ?",
                (code, self.clock()),
            )
            .fetchone()
        )
        if row is None:
            return None
        return RoomState(code, row[0], frozenset(json.loads(row[1])), row[2], row[3])

    def is_teacher(self, code: str, key: str) -> bool:
        if not isinstance(key, str) or not key:
            return False
        row = (
            self._db()
            .execute("SELECT key_hash FROM rooms WHERE code = ? AND expires_at > ?", (code, self.clock()))
            .fetchone()
        )
        return row is not None and hmac.compare_digest(row[0], key_hash(key))

    def move(self, code: str, key: str, step: int) -> RoomState:
        self._check_step(step)
        self._teacher(code, key)
        with self._tx() as db:
            changed = db.execute(
                "UPDATE rooms SET step = ?, version = version + 1 WHERE code = ? AND step != ?", (step, code, step)
            ).rowcount
            if changed:  # the step opens only when it changes (as the Redis store's MOVE)
                db.execute(_OPEN, (code, step, self.clock()))
        return self._existing(code)

    def reveal(self, code: str, key: str, step: int) -> RoomState:
        self._check_step(step)
        self._teacher(code, key)
        with self._tx() as db:
            row = db.execute("SELECT revealed FROM rooms WHERE code = ?", (code,)).fetchone()
            revealed = set(json.loads(row[0])) if row else set()
            if step not in revealed:
                db.execute(
                    "UPDATE rooms SET revealed = ?, version = version + 1 WHERE code = ?",
                    (json.dumps(sorted(revealed | {step})), code),
                )
        return self._existing(code)

    def end(self, code: str, key: str) -> None:
        self._teacher(code, key)
        with self._tx() as db:
            for table in ROOM_TABLES:
                db.execute(f"DELETE FROM {table} WHERE code = ?", (code,))

    # -- students --------------------------------------------------------------------------------
    def join(self, code: str, student: str) -> None:
        if not is_student_id(student):
            raise RoomError("bad_answer")
        with self._tx() as db:
            self._live(db, code)
            if db.execute("SELECT 1 FROM students WHERE code = ? AND student = ?", (code, student)).fetchone():
                return
            (count,) = db.execute("SELECT COUNT(*) FROM students WHERE code = ?", (code,)).fetchone()
            if count >= self.limits.students:
                raise RoomError("full")
            db.execute("INSERT INTO students VALUES (?, ?)", (code, student))

    def answer(self, code: str, step: int, student: str, answer: Sequence[int]) -> None:
        self._check_step(step)
        picked = json.dumps(checked_answer(answer, self.limits))
        self.join(code, student)
        with self._tx() as db:
            revealed = self._live(db, code)
            if step in revealed:
                raise RoomError("revealed")
            row = db.execute(
                "SELECT answer, changes FROM answers WHERE code = ? AND step = ? AND student = ?", (code, step, student)
            ).fetchone()
            if row is None:
                db.execute("INSERT INTO answers VALUES (?, ?, ?, ?, 0)", (code, step, student, picked))
            elif row[0] == picked:
                return  # no change: the answer's time stays
            elif row[1] >= self.limits.changes_per_step:
                raise RoomError("too_many_changes")
            else:
                db.execute(
                    "UPDATE answers SET answer = ?, changes = changes + 1 WHERE code = ? AND step = ? AND student = ?",
                    (picked, code, step, student),
                )
            db.execute("INSERT OR REPLACE INTO answered VALUES (?, ?, ?, ?)", (code, step, student, self.clock()))

    # Reads see a live room's rows only: an expired room's rows may wait for the next cleanup.
    _LIVE = "code IN (SELECT code FROM rooms WHERE code = ? AND expires_at > ?)"

    def answer_of(self, code: str, step: int, student: str) -> tuple[int, ...] | None:
        row = (
            self._db()
            .execute(
                f"SELECT answer FROM answers WHERE {self._LIVE} AND step = ? AND student = ?",
                (code, self.clock(), step, student),
            )
            .fetchone()
        )
        return tuple(json.loads(row[0])) if row else None

    def tally(self, code: str, step: int) -> Tally:
        rows = (
            self._db()
            .execute(
                f"SELECT answer, COUNT(*) FROM answers WHERE {self._LIVE} AND step = ? GROUP BY answer",
                (code, self.clock(), step),
            )
            .fetchall()
        )
        by_answer = {tuple(json.loads(answer)): n for answer, n in rows}
        return Tally(sum(by_answer.values()), by_answer)

    def record(self, code: str, key: str) -> list[AnswerRecord]:
        self._teacher(code, key)
        rows = (
            self._db()
            .execute(
                "SELECT a.step, n.number, a.answer, o.at, t.at FROM answers a"
                " JOIN (SELECT student, ROW_NUMBER() OVER (ORDER BY rowid) AS number FROM students WHERE code = ?) n"
                " ON n.student = a.student"
                " LEFT JOIN opened o ON o.code = a.code AND o.step = a.step"
                " LEFT JOIN answered t ON t.code = a.code AND t.step = a.step AND t.student = a.student"
                " WHERE a.code = ? ORDER BY a.step, n.number",
                (code, code),
            )
            .fetchall()
        )
        return [
            AnswerRecord(step, number, tuple(json.loads(answer)), seconds_after(opened, at))
            for step, number, answer, opened, at in rows
        ]

    def students(self, code: str) -> int:
        (count,) = (
            self._db().execute(f"SELECT COUNT(*) FROM students WHERE {self._LIVE}", (code, self.clock())).fetchone()
        )
        return count

    def has_student(self, code: str, student: str) -> bool:
        query = f"SELECT 1 FROM students WHERE {self._LIVE} AND student = ?"
        return self._db().execute(query, (code, self.clock(), student)).fetchone() is not None

    def counted(self, kind: str, client: str, window_s: float, add: bool) -> int:
        now = self.clock()
        window = window_start(now, window_s)
        if not add:
            query = "SELECT n FROM client_counts WHERE kind = ? AND client = ? AND window = ?"
            row = self._db().execute(query, (kind, client, window)).fetchone()
            return row[0] if row else 0
        with self._tx() as db:
            db.execute("DELETE FROM client_counts WHERE until <= ?", (now,))  # windows past
            db.execute(
                "INSERT INTO client_counts VALUES (?, ?, ?, ?, 1) ON CONFLICT DO UPDATE SET n = n + 1",
                (kind, client, window, window + window_s),
            )
            query = "SELECT n FROM client_counts WHERE kind = ? AND client = ? AND window = ?"
            return db.execute(query, (kind, client, window)).fetchone()[0]

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = self._local.file = None

    # -- checks ----------------------------------------------------------------------------------
    @staticmethod
    def _forget_expired(db: sqlite3.Connection, now: float) -> bool:
        """Removes the expired rooms and what they held; True when there were any."""
        if db.execute("DELETE FROM rooms WHERE expires_at <= ?", (now,)).rowcount == 0:
            return False
        for table in ROOM_TABLES[1:]:  # what they held
            db.execute(f"DELETE FROM {table} WHERE code NOT IN (SELECT code FROM rooms)")
        return True

    def _compactable(self) -> None:
        """A file made before the store gave pages back (auto_vacuum off) is rebuilt once so
        that it can (VACUUM: skipped, and tried at the next start, while another process
        holds the file)."""
        db = self._db()
        if db.execute("PRAGMA auto_vacuum").fetchone()[0] == INCREMENTAL:
            return
        try:
            db.execute("PRAGMA auto_vacuum=INCREMENTAL")
            db.execute("VACUUM")
        except sqlite3.OperationalError as error:
            LOG.warning("the rooms' file %s could not be made compactable now: %s", self.path, error)

    def _compact(self) -> None:
        """Gives the pages that expired rooms freed back to the file system: the file, then
        the journal, shrink (a checkpoint that other readers hold back is left for later)."""
        db = self._db()
        db.executescript("PRAGMA incremental_vacuum;")  # stepped to its end (execute() stops at a page)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    def _check_step(self, step: int) -> None:
        if type(step) is not int or not 1 <= step <= self.limits.steps:
            raise RoomError("bad_step")

    def _teacher(self, code: str, key: str) -> None:
        if self.state(code) is None:
            raise RoomError("no_room")
        if not self.is_teacher(code, key):
            raise RoomError("not_teacher")

    def _existing(self, code: str) -> RoomState:
        state = self.state(code)
        if state is None:
            raise RoomError("no_room")
        return state

    def _live(self, db: sqlite3.Connection, code: str) -> set[int]:
        row = db.execute(
            "SELECT revealed FROM rooms WHERE code = ? AND expires_at > ?", (code, self.clock())
        ).fetchone()
        if row is None:
            raise RoomError("no_room")
        return set(json.loads(row[0]))


class _Transaction:
    """``with store._tx() as db``: one write transaction (BEGIN IMMEDIATE: the write lock is
    taken at once, so two processes never both read-then-write the same row)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def __enter__(self) -> sqlite3.Connection:
        self.connection.execute("BEGIN IMMEDIATE")
        return self.connection

    def __exit__(self, kind, error, trace) -> None:
        self.connection.execute("COMMIT" if kind is None else "ROLLBACK")
