"""The page-run profile: off unless its variable names a file; on, each run's functions are
added to that file."""

from __future__ import annotations

import builtins
import pstats

from ui import run_profile


def _work(n: int) -> int:
    return sum(i * i for i in range(n))


def test_off_makes_no_profiler_and_writes_nothing(monkeypatch):
    monkeypatch.setattr(run_profile, "PROFILE_PATH", None)

    def forbidden(*args, **kwargs):
        raise AssertionError("the profile that is off profiled or wrote")

    monkeypatch.setattr(run_profile.cProfile, "Profile", forbidden)
    monkeypatch.setattr(builtins, "open", forbidden)
    with run_profile.profiled():
        assert _work(10) == 285


def test_on_adds_each_run_to_the_file(monkeypatch, tmp_path):
    path = tmp_path / "page.prof"
    monkeypatch.setattr(run_profile, "PROFILE_PATH", str(path))
    monkeypatch.setattr(run_profile, "_runs", [])
    for _ in range(3):
        with run_profile.profiled():
            _work(1000)
    calls = {name: counts[1] for (_, _, name), counts in pstats.Stats(str(path)).stats.items()}
    assert calls["_work"] == 3


def test_a_run_that_raises_is_still_added(monkeypatch, tmp_path):
    path = tmp_path / "page.prof"
    monkeypatch.setattr(run_profile, "PROFILE_PATH", str(path))
    monkeypatch.setattr(run_profile, "_runs", [])
    try:
        with run_profile.profiled():
            _work(10)
            raise ValueError("a page that fails")
    except ValueError:
        pass
    calls = {name: counts[1] for (_, _, name), counts in pstats.Stats(str(path)).stats.items()}
    assert calls["_work"] == 1


def test_deleting_the_file_starts_the_sum_again(monkeypatch, tmp_path):
    path = tmp_path / "page.prof"
    monkeypatch.setattr(run_profile, "PROFILE_PATH", str(path))
    monkeypatch.setattr(run_profile, "_runs", [])
    for _ in range(2):
        with run_profile.profiled():
            _work(10)
    path.unlink()  # the warm-up is over
    with run_profile.profiled():
        _work(10)
    calls = {name: counts[1] for (_, _, name), counts in pstats.Stats(str(path)).stats.items()}
    assert calls["_work"] == 1
