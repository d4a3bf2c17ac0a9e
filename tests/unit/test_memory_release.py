"""Memory goes back to the system: glibc's mmap threshold fixed (only on glibc), and a trim
soon after a session's model is freed (ui/memory.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from ui import memory

ROOT = Path(__file__).resolve().parents[2]
TRIM_TIMEOUT_S = 30.0  # generous: the janitor waits 0.05 s here, a busy machine may add more


class _FakeLibc:
    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def mallopt(self, param, value) -> int:
        self.calls.append((param.value, value.value))
        return 1

    def malloc_trim(self, pad) -> int:
        return 1


@pytest.fixture
def fake_libc(monkeypatch):
    libc = _FakeLibc()
    monkeypatch.setattr(memory.ctypes, "CDLL", lambda name: libc)
    return libc


def test_threshold_fixed_on_glibc(monkeypatch, fake_libc):
    monkeypatch.setattr(memory.platform, "libc_ver", lambda: ("glibc", "2.36"))
    assert memory.fix_mmap_threshold()
    assert fake_libc.calls == [(memory.M_MMAP_THRESHOLD, memory.MMAP_THRESHOLD_BYTES)]


@pytest.mark.parametrize("libc", [("", ""), ("musl", "1.2"), ("libc", "")])
def test_no_mallopt_elsewhere(monkeypatch, fake_libc, libc):
    monkeypatch.setattr(memory.platform, "libc_ver", lambda: libc)
    assert not memory.fix_mmap_threshold()
    assert not memory.malloc_trim()
    assert fake_libc.calls == []


def test_no_mallopt_when_libc_lacks_it(monkeypatch):
    monkeypatch.setattr(memory.platform, "libc_ver", lambda: ("glibc", "2.36"))
    monkeypatch.setattr(memory.ctypes, "CDLL", lambda name: object())  # no mallopt, no malloc_trim
    assert not memory.fix_mmap_threshold()
    assert not memory.malloc_trim()


class _Model:
    """Stands for a TrainedModel: an object that takes weak references."""


def test_janitor_trims_after_the_model_is_freed():
    trimmed = threading.Event()
    janitor = memory.Janitor(trim=trimmed.set, delay=0.05)
    models = [_Model() for _ in range(3)]
    for model in models:
        janitor.watch(model)
    assert not trimmed.wait(0.3)  # nothing freed yet
    del model
    models.clear()  # the last references: many releases, one trim
    assert trimmed.wait(TRIM_TIMEOUT_S)


def test_janitor_trims_again_after_a_later_release():
    trims = [threading.Event(), threading.Event()]
    janitor = memory.Janitor(trim=lambda: next(event for event in trims if not event.is_set()).set(), delay=0.05)
    first, later = _Model(), _Model()
    janitor.watch(first)
    janitor.watch(later)
    del first
    assert trims[0].wait(TRIM_TIMEOUT_S)
    del later
    assert trims[1].wait(TRIM_TIMEOUT_S)


def test_trained_models_are_watched(monkeypatch):
    from ui.shared import models

    watched = []
    monkeypatch.setattr(models.JANITOR, "watch", watched.append)
    trained = models.TrainedModel(model=None, vocabulary=None, corpus="c", corpus_sha256="", run=None)
    assert watched == [trained]


RSS_PROBE = r"""
import gc, json, torch
from ui.memory import fix_mmap_threshold

def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

FIX = True
torch.set_num_threads(1)
fixed = fix_mmap_threshold() if FIX else False
start = rss_mb()
for _ in range(3):  # three rounds: after the first free glibc would raise a dynamic threshold
    pieces = [torch.ones((1 << 18) + 256 * i) for i in range(400)]  # ~480 MB in all, 1-1.4 MB each
    held = rss_mb()
    del pieces
    gc.collect()
print(json.dumps({"fixed": fixed, "start": start, "held": held, "after": rss_mb()}))
"""


@pytest.mark.skipif(not memory.is_glibc() or not Path("/proc/self/status").exists(), reason="glibc on Linux only")
def test_freed_tensors_go_back_to_the_system():
    done = subprocess.run(
        [sys.executable, "-c", RSS_PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    rss = json.loads(done.stdout.strip().splitlines()[-1])
    assert rss["fixed"]
    assert rss["held"] - rss["start"] > 400, rss  # the tensors were really there
    assert rss["after"] - rss["start"] < 100, rss
