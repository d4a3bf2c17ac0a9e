"""Process-wide settings, made once when the server runs its first page (every page's
shell calls ``configure_process``), never as a side effect of importing a module."""

from __future__ import annotations

import gc
import os
import socket
import threading

from gpt_core.reproduce import COMPUTE_THREADS, use_compute_threads

from .internals import asyncio_set_nodelay, replace_asyncio_set_nodelay
from .memory import fix_mmap_threshold

# Each session computes with one thread: many students' sessions (threads of one server
# process) and the trainings (one slot per core) then share the cores instead of
# oversubscribing them; and one fixed count keeps a link's numbers bit-identical
# (gpt_core/reproduce.py).
TORCH_THREADS = COMPUTE_THREADS
# Set to 1 to keep Streamlit's socket behaviour, only to measure the difference
# (benchmarks/roundtrip.py).
KEEP_NAGLE_ENV = "ATTENTION_KEEP_NAGLE"

ASYNCIO_SET_NODELAY = asyncio_set_nodelay()  # asyncio's own (None on a Python without it), for the tests
_configured = threading.Event()
_lock = threading.Lock()


def configure_process() -> None:
    """Set the process-wide settings; later calls do nothing."""
    if _configured.is_set():
        return
    with _lock:
        if not _configured.is_set():
            use_compute_threads()
            fix_mmap_threshold()  # freed tensors go back to the system (ui/memory.py)
            if os.environ.get(KEEP_NAGLE_ENV) != "1":
                disable_nagle()
            _configured.set()


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
