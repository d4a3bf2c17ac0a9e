"""Process-wide settings, made once when the server runs its first page (every page's
shell calls ``configure_process``), never as a side effect of importing a module."""

from __future__ import annotations

import gc
import logging
import math
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gpt_core.reproduce import COMPUTE_THREADS, use_compute_threads

from .internals import asyncio_set_nodelay, deflate_at_level, replace_asyncio_set_nodelay, rerun_unknown_parts_in_full
from .memory import fix_mmap_threshold
from .step_timing import time_the_sends

# Each session computes with one thread: many students' sessions (threads of one server
# process) and the trainings (one slot per core) then share the cores instead of
# oversubscribing them; and one fixed count keeps a link's numbers bit-identical
# (gpt_core/reproduce.py).
TORCH_THREADS = COMPUTE_THREADS
# Set to 1 to keep Streamlit's socket behaviour, only to measure the difference
# (benchmarks/roundtrip.py).
KEEP_NAGLE_ENV = "ATTENTION_KEEP_NAGLE"

# zlib's level for the websocket's messages (the library's default is 6): a seed change's
# messages deflate in about half the time for about 3 % more bytes on the wire
# (benchmarks/roundtrip.py; docs/benchmarks.md "Lighter on the wire").
DEFLATE_LEVEL = 1
ASYNCIO_SET_NODELAY = asyncio_set_nodelay()  # asyncio's own (None on a Python without it), for the tests
# The core this process's interpreter threads run on: a number (deploy/cluster.py gives
# each process its own), "auto" (the default: one of the allowed cores, by process id) or
# "off" (every thread may run on every core; the tests' in-process pages use it).
CPU_ENV = "ATTENTION_CPU"
FREEZE_ENV = "ATTENTION_GC_FREEZE"  # "off": no gc.freeze() (``freeze_heap``)
_configured = threading.Event()
_lock = threading.Lock()
_all_cores: frozenset[int] | None = None  # the cores allowed before pinning; None: not pinned


def configure_process() -> None:
    """Set the process-wide settings; later calls do nothing."""
    if _configured.is_set():
        return
    with _lock:
        if not _configured.is_set():
            use_compute_threads()
            fix_mmap_threshold()  # freed tensors go back to the system (ui/memory.py)
            pin_interpreter(os.environ.get(CPU_ENV, "auto"))
            if os.environ.get(KEEP_NAGLE_ENV) != "1":
                disable_nagle()
            rerun_unknown_parts_in_full()  # a change in a part not drawn yet is not lost (ui/internals.py)
            deflate_at_level(DEFLATE_LEVEL)
            time_the_sends()  # only where the roundtrip benchmark's step log is on (ui/step_timing.py)
            freeze_heap()
            _configured.set()


def freeze_heap() -> None:
    """Leave the objects alive now (torch, Plotly, pandas, Streamlit and the app's modules:
    millions, kept for the process's life) out of the collector's full passes (``gc.freeze``).

    Python's collector otherwise walks every one of them in each full collection: with
    these libraries loaded such a pass took 100 to 380 ms, once every twenty or so seed
    changes, and a student whose change met it waited that long. Objects made later are
    collected as before; the frozen ones are never freed, as they never would have been.
    Called once the process is configured and again once it is warm (ui/warm.py).
    ``ATTENTION_GC_FREEZE=off`` leaves the collector as Python has it (the test suite's own
    process, where pages run beside tests that expect their objects collected)."""
    if os.environ.get(FREEZE_ENV) == "off":
        return
    gc.collect()  # what is already garbage is freed first, not frozen
    gc.freeze()


def _is_tcp(sock: socket.socket) -> bool:
    return sock.family in (socket.AF_INET, socket.AF_INET6) and sock.type == socket.SOCK_STREAM


def set_nodelay(sock: socket.socket) -> None:
    """Send small writes at once (no Nagle) on a TCP socket; other sockets are left alone."""
    if _is_tcp(sock):
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:  # closed meanwhile, or a socket that does not take the option
            pass


def disable_nagle() -> None:
    """TCP_NODELAY on the server's websocket connections, present and future.

    Streamlit's server binds its own listening socket as ``socket.socket(family)``, whose
    ``proto`` is 0, and asyncio (Python 3.11-3.13) only sets TCP_NODELAY on connections whose
    proto is ``IPPROTO_TCP``. Without it, the small messages that end every run (the
    status, the last deltas, ``script_finished``) wait in the kernel for the browser's
    delayed ACK: 40 ms on Linux, up to 200 ms on Windows, on every click
    (``benchmarks/roundtrip.py`` measures it). asyncio calls ``base_events._set_nodelay``
    for each accepted connection, so connections accepted from now on get the option; the
    ones already open (and the listening socket) are set here.
    """
    replace_asyncio_set_nodelay(set_nodelay)  # a log line, and Nagle for new connections, if it is gone
    for obj in gc.get_objects():
        if issubclass(type(obj), socket.socket) and obj.fileno() != -1:  # type(): no __class__ lookups
            set_nodelay(obj)


def _chosen_core(setting: str, allowed: frozenset[int], usable: int | None = None) -> int | None:
    """The core ``setting`` names among ``allowed``, or None: do not pin. ``usable`` is the CPUs
    a container's limit leaves (``usable_cpus``): where it is fewer than the allowed cores, the
    process shares the machine's cores with other containers, whose servers often have the same
    process id (1 in a container), and "auto" would put them all on one core: it does not pin."""
    cores = sorted(allowed)
    if setting == "off" or len(cores) < 2:
        return None
    if setting == "auto":
        if usable is not None and usable < len(cores):
            return None
        return cores[os.getpid() % len(cores)]
    try:
        return cores[int(setting) % len(cores)]
    except ValueError:
        return None  # not a number: as "off" (a wrong setting never stops the server)


def pin_interpreter(setting: str) -> int | None:
    """Run every thread of this process on one core (returns it), or None where pinning is
    off or there is one core. New threads inherit it from the thread that starts them.

    One interpreter runs Python on one core at a time (the GIL), but its threads, spread
    over several cores, hand the lock to each other slowly: each handoff wakes a thread on
    another core while the releasing one often takes the lock straight back. With 40
    students' reruns as threads of one process that convoy made a change wait 1-1.6 s at
    the 95th percentile; the same process on one core, 0.4-0.5 s
    (benchmarks/classroom.py, docs/hosting.md "A lecture hall"). Heavy numeric work (a training, a
    generation, a heavy first open) spends its time in torch without the lock and may use
    every core: ``all_cores()``."""
    global _all_cores
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = frozenset(os.sched_getaffinity(0))
    core = _chosen_core(setting, allowed, usable_cpus())
    if core is None:
        return None
    for task in os.listdir("/proc/self/task"):
        try:
            os.sched_setaffinity(int(task), {core})
        except OSError:  # a thread that ended meanwhile
            pass
    _all_cores = allowed
    return core


@contextmanager
def all_cores() -> Iterator[None]:
    """Let the calling thread run on every core the process was allowed while the block runs
    (torch's work releases the interpreter lock), then put it back on its core."""
    if _all_cores is None:
        yield
        return
    pinned = os.sched_getaffinity(0)
    os.sched_setaffinity(0, _all_cores)
    try:
        yield
    finally:
        os.sched_setaffinity(0, pinned)


def usable_cpus(cgroup: str | os.PathLike = "/sys/fs/cgroup") -> int:
    """How many CPUs this process can keep busy: the cores it may run on, capped by a
    container's CPU limit (cgroup v2 ``cpu.max``, or v1 ``cpu.cfs_quota_us`` over
    ``cpu.cfs_period_us``), rounded up as Kubernetes rounds ``limits.cpu``; at least 1.

    ``os.cpu_count()`` is the machine's count: in a pod limited to 2 CPUs on a 64-core node it
    says 64, and one training slot per "core" would then run 64 trainings on 2 CPUs' time."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    root = Path(cgroup)
    quota = period = None
    try:
        fields = (root / "cpu.max").read_text().split()
        if fields and fields[0] != "max":
            quota, period = int(fields[0]), int(fields[1]) if len(fields) > 1 else 100_000
    except (OSError, ValueError):
        try:
            quota = int((root / "cpu" / "cpu.cfs_quota_us").read_text())
            period = int((root / "cpu" / "cpu.cfs_period_us").read_text())
        except (OSError, ValueError):
            quota = period = None
    if quota is not None and period and quota > 0:
        cores = min(cores, math.ceil(quota / period))
    return max(1, cores)


def count_setting(name: str, default: int, env: dict | None = None) -> int:
    """A positive whole number from the environment (``TRAINING_SLOTS``, ``GENERATION_LANES``...);
    a value that is not one keeps ``default``, with a warning in the log: a wrong setting never
    stops the server."""
    raw = (os.environ if env is None else env).get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        logging.getLogger(__name__).warning("%s=%r is not a positive whole number: %d is used", name, raw, default)
        return default
    return value
