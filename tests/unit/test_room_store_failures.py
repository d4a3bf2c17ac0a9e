"""Rooms' stores when what holds them fails: a hung Redis (its process stopped with SIGSTOP)
costs each call 3 s at most, then answers again once it wakes; a Redis stopped and started
again is reconnected without reopening the store; a SQLite file locked by a writer that never
finishes costs a write 3 s at most; a SQLite file removed under the store is made again, seen
by every thread and process, and the store says its rooms were lost."""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
import time

import pytest
import redis

from classroom.redis_store import RedisStore
from classroom.sqlite_store import SQLiteStore
from harness.redis_server import need_redis_server, start_redis_server, stop_redis_server

from .room_stores import DEFAULTS, sid

BOUND_S = 3.0  # the bound on one store call, then the message in its place


@pytest.fixture
def redis_process(tmp_path):
    need_redis_server()
    server = start_redis_server(tmp_path / "redis")
    yield server
    if server.process.poll() is None:
        os.kill(server.process.pid, signal.SIGCONT)
    stop_redis_server(server)


def _timed(call) -> tuple[float, BaseException | None]:
    start = time.monotonic()
    try:
        call()
    except Exception as error:  # noqa: BLE001 - the test reads what was raised
        return time.monotonic() - start, error
    return time.monotonic() - start, None


def test_a_hung_redis_costs_each_call_3_s_at_most_and_answers_again_once_it_wakes(redis_process):
    store = RedisStore(redis_process.url, DEFAULTS)
    try:
        code, key = store.create()
        store.answer(code, 1, sid(1), [0])
        os.kill(redis_process.process.pid, signal.SIGSTOP)  # hung: connections open, no reply
        calls = {
            "state": lambda: store.state(code),
            "tally": lambda: store.tally(code, 1),
            "answer": lambda: store.answer(code, 1, sid(2), [1]),
            "move": lambda: store.move(code, key, 2),
            "create": lambda: store.create(),
        }
        for name, call in calls.items():
            took, error = _timed(call)
            assert isinstance(error, redis.RedisError), f"{name}: {error!r}"
            assert took <= BOUND_S, f"{name} waited {took:.1f} s for a hung Redis"
        os.kill(redis_process.process.pid, signal.SIGCONT)
        assert store.state(code) is not None and store.tally(code, 1).answered >= 1, "the same store answers again"
    finally:
        store.close()


def test_a_redis_stopped_and_started_again_is_reconnected_without_reopening_the_store(redis_process, tmp_path):
    store = RedisStore(redis_process.url, DEFAULTS)
    try:
        store.create()
        stop_redis_server(redis_process)
        took, error = _timed(store.create)
        assert isinstance(error, redis.RedisError) and took <= BOUND_S, (took, error)
        again = start_redis_server(tmp_path / "redis", port=redis_process.port)
        try:
            code, key = store.create()  # the store's pool held connections to the stopped server
            assert store.is_teacher(code, key) and store.state(code).step == 1
        finally:
            stop_redis_server(again)
    finally:
        store.close()


def test_a_locked_sqlite_file_costs_a_write_3_s_at_most(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    store = SQLiteStore(path, DEFAULTS)
    code, _ = store.create()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process's writer that never finishes
    try:
        took, error = _timed(lambda: store.answer(code, 1, sid(1), [0]))
        assert isinstance(error, sqlite3.OperationalError) and took <= BOUND_S, (took, error)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        store.close()
    assert SQLiteStore(path, DEFAULTS).state(code) is not None, "the room is still there"


def _in_thread(call):
    """``call`` from another thread (Streamlit runs each session in its own): its result or
    the error it raised."""
    out = {}

    def run():
        try:
            out["value"] = call()
        except Exception as error:  # noqa: BLE001 - the test reads what was raised
            out["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=60)
    if "error" in out:
        raise out["error"]
    return out["value"]


@pytest.mark.parametrize("leftovers", [False, True], ids=["file", "file-and-journal"])
def test_a_removed_sqlite_file_is_made_again_for_every_thread_and_process_and_the_rooms_are_said_lost(
    tmp_path, leftovers
):
    path = tmp_path / "rooms.sqlite3"
    store = SQLiteStore(path, DEFAULTS)
    try:
        old, _ = store.create()
        store.answer(old, 1, sid(1), [0])
        assert not store.lost
        doomed = [path, *(path.with_name(path.name + s) for s in ("-wal", "-shm"))] if leftovers else [path]
        for file in doomed:
            file.unlink(missing_ok=True)
        code, key = _in_thread(store.create)  # a session's thread that had no connection yet
        made_here, _ = store.create()  # the thread whose connection held the removed file
        assert store.state(old) is None and store.lost, "the rooms are gone, and the store says so"
        other = SQLiteStore(path, DEFAULTS)  # another process, on the file now at the path
        try:
            assert other.is_teacher(code, key) and other.state(made_here) is not None
        finally:
            other.close()
        assert _in_thread(lambda: store.state(made_here)) is not None
    finally:
        store.close()
