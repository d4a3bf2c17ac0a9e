"""Rooms in Redis, for a class served by more than one machine (several pods do not share a
SQLite file): ``ROOM_STORE=redis://host:6379/0``. The same behaviour as ``SQLiteStore``, the
same ``RoomError`` reasons.

A room is seven keys, all named after its code inside braces (a Redis Cluster hash tag: every
key of a room lives on one node, so one script may touch them all):

- ``sa:room:{CODE}``          hash: ``key_hash`` (sha256 of the teacher's key, never the key),
                              ``step``, ``version``, ``expires_at``, ``revealed:<step>`` = 1,
                              ``opened:<step>`` = when the teacher first opened the step
- ``sa:room:{CODE}:students`` set of the students' anonymous ids
- ``sa:room:{CODE}:answers``  hash ``<step>:<student>`` -> the option indices, ``1,3``
- ``sa:room:{CODE}:changes``  hash ``<step>:<student>`` -> how often that answer changed
- ``sa:room:{CODE}:tally``    hash ``<step>:<answer>`` -> how many students gave it
- ``sa:room:{CODE}:joined``   hash ``<student>`` -> their number, 1, 2, 3… in the order they joined
- ``sa:room:{CODE}:answered`` hash ``<step>:<student>`` -> when that answer last changed

Every write is one Lua script (Redis runs a script alone: no answer is lost or counted
twice, and the student and change limits hold however many processes write at once), and
every key a script writes expires with the room (PEXPIRE to the room's ``expires_at``), so
Redis holds nothing after a room's lifetime. Whether a room has expired is also decided by
the store's ``clock`` (the tests move it), Redis's own expiry being the real cleanup.
Every script can run twice with the same outcome (an answer sent again is no change), so
the client's retry after a lost reply is harmless.
"""

from __future__ import annotations

import hmac
import math
import secrets
import time
from collections.abc import Callable, Sequence

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from . import model as _model
from .model import (
    CALL_TIMEOUT_S,
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
from .redis_scripts import ANSWER, CREATE, END, JOIN, MOVE, REVEAL

PREFIX = "sa:room:"
LIMIT_PREFIX = "sa:limit:"  # per client address (hashed) and window: how often it did a kind of thing
SUFFIXES = ("", ":students", ":answers", ":changes", ":tally", ":joined", ":answered")
# A call connects (at most CONNECT_TIMEOUT_S) and waits for its reply (at most
# SOCKET_TIMEOUT_S), never retried after a timeout: a hung Redis costs a page one bounded
# wait, then the message. A refused or broken connection (Redis restarted) is retried once at
# once, on a new connection: the store reconnects by itself.
CONNECT_TIMEOUT_S = 1.0
SOCKET_TIMEOUT_S = CALL_TIMEOUT_S - CONNECT_TIMEOUT_S - 0.5
RECONNECT_TRIES = 1


def room_keys(code: str) -> list[str]:
    """The room's keys: the room, its students, answers, changes and tally."""
    return [f"{PREFIX}{{{code}}}{suffix}" for suffix in SUFFIXES]


def _answer_text(answer: tuple[int, ...]) -> str:
    return ",".join(str(option) for option in answer)


def _answer_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(option) for option in text.split(",") if option)


class RedisStore:
    """Rooms in Redis (see the module's docstring): one client, thread-safe (its connection
    pool), shared by every session of the process."""

    def __init__(self, url: str, limits: Limits | None = None, clock: Callable[[], float] = time.time) -> None:
        self.url = url
        self.limits = limits or Limits.from_env()
        self.clock = clock
        retry = Retry(NoBackoff(), RECONNECT_TRIES, supported_errors=(redis.exceptions.ConnectionError,))
        self._redis = redis.Redis.from_url(
            url,
            decode_responses=True,
            socket_connect_timeout=CONNECT_TIMEOUT_S,
            socket_timeout=SOCKET_TIMEOUT_S,
            retry=retry,
            retry_on_timeout=False,
        )
        script = self._redis.register_script
        self._create, self._move, self._reveal = script(CREATE), script(MOVE), script(REVEAL)
        self._join, self._answer, self._end = script(JOIN), script(ANSWER), script(END)

    def _now(self) -> float:
        return float(self.clock())

    # -- the teacher ---------------------------------------------------------------------------
    def create(self, step: int = 1) -> tuple[str, str]:
        self._check_step(step)
        key = secrets.token_urlsafe(_model.KEY_BYTES)
        while True:
            code = _model.new_code()  # through the module: a test may fix the codes
            now = self._now()
            expires_at = now + self.limits.ttl_s
            made = self._create(keys=room_keys(code), args=[repr(now), key_hash(key), step, repr(expires_at)])
            if made == 1:
                return code, key

    def state(self, code: str) -> RoomState | None:
        if not _is_code(code):
            return None
        return self._state(code, self._redis.hgetall(room_keys(code)[0]))

    def is_teacher(self, code: str, key: str) -> bool:
        if not isinstance(key, str) or not key or not _is_code(code):
            return False
        stored, expires_at = self._redis.hmget(room_keys(code)[0], ["key_hash", "expires_at"])
        return stored is not None and self._live(expires_at) and hmac.compare_digest(stored, key_hash(key))

    def move(self, code: str, key: str, step: int) -> RoomState:
        return self._teacher(self._move, code, key, step)

    def reveal(self, code: str, key: str, step: int) -> RoomState:
        return self._teacher(self._reveal, code, key, step)

    def end(self, code: str, key: str) -> None:
        if not _is_code(code):
            raise RoomError("no_room")
        given = key_hash(key) if isinstance(key, str) and key else ""
        self._outcome(self._end(keys=room_keys(code), args=[repr(self._now()), given]))

    # -- students --------------------------------------------------------------------------------
    def join(self, code: str, student: str) -> None:
        if not is_student_id(student):
            raise RoomError("bad_answer")
        if not _is_code(code):
            raise RoomError("no_room")
        keys = room_keys(code)
        self._outcome(self._join(keys=keys, args=[repr(self._now()), student, self.limits.students]))

    def answer(self, code: str, step: int, student: str, answer: Sequence[int]) -> None:
        self._check_step(step)
        picked = checked_answer(answer, self.limits)
        if not is_student_id(student):
            raise RoomError("bad_answer")
        if not _is_code(code):
            raise RoomError("no_room")
        args = [
            repr(self._now()),
            student,
            self.limits.students,
            step,
            _answer_text(picked),
            self.limits.changes_per_step,
        ]
        self._outcome(self._answer(keys=room_keys(code), args=args))

    def answer_of(self, code: str, step: int, student: str) -> tuple[int, ...] | None:
        if not _is_code(code) or type(step) is not int or not is_student_id(student):
            return None
        keys = room_keys(code)
        expires_at, text = self._read(
            lambda p: p.hget(keys[0], "expires_at"), lambda p: p.hget(keys[2], f"{step}:{student}")
        )
        return _answer_tuple(text) if text is not None and self._live(expires_at) else None

    def tally(self, code: str, step: int) -> Tally:
        if not _is_code(code) or type(step) is not int:
            return Tally(0, {})
        keys = room_keys(code)
        expires_at, counts = self._read(lambda p: p.hget(keys[0], "expires_at"), lambda p: p.hgetall(keys[4]))
        if not self._live(expires_at):
            return Tally(0, {})
        prefix = f"{step}:"
        by_answer = {
            _answer_tuple(field.removeprefix(prefix)): int(n)
            for field, n in counts.items()
            if field.startswith(prefix) and int(n) > 0
        }
        return Tally(sum(by_answer.values()), by_answer)

    def record(self, code: str, key: str) -> list[AnswerRecord]:
        if self.state(code) is None:
            raise RoomError("no_room")
        if not self.is_teacher(code, key):
            raise RoomError("not_teacher")
        keys = room_keys(code)
        members, room, answers, joined, answered = self._read(
            lambda p: p.smembers(keys[1]), *(lambda p, k=keys[i]: p.hgetall(k) for i in (0, 2, 5, 6))
        )
        # Every student who joined, answering or not, 1, 2, 3… in the order of joining (as
        # SQLiteStore's; a student joined before join numbers were kept comes after)
        everyone = set(members) | {field.split(":", 1)[1] for field in answers}
        order = sorted(everyone, key=lambda s: (int(joined.get(s, 1 << 30)), s))
        number = {student: n for n, student in enumerate(order, 1)}
        rows = []
        for field, text in answers.items():
            step, student = field.split(":", 1)
            opened, at = room.get(f"opened:{step}"), answered.get(field)
            seconds = seconds_after(float(opened) if opened else None, float(at) if at else None)
            rows.append(AnswerRecord(int(step), number[student], _answer_tuple(text), seconds))
        return sorted(rows, key=lambda row: (row.step, row.student))

    def students(self, code: str) -> int:
        if not _is_code(code):
            return 0
        keys = room_keys(code)
        expires_at, count = self._read(lambda p: p.hget(keys[0], "expires_at"), lambda p: p.scard(keys[1]))
        return int(count) if self._live(expires_at) else 0

    def has_student(self, code: str, student: str) -> bool:
        if not _is_code(code) or not is_student_id(student):
            return False
        keys = room_keys(code)
        expires_at, member = self._read(
            lambda p: p.hget(keys[0], "expires_at"), lambda p: p.sismember(keys[1], student)
        )
        return bool(member) and self._live(expires_at)

    def counted(self, kind: str, client: str, window_s: float, add: bool) -> int:
        now = self._now()
        window = window_start(now, window_s)
        key = f"{LIMIT_PREFIX}{kind}:{client}:{window:.0f}"
        if not add:
            return int(self._redis.get(key) or 0)
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.incr(key)
            pipe.pexpire(key, max(1, math.ceil((window + window_s - now) * 1000)))  # gone with its window
            return int(pipe.execute()[0])

    def close(self) -> None:
        self._redis.close()

    @property
    def lost(self) -> bool:
        return False  # Redis's own persistence decides (deploy/kubernetes.yaml)

    # -- helpers ---------------------------------------------------------------------------------
    def _check_step(self, step: int) -> None:
        if type(step) is not int or not 1 <= step <= self.limits.steps:
            raise RoomError("bad_step")

    def _live(self, expires_at: str | None) -> bool:
        return expires_at is not None and float(expires_at) > self._now()

    def _read(self, *reads) -> list:
        """Several reads at one instant (MULTI/EXEC: no write of another client between)."""
        with self._redis.pipeline(transaction=True) as pipe:
            for read in reads:
                read(pipe)
            return pipe.execute()

    def _state(self, code: str, fields: dict[str, str]) -> RoomState | None:
        if not self._live(fields.get("expires_at")):
            return None
        revealed = frozenset(int(name.removeprefix("revealed:")) for name in fields if name.startswith("revealed:"))
        return RoomState(code, int(fields["step"]), revealed, int(fields["version"]), float(fields["expires_at"]))

    def _teacher(self, script, code: str, key: str, step: int) -> RoomState:
        self._check_step(step)
        if not _is_code(code):
            raise RoomError("no_room")
        given = key_hash(key) if isinstance(key, str) and key else ""
        reply = script(keys=room_keys(code)[:1], args=[repr(self._now()), given, step])
        if reply[0] != "ok":
            raise RoomError(reply[0])
        state = self._state(code, dict(zip(reply[1::2], reply[2::2], strict=True)))
        if state is None:  # expired by the clock between the script and now
            raise RoomError("no_room")
        return state

    @staticmethod
    def _outcome(reply: str) -> None:
        if reply != "ok":
            raise RoomError(reply)


def _is_code(code: object) -> bool:
    """Whether ``code`` can name a room (anything else names none, and never reaches a key)."""
    return isinstance(code, str) and _model.normalise_code(code) == code
