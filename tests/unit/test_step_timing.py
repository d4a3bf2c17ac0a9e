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
