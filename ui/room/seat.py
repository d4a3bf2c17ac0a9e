"""This session's place in a class's room, read from the lesson's link:

- ``?room=new`` (any step, either language): the page makes a room and this session is its
  teacher; the link becomes ``?room=CODE&key=KEY`` (the key is the teacher's alone: reopened on
  another device, that device is the same teacher);
- ``?room=CODE``: a student: this browser, whose anonymous id the page keeps in a cookie
  (``student_id.py``), so a reload is the same student, counted once, and the link opened in
  another browser is another student (a ``me=`` an older link carries is ignored);
- ``?room=CODE&key=WRONG``: a student, with a note that the key is not this room's.

A mistyped or expired code gets a message and a way to the lesson on one's own; a store that
cannot be reached gets a message in the room's place, logged, and the lesson goes on alone.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from urllib.parse import urlencode

import streamlit as st

from classroom.model import (
    HOUR_S,
    MINUTE_S,
    RoomError,
    RoomState,
    RoomStore,
    client_hash,
    new_student_id,
    normalise_code,
    shown_code,
    without_bidi,
)
from classroom.store import shared_store
from links.lesson import KEY_PARAM, NEW_ROOM, ROOM_PARAM, ROOM_PARAMS
from string_table import DEFAULT_LANGUAGE, t

from ..markdown import literal
from ..page_state.state import shown_value
from .clients import client_address, trusted_proxies
from .failures import FailureLog
from .links import lesson_base, only_this_machine, public_url
from .student_id import browser_student, keep

LOG = logging.getLogger(__name__)

SEAT_STATE = "rm_seat"  # this session's (code, teacher key or None, student id or None)
ENDED_STATE = "rm_ended"  # the room this session's teacher ended
OWN_PACE_KEY = "rm_own_pace"
FAILURES = FailureLog(LOG)  # one line per kind of failure per minute, not a traceback per tick


@dataclass(frozen=True)
class Seat:
    code: str
    key: str | None  # the teacher's key when this session is the teacher
    student: str | None  # the student's anonymous id otherwise
    state: RoomState

    @property
    def teacher(self) -> bool:
        return self.key is not None

    @property
    def follows(self) -> bool:
        """A student whose page moves with the teacher's (not working at their own pace)."""
        return not self.teacher and not st.session_state.get(OWN_PACE_KEY, False)

    def query(self) -> dict[str, str]:
        """What the link keeps of the room: the code, and the teacher's key (a student is a
        browser, not a link)."""
        return {ROOM_PARAM: self.code, **({KEY_PARAM: self.key} if self.teacher else {})}


def store() -> RoomStore:
    return shared_store()


def store_failed(lang: str, error: Exception) -> None:
    """A store that cannot be reached (Redis down, a locked file): said in place, logged
    (once a minute for each kind of failure)."""
    FAILURES.failed("the room store", error)
    st.error(t("room.error.store", lang), icon=":material/cloud_off:")


def refused(error: RoomError, lang: str) -> None:
    hours = f"{store().limits.ttl_s / 3600:g}"
    st.warning(
        t(f"room.error.{error.reason}", lang, n=store().limits.students, hours=hours, code=""), icon=":material/info:"
    )


def _lesson_alone(lang: str) -> None:
    """A way to the lesson without the room (the page's own link, without its room)."""
    query = urlencode({"lang": lang}) if lang != DEFAULT_LANGUAGE else ""
    st.link_button(t("room.lesson_alone", lang), "lesson" + (f"?{query}" if query else ""), icon=":material/school:")


def _no_room(lang: str, reason: str, raw: str) -> None:
    if reason == "no_room" and getattr(store(), "lost", False):
        reason = "lost"  # not mistyped nor over: the store's file was removed under it
    hours = f"{store().limits.ttl_s / 3600:g}" if reason == "no_room" else ""
    shown = shown_value(without_bidi(raw))  # a code echoed as typed, never reordered
    st.warning(t(f"room.error.{reason}", lang, code=shown, hours=hours), icon=":material/meeting_room:")
    _lesson_alone(lang)
    st.stop()


def seat_from_link(lang: str, step: int) -> Seat | None:
    """This session's seat in the room its link names, or None (no room in the link, or a
    store that failed: then the lesson goes on alone). A bad or expired code stops the page
    after its message."""
    ss = st.session_state
    raw = st.query_params.get(ROOM_PARAM)
    held = ss.get(SEAT_STATE)
    if raw is not None and ss.get(ENDED_STATE) is not None and normalise_code(raw) == ss[ENDED_STATE]:
        st.success(t("room.ended", lang, code=shown_code(ss[ENDED_STATE])), icon=":material/logout:")
        _lesson_alone(lang)
        st.stop()
    if raw is None and held is None:
        return None
    try:
        if raw == NEW_ROOM and held is None:
            _count("rooms", HOUR_S, store().limits.rooms_per_hour)
            code, key = store().create(step)
            ss[SEAT_STATE] = (code, key, None)
            return Seat(code, key, None, store().state(code))
        if held is not None and (raw is None or raw == NEW_ROOM or normalise_code(raw) == held[0]):
            code, key, student = held  # another page and back, or a rerun: the same seat
            state = store().state(code)
            if state is None:
                ss.pop(SEAT_STATE, None)
                _no_room(lang, "no_room", shown_code(code))
            return Seat(code, key, student, state)
        return _sit(lang, raw)
    except RoomError as error:
        refused(error, lang)
        _lesson_alone(lang)
        st.stop()
    except Exception as error:  # noqa: BLE001 - the lesson must go on without its room
        store_failed(lang, error)
        return None


def _sit(lang: str, raw: str) -> Seat:
    """A seat from a link that names a room this session does not hold yet."""
    ss = st.session_state
    guesses = store().limits.guesses_per_minute
    if store().counted("guesses", _client(), MINUTE_S, add=False) >= guesses:
        raise RoomError("too_many_guesses")  # even a right code: guessing stops for a minute
    code = normalise_code(raw)
    state = None if code is None else store().state(code)
    if state is None:
        store().counted("guesses", _client(), MINUTE_S, add=True)
        if code is None:
            _no_room(lang, "bad_code", raw)
        _no_room(lang, "no_room", shown_code(code))
    key = st.query_params.get(KEY_PARAM)
    if key is not None and store().is_teacher(code, key):
        ss[SEAT_STATE] = (code, key, None)
        return Seat(code, key, None, state)
    if key is not None:
        st.info(t("room.not_teacher_note", lang), icon=":material/person:")
    student = browser_student() or new_student_id()  # this browser's: never an id from the link
    if not store().has_student(code, student):
        _count("joins", MINUTE_S, store().limits.joins_per_minute)
    store().join(code, student)
    keep(student, store().limits.ttl_s)  # the browser keeps its id: a reload is this student
    ss[SEAT_STATE] = (code, None, student)
    return Seat(code, None, student, state)


def _client() -> str:
    """This session's client for the limits: its address (a trusted proxy's word for it),
    hashed."""
    peer = st.context.ip_address
    headers = dict(st.context.headers or {})
    return client_hash(client_address(peer if isinstance(peer, str) else None, headers, trusted_proxies()))


def _count(kind: str, window_s: float, most: int) -> None:
    """Counts one more ``kind`` for this client; refused beyond ``most`` in the window."""
    if store().counted(kind, _client(), window_s, add=True) > most:
        raise RoomError(f"too_many_{kind}")


def link_query(seat: Seat | None) -> dict[str, str]:
    """What the page's link keeps of the room: the seat's, or, when the store failed and the
    page goes on without its room, the room's parameters as the link or this session had them
    (a reload, the natural reaction, then finds the room again; the teacher keeps the key)."""
    if seat is not None:
        return seat.query()
    held = st.session_state.get(SEAT_STATE)
    if held is not None:
        code, key, student = held
        return {ROOM_PARAM: code, **({KEY_PARAM: key} if key is not None else {})}
    return {name: st.query_params[name] for name in ROOM_PARAMS if name in st.query_params}


def moved(seat: Seat, step: int, lang: str) -> Seat:
    """The teacher's page is on ``step``: the room moves there (the students who follow
    move with it)."""
    if not seat.teacher or seat.state.step == step:
        return seat
    try:
        return replace(seat, state=store().move(seat.code, seat.key, step))
    except RoomError as error:
        refused(error, lang)
    except Exception as error:  # noqa: BLE001
        store_failed(lang, error)
    return seat


def student_link(code: str, lang: str) -> str:
    """The link students open: the lesson at ``PUBLIC_URL`` or at this page's address, with
    the room's code (and the language, when it is not the default)."""
    base = lesson_base(st.context.url)
    query = {ROOM_PARAM: code, **({"lang": lang} if lang != DEFAULT_LANGUAGE else {})}
    return f"{base}?{urlencode(query)}"


def link_for_this_machine_only() -> bool:
    """Whether the student link names this machine only (no PUBLIC_URL, a loopback address)."""
    return public_url() is None and only_this_machine(st.context.url)


def code_text(code: str) -> str:
    return literal(shown_code(code))
