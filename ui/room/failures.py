"""A store that fails fails on every tick of every open room page (a teacher's count redraws
every second): its log says so once per kind of failure per minute, with how many times it
happened since, instead of a traceback per tick. No Streamlit here."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

EVERY_S = 60.0
MESSAGE_CHARS = 200


class FailureLog:
    """Logs a failure the first time its kind (the error's type and where it happened) is
    seen, then at most once per ``every_s`` seconds, with the count of those not logged."""

    def __init__(
        self, logger: logging.Logger, every_s: float = EVERY_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.logger = logger
        self.every_s = every_s
        self.clock = clock
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._quiet: dict[str, int] = {}

    def failed(self, where: str, error: BaseException) -> bool:
        """Counts the failure; True when it was written to the log."""
        kind = f"{where}: {type(error).__name__}"
        now = self.clock()
        with self._lock:
            last = self._last.get(kind)
            if last is not None and now - last < self.every_s:
                self._quiet[kind] = self._quiet.get(kind, 0) + 1
                return False
            self._last[kind] = now
            since = self._quiet.pop(kind, 0)
        text = str(error).replace("\n", " ")[:MESSAGE_CHARS]
        self.logger.warning(
            "%s failed: %s (%s); %d more like it in the last %g s",
            where,
            type(error).__name__,
            text,
            since,
            self.every_s,
        )
        return True
