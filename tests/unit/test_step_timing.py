"""The roundtrip benchmark's server-time hook: off unless its variable names a file, and
then one line per timed step."""

from __future__ import annotations

import builtins

import pytest

from ui import step_timing


def test_disabled_reads_no_clock_and_writes_nothing(monkeypatch, tmp_path):
    monkeypatch.setattr(step_timing, "LOG_PATH", None)

    def forbidden(*args, **kwargs):
        raise AssertionError("the disabled hook timed or logged")

    monkeypatch.setattr(step_timing.time, "perf_counter", forbidden)
    monkeypatch.setattr(builtins, "open", forbidden)
    assert step_timing.timed("trace", lambda: 42) == 42


def test_enabled_appends_each_step_and_sums_them(monkeypatch, tmp_path):
    log = tmp_path / "steps.tsv"
    monkeypatch.setattr(step_timing, "LOG_PATH", str(log))
    clock = iter([1.0, 1.25, 2.0, 2.5, 3.0, 3.125])
    monkeypatch.setattr(step_timing.time, "perf_counter", lambda: next(clock))
    assert step_timing.timed("trace", lambda: "t") == "t"
    step_timing.timed("figures", lambda: None)
    step_timing.timed("trace", lambda: None)
    assert log.read_text().splitlines() == ["trace\t0.250000", "figures\t0.500000", "trace\t0.125000"]
    assert step_timing.read_steps(str(log)) == {"trace": 375.0, "figures": 500.0}


def test_a_failing_step_is_still_logged_and_raises(monkeypatch, tmp_path):
    log = tmp_path / "steps.tsv"
    monkeypatch.setattr(step_timing, "LOG_PATH", str(log))

    def fails():
        raise ValueError("bad input")

    with pytest.raises(ValueError):
        step_timing.timed("trace", fails)
    assert log.read_text().startswith("trace\t")


class _Socket:
    """Starlette's WebSocket as far as its send_bytes: records what it was given."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []


async def _recorded(self: _Socket, data: bytes) -> None:
    self.sent.append(data)


def test_sends_are_not_touched_while_the_log_is_off(monkeypatch):
    from starlette.websockets import WebSocket

    monkeypatch.setattr(step_timing, "LOG_PATH", None)
    monkeypatch.setattr(WebSocket, "send_bytes", _recorded)
    assert step_timing.time_the_sends() is False
    assert WebSocket.send_bytes is _recorded


def test_with_the_log_on_each_send_is_logged_in_the_loop_threads_cpu_time(monkeypatch, tmp_path):
    import asyncio

    from starlette.websockets import WebSocket

    log = tmp_path / "steps.tsv"
    monkeypatch.setattr(step_timing, "LOG_PATH", str(log))
    monkeypatch.setattr(WebSocket, "send_bytes", _recorded)
    clock = iter([10.0, 10.002, 11.0, 11.0005])
    monkeypatch.setattr(step_timing.time, "thread_time", lambda: next(clock))
    assert step_timing.time_the_sends() is True
    assert step_timing.time_the_sends() is True, "a second call wraps nothing again"
    socket = _Socket()
    asyncio.run(WebSocket.send_bytes(socket, b"delta"))
    asyncio.run(WebSocket.send_bytes(socket, b"finished"))
    assert socket.sent == [b"delta", b"finished"], "the message itself still goes out"
    assert log.read_text().splitlines() == ["send\t0.002000", "send\t0.000500"]
    assert step_timing.read_steps(str(log)) == pytest.approx({"send": 2.5})


def test_the_benchmark_leaves_the_send_out_of_the_sum_it_takes_from_the_round_trip():
    from benchmarks.roundtrip import REST_STEP, SEND_ROW, step_medians

    steps = [
        {"trace": 4.0, "figures": 2.0, "send": 3.0},
        {"trace": 6.0, "figures": 2.0, "send": 5.0},
        {"trace": 5.0, "figures": 4.0, "send": 4.0},
    ]
    medians = step_medians(steps, [20.0, 30.0, 25.0])
    assert medians["trace"] == 5.0 and medians["figures"] == 2.0
    assert medians[REST_STEP] == 16.0, "20 - 6, 30 - 8, 25 - 9: the send is inside these, not beside"
    assert medians[SEND_ROW] == 4.0
    assert medians["round trip"] == 25.0
    assert SEND_ROW not in step_medians([{"trace": 1.0}], [2.0]), "no send row from a server that timed none"
