"""Giving memory back to the system once a session's model is gone.

A closed session's trained model is dropped when Streamlit forgets the session
(``server.disconnectedSessionTTL``), but glibc's malloc keeps what was freed unless told:

- its mmap threshold is dynamic: after a big mmap'd block is freed, glibc raises the
  threshold, and later big blocks (a model's weights, a training step's activations) come
  from the heap, where a free leaves the pages with the process. ``fix_mmap_threshold``
  sets the threshold once (which also turns the dynamic raising off): every block of
  128 KiB or more is then its own mapping, unmapped when freed;
- the small blocks' free pages stay in the arenas until ``malloc_trim``. A ``Janitor``
  collects garbage and trims a moment after a watched object (a session's TrainedModel)
  is freed, many frees in a row making one trim.

On a C library other than glibc (macOS, Windows, musl) all of this does nothing.
"""

from __future__ import annotations

import ctypes
import gc
import platform
import threading
import time
import weakref
from collections.abc import Callable

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter (malloc.h)
MMAP_THRESHOLD_BYTES = 128 * 1024  # glibc's default start, kept fixed
TRIM_DELAY_S = 2.0  # after a release, wait this long for more before trimming once


def is_glibc() -> bool:
    try:
        return platform.libc_ver()[0] == "glibc"
    except (OSError, ValueError):  # no executable to read the version from
        return False


def _libc() -> ctypes.CDLL | None:
    """This process's glibc, or None elsewhere."""
    if not is_glibc():
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt, libc.malloc_trim  # noqa: B018 (both there, or AttributeError)
    except (OSError, AttributeError):
        return None
    return libc


def fix_mmap_threshold(threshold: int = MMAP_THRESHOLD_BYTES) -> bool:
    """Serve every block of ``threshold`` bytes or more by its own mmap, for good; whether it was set."""
    libc = _libc()
    if libc is None:
        return False
    try:
        return libc.mallopt(ctypes.c_int(M_MMAP_THRESHOLD), ctypes.c_int(threshold)) == 1
    except Exception:  # a foreign libc's mallopt that misbehaves: keep its defaults
        return False


def malloc_trim() -> bool:
    """Return the free pages of every malloc arena to the system; whether any were."""
    libc = _libc()
    if libc is None:
        return False
    try:
        return libc.malloc_trim(ctypes.c_size_t(0)) == 1
    except Exception:
        return False


def _collect_and_trim() -> None:
    gc.collect()
    malloc_trim()


class Janitor:
    """Trims memory (``trim``, default: gc.collect then malloc_trim) ``delay`` seconds after a
    watched object is freed; the releases that come meanwhile are covered by the same trim.

    One daemon thread, started with the first ``watch``. A finalizer only sets an event: it
    may run in any thread, in the middle of a garbage collection."""

    def __init__(self, trim: Callable[[], object] = _collect_and_trim, delay: float = TRIM_DELAY_S) -> None:
        self._trim = trim
        self._delay = delay
        self._released = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def watch(self, obj: object) -> None:
        """Trim soon after ``obj`` is freed (it must take weak references)."""
        finalizer = weakref.finalize(obj, self._released.set)
        finalizer.atexit = False  # nothing to give back at exit
        self._start()

    def released(self) -> None:
        """Something big was freed: trim soon."""
        self._released.set()
        self._start()

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="memory-janitor", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            self._released.wait()
            time.sleep(self._delay)  # the releases meanwhile are covered by this one trim
            self._released.clear()
            try:
                self._trim()
            except Exception:  # a janitor never takes the server down
                pass


JANITOR = Janitor()
