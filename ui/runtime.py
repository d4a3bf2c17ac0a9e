"""Process-wide settings, made once when the server runs its first page (every page's
shell calls ``configure_process``), never as a side effect of importing a module."""

from __future__ import annotations

import threading

import torch

# Each session computes with one thread: many students' sessions (threads of one server
# process) and the trainings (one slot per core) then share the cores instead of
# oversubscribing them.
TORCH_THREADS = 1

_configured = threading.Event()
_lock = threading.Lock()


def configure_process() -> None:
    """Set the process-wide torch settings; later calls do nothing."""
    if _configured.is_set():
        return
    with _lock:
        if not _configured.is_set():
            torch.set_num_threads(TORCH_THREADS)
            _configured.set()
