"""A profile of the page's own runs, for finding where a rerun's server time goes: with the
environment variable ``ATTENTION_PROFILE`` naming a file, ``profiled`` runs its block under
cProfile, timed by the thread's CPU clock (a busy machine's waits for a core are left out),
and after each run writes every run so far to that file (``pstats`` reads it:
``python -m pstats FILE``); deleting the file starts the sum again (after a warm-up). Unset (always, outside a benchmark), ``profiled`` only runs
its block: no profiler made, no file touched.

Streamlit's own run around the page and its event loop's send (serializing, compressing
and writing the messages, another thread) are not in it; `py-spy record` sees those.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

ENV = "ATTENTION_PROFILE"
PROFILE_PATH = os.environ.get(ENV) or None  # read once: the server's environment is fixed at start

_lock = threading.Lock()
_runs: list[pstats.Stats] = []  # the runs since the file was made, summed (one entry)


@contextmanager
def profiled() -> Iterator[None]:
    """Its block, profiled and added to the file when the profile is on."""
    if PROFILE_PATH is None:
        yield
        return
    profile = cProfile.Profile(time.thread_time)
    profile.enable()
    try:
        yield
    finally:
        profile.disable()
        with _lock:
            if _runs and os.path.exists(PROFILE_PATH):
                _runs[0].add(profile)
            else:
                _runs[:] = [pstats.Stats(profile)]
            _runs[0].dump_stats(PROFILE_PATH)
