"""Results every session of a server process shares, by a key that names everything they
depend on: a computation or a figure is made once, however many students ask for it at
the same moment (the others wait for that one), and the least recently used are dropped
beyond a bound. Values are only read once made: never change one that was handed out."""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")
MISSING = object()
WAIT_POLL_S = 1.0  # a wait for another thread's result looks again this often
_ALL: weakref.WeakSet[SharedResults] = weakref.WeakSet()


def clear_all() -> None:
    """Forget every shared result of this process (tests start each case as a fresh server)."""
    for results in list(_ALL):
        results.clear()


class SharedResults(Generic[Value]):
    """A bounded, thread-safe memo: at most ``max_entries`` values and ``max_bytes`` of
    them (as ``size`` counts one; no byte bound without it)."""

    def __init__(
        self, max_entries: int, max_bytes: int | None = None, size: Callable[[Value], int] | None = None
    ) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._size = size or (lambda value: 0)
        self._entries: OrderedDict[Hashable, tuple[Value, int]] = OrderedDict()
        self._making: dict[Hashable, threading.Event] = {}
        self._lock = threading.Lock()
        self.bytes = 0
        self.made = 0  # values computed (a measure of sharing: made / asked)
        self.asked = 0
        _ALL.add(self)

    def __len__(self) -> int:
        return len(self._entries)

    def peek(self, key: Hashable):
        """The value kept for ``key``, or MISSING (nothing is computed)."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return MISSING
            self._entries.move_to_end(key)
            return entry[0]

    def get(self, key: Hashable, make: Callable[[], Value]) -> Value:
        """The value for ``key``: kept, being made by another thread (then waited for), or
        made here by ``make()``. An exception in ``make`` is raised here and nothing is
        kept: a thread that was waiting for it makes the value itself."""
        with self._lock:
            self.asked += 1
        while True:
            with self._lock:
                entry = self._entries.get(key)
                if entry is not None:
                    self._entries.move_to_end(key)
                    return entry[0]
                making = self._making.get(key)
                if making is None:
                    making = self._making[key] = threading.Event()
                    break
            making.wait(WAIT_POLL_S)
        try:
            value = make()
        except BaseException:
            with self._lock:
                del self._making[key]
            making.set()
            raise
        with self._lock:
            self._keep(key, value)
            del self._making[key]
            self.made += 1
        making.set()
        return value

    def _keep(self, key: Hashable, value: Value) -> None:
        size = self._size(value)
        if self.max_bytes is not None and size > self.max_bytes:
            return  # larger than the whole bound: handed out, not kept
        self._entries[key] = (value, size)
        self.bytes += size
        while len(self._entries) > self.max_entries or (self.max_bytes is not None and self.bytes > self.max_bytes):
            _, (_, dropped) = self._entries.popitem(last=False)
            self.bytes -= dropped

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0
