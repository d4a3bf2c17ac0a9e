"""A room's store that fails on every tick of every open page (a teacher's count redraws every
second) writes one log line per kind of failure per minute, without a traceback."""

from __future__ import annotations

import logging

import redis

from ui.room import seat
from ui.room.failures import FailureLog


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_store_failing_on_every_tick_logs_one_line_per_kind_per_minute_without_a_traceback(monkeypatch, caplog):
    clock = Clock()
    monkeypatch.setattr(seat, "FAILURES", FailureLog(seat.LOG, clock=clock))
    caplog.set_level(logging.INFO, logger=seat.LOG.name)
    for tick in range(1100):  # a teacher's count redraws every second: a minute of ticks on 18 pages
        clock.now = 1000.0 + tick * 59.0 / 1100
        seat.store_failed("en", redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379."))
    seat.store_failed("en", redis.TimeoutError("Timeout reading from socket"))
    logged = [r for r in caplog.records if r.name == seat.LOG.name]
    assert len(logged) == 2, [r.getMessage() for r in logged]
    assert all(r.exc_info is None and r.exc_text is None for r in logged), "no traceback"
    assert "ConnectionError" in logged[0].getMessage() and "TimeoutError" in logged[1].getMessage()
    clock.now += 61.0
    seat.store_failed("en", redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379."))
    logged = [r for r in caplog.records if r.name == seat.LOG.name]
    assert len(logged) == 3 and "1099 more" in logged[2].getMessage(), logged[-1].getMessage()
