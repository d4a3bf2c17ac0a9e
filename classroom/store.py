"""Opening the configured room store (``ROOM_STORE``), once per process: the SQLite file by
default, or Redis. What a room is, and the stores' interface, is ``model.py``."""

from __future__ import annotations

import os
import threading

from .model import STORE_ENV, Limits, RoomStore
from .redis_store import RedisStore
from .sqlite_store import SQLiteStore

_STORE: RoomStore | None = None
_STORE_LOCK = threading.Lock()


def open_store(spec: str | None = None, limits: Limits | None = None) -> RoomStore:
    """The store ``spec`` names (default ``$ROOM_STORE``): ``redis://…`` or ``rediss://…``
    for Redis, ``sqlite:///path`` for a SQLite file, nothing for the default SQLite file."""
    spec = os.environ.get(STORE_ENV, "") if spec is None else spec
    if spec.startswith(("redis://", "rediss://", "unix://")):
        return RedisStore(spec, limits=limits)
    if spec.startswith("sqlite:///"):
        return SQLiteStore(spec.removeprefix("sqlite:///"), limits=limits)
    if spec:
        raise ValueError(f"{STORE_ENV} must start with sqlite:/// or redis:// (got {spec!r})")
    return SQLiteStore(limits=limits)


def shared_store() -> RoomStore:
    """This process's store, opened once (every session of the process shares it)."""
    global _STORE
    with _STORE_LOCK:
        if _STORE is None:
            _STORE = open_store()
        return _STORE


def reset_shared_store() -> None:
    """Forget this process's store (tests that change ``ROOM_STORE``)."""
    global _STORE
    with _STORE_LOCK:
        if _STORE is not None:
            _STORE.close()
        _STORE = None
