"""What a class's room is, whatever store holds it: its code, the teacher's key (stored as a hash), the step the
teacher is on, which steps are revealed, and each student's answer to each step, with the
times the teacher opened each step and each answer last changed, and the order students
joined in. Nothing else: no names, no text a student typed anywhere.

Every process serving the app must see the same room (behind nginx students land on
different processes), so a room lives outside the process: by default in a SQLite file
(WAL mode, shared by every process on one machine), or in Redis where a class outgrows one
machine (``ROOM_STORE=redis://host:6379/0``, see ``redis_store.py``). ``open_store()`` reads
``ROOM_STORE``: unset, or ``sqlite:///path/rooms.sqlite3``, or ``redis://…`` (``store.py``,
which opens the configured one). Here: the stores' interface (``RoomStore``), the room's
state, its limits, codes and ids; the SQLite and Redis stores import this, never each other.

No Streamlit here: the pages, the benchmark and the tests use the same store.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

LOG = logging.getLogger(__name__)
STORE_ENV = "ROOM_STORE"
TTL_ENV = "ROOM_TTL_HOURS"  # how long a room lives after it is made (default 24 h)
STUDENTS_ENV = "ROOM_MAX_STUDENTS"
JOINS_ENV = "ROOM_JOINS_PER_MINUTE"
HOUR_S, MINUTE_S = 3600.0, 60.0
DEFAULT_TTL_S = 24 * 3600.0
# The lesson's steps (ui/lesson/steps.py; tests/apptest/test_room.py holds them equal): a room
# takes no other step.
LESSON_STEPS = 11
# The longest one store call may take before it gives up (a hung Redis, a locked file): the
# page then says the store failed in the room's place instead of freezing.
CALL_TIMEOUT_S = 3.0

# Codes a student types from the projector: no look-alikes (0/O/Q/D, 1/I/L, 2/Z, 5/S, 8/B,
# U/V, 6/G): 19 symbols, 8 of them: 19^8 ≈ 2^34 codes.
CODE_ALPHABET = "ACEFHJKMNPRTWXY3479"
CODE_LENGTH = 8
KEY_BYTES = 16  # the teacher's key: 128 bits, URL-safe
STUDENT_ID_BYTES = 9  # a student's anonymous id: 72 bits
STUDENT_ID_CHARS = 12  # secrets.token_urlsafe(9) is 12 characters


class RoomError(Exception):
    """A room refuses something; ``reason`` keys the message a page shows (``room.error.*``):
    ``no_room`` (a made-up or expired code), ``not_teacher``, ``full``, ``too_many_changes``,
    ``revealed`` (the answer is shown: answers are closed), ``bad_answer``, ``bad_step``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Limits:
    """A room's limits: how many students, how many times a student may change one step's
    answer, how many options one answer may pick and how large an option index may be, how
    many steps a room has, and how long it lives."""

    students: int = 500
    changes_per_step: int = 30
    picks: int = 16
    option_index: int = 63
    steps: int = LESSON_STEPS
    ttl_s: float = DEFAULT_TTL_S
    # Per client address (one school behind one address is one client: raise ``joins`` for
    # it, ROOM_JOINS_PER_MINUTE): rooms made per hour, students new to a room per minute,
    # codes tried that name no room per minute.
    rooms_per_hour: int = 20
    joins_per_minute: int = 150
    guesses_per_minute: int = 20

    @classmethod
    def from_env(cls, env: dict | None = None) -> Limits:
        """The limits a host set (``ROOM_TTL_HOURS``, ``ROOM_MAX_STUDENTS``,
        ``ROOM_JOINS_PER_MINUTE``); a value that is not a positive number keeps the default,
        with a warning in the log."""
        env = os.environ if env is None else env
        limits = cls()
        hours = _positive(env, TTL_ENV, float)
        if hours is not None:
            limits = cls(**{**limits.__dict__, "ttl_s": hours * 3600.0})
        for name, field_name in ((STUDENTS_ENV, "students"), (JOINS_ENV, "joins_per_minute")):
            value = _positive(env, name, int)
            if value is not None:
                limits = cls(**{**limits.__dict__, field_name: value})
        return limits


def _positive(env, name: str, kind: type) -> float | int | None:
    raw = env.get(name)
    if not raw:
        return None
    try:
        value = kind(raw)
    except ValueError:
        value = None
    if value is None or not 0 < value < float("inf"):
        LOG.warning("%s=%r is not a positive number: the default is kept", name, raw)
        return None
    return value


@dataclass(frozen=True)
class RoomState:
    """What every screen of a room follows: the teacher's step, the revealed steps, and a
    version that grows with every change the teacher makes (a screen that saw version v and
    reads v again has nothing to redraw)."""

    code: str
    step: int
    revealed: frozenset[int]
    version: int
    expires_at: float


@dataclass(frozen=True)
class Tally:
    """One step's answers: how many students answered, and how many chose each answer (an
    answer is a tuple of option indices: one for a single choice, several for a multiselect),
    and how many chose each option."""

    answered: int
    by_answer: dict[tuple[int, ...], int] = field(default_factory=dict)

    def by_option(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for answer, n in self.by_answer.items():
            for option in answer:
                counts[option] = counts.get(option, 0) + n
        return counts


@dataclass(frozen=True)
class AnswerRecord:
    """One answer as the teacher's record holds it: the step, the student's number in the room
    (1, 2, 3… in the order students joined, never their id), the option indices picked, and
    the seconds from the step's first opening to the answer's last change (None when the
    room holds no opening time for the step, a room made before times were kept, or when
    the answer last changed before the step opened)."""

    step: int
    student: int
    answer: tuple[int, ...]
    seconds: float | None


def seconds_after(opened: float | None, answered: float | None) -> float | None:
    """Seconds from a step's opening to an answer, rounded to tenths; None when either is
    unknown, or when the answer came before the step opened (a student at their own pace,
    ahead of the teacher: no time after an opening to tell)."""
    if opened is None or answered is None or answered < opened:
        return None
    return round(answered - opened, 1)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(raw: object) -> str | None:
    """A code as typed or linked (any case, spaces or dashes between groups) in its stored
    form, or None when it cannot be one (wrong length or a symbol codes never use)."""
    if not isinstance(raw, str):
        return None
    code = "".join(ch for ch in raw.upper() if ch not in " -\t")
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


# Characters that reorder the text around them (embeddings, overrides, isolates, marks): a
# link's ``room=`` echoed with one could show a code other than the one typed.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def without_bidi(text: str) -> str:
    """``text`` without the characters that reorder text (``BIDI_CONTROLS``)."""
    return "".join(ch for ch in text if ch not in BIDI_CONTROLS)


def shown_code(code: str) -> str:
    """The code as a projector shows it: two groups of four."""
    return f"{code[:4]}-{code[4:]}"


def new_student_id() -> str:
    return secrets.token_urlsafe(STUDENT_ID_BYTES)


def is_student_id(raw: object) -> bool:
    return (
        isinstance(raw, str)
        and len(raw) == STUDENT_ID_CHARS
        and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in raw)
    )


def client_hash(address: str) -> str:
    """What a store keeps of a client's address for its limits: not the address."""
    return hashlib.sha256(("sa-client:" + address).encode("utf-8")).hexdigest()[:24]


def window_start(now: float, window_s: float) -> float:
    return now - now % window_s


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def checked_answer(answer: Sequence[int], limits: Limits) -> tuple[int, ...]:
    """An answer as stored: distinct option indices in order, within the limits."""
    if isinstance(answer, (str, bytes)) or not isinstance(answer, Sequence) or len(answer) > 4 * limits.picks:
        raise RoomError("bad_answer")
    # Each element's type first: True == 1 == 1.0 would merge in a set.
    if any(type(i) is not int or not 0 <= i <= limits.option_index for i in answer):
        raise RoomError("bad_answer")
    picked = tuple(sorted(set(answer)))
    if len(picked) > limits.picks:
        raise RoomError("bad_answer")
    return picked


class RoomStore(Protocol):
    """What the pages ask of a room's store (SQLite or Redis, the same behaviour)."""

    limits: Limits

    def create(self, step: int = 1) -> tuple[str, str]:
        """A new room on ``step``: (its code, the teacher's key)."""

    def state(self, code: str) -> RoomState | None:
        """The room, or None when there is no such room or it has expired."""

    def is_teacher(self, code: str, key: str) -> bool: ...

    def move(self, code: str, key: str, step: int) -> RoomState: ...

    def reveal(self, code: str, key: str, step: int) -> RoomState: ...

    def end(self, code: str, key: str) -> None:
        """Ends the room at once: it and everything it held are gone (the teacher's key only)."""

    def join(self, code: str, student: str) -> None:
        """Counts a student in the room (once, however often they come back); ``full`` when
        the room has as many students as it allows."""

    def answer(self, code: str, step: int, student: str, answer: Sequence[int]) -> None:
        """Sets (or changes) the student's answer to ``step``, until the step is revealed."""

    def answer_of(self, code: str, step: int, student: str) -> tuple[int, ...] | None: ...

    def tally(self, code: str, step: int) -> Tally: ...

    def record(self, code: str, key: str) -> list[AnswerRecord]:
        """Every answer of the room, by step then student number (the teacher's key only)."""

    def students(self, code: str) -> int: ...

    def has_student(self, code: str, student: str) -> bool:
        """Whether the student is counted in the live room already."""

    def counted(self, kind: str, client: str, window_s: float, add: bool) -> int:
        """How often ``client`` (a hash of its address) did ``kind`` in this ``window_s``-long
        window (windows start at multiples of ``window_s``), after adding one when ``add``."""

    def close(self) -> None: ...

    @property
    def lost(self) -> bool:
        """Whether the rooms this store held were lost since it opened (its file removed)."""
