"""A lane for heavy work: at most a few at once in a server process, served in order of
arrival, each waiter told how many are ahead of it. Light reruns (a seed, a head, a stage)
never enter it, so a class opening heavy views at once cannot stall them: they share the
interpreter with the lane's few, not with every heavy request at once."""

from __future__ import annotations

import bisect
import itertools
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from string_table import t

from ..runtime import all_cores, count_setting, usable_cpus

# Heavy first opens computed at once per process (a trace of a new prompt, a real model's
# trace): one keeps the interpreter free for everyone else's light reruns.
HEAVY_LANES = count_setting("HEAVY_LANES", 1)
# Generations on the Train page at once per process (each has its own time limit): one per
# usable CPU, a container's CPU limit included.
GENERATION_LANES = count_setting("GENERATION_LANES", usable_cpus())
WAIT_POLL_S = 0.3  # how often a waiting page says how many are ahead
FIRST_SCREEN, REST_OF_PAGE = 0, 1  # priorities: what a student sees first goes first


class Lane:
    """A first-come, first-served semaphore of ``width`` places that knows its queue; a
    ticket of a lower ``priority`` number goes before every ticket of a higher one (a
    student's first screen before the rest of another student's page)."""

    def __init__(self, width: int) -> None:
        self.width = width
        self._waiting: list[tuple[int, int]] = []  # (priority, ticket), in the order served
        self._active = 0
        self._tickets = itertools.count()
        self._changed = threading.Condition()

    def ticket(self, priority: int = 0) -> int:
        """A place in the queue, taken now (leave() gives it back, entered or not)."""
        with self._changed:
            ticket = next(self._tickets)
            bisect.insort(self._waiting, (priority, ticket))
            return ticket

    def _index(self, ticket: int) -> int | None:
        for index, (_, queued) in enumerate(self._waiting):
            if queued == ticket:
                return index
        return None

    def enter(self, ticket: int, timeout: float) -> bool:
        """Wait up to ``timeout`` for the ticket's turn; True once it holds a place."""
        with self._changed:
            turn = self._changed.wait_for(
                lambda: self._active < self.width and self._waiting and self._waiting[0][1] == ticket, timeout
            )
            if not turn:
                return False
            self._waiting.pop(0)
            self._active += 1
            return True

    def ahead(self, ticket: int) -> int:
        """How many are served or queued before ``ticket``."""
        with self._changed:
            return self._active + (self._index(ticket) or 0)

    def exit(self) -> None:
        with self._changed:
            self._active -= 1
            self._changed.notify_all()

    def leave(self, ticket: int) -> None:
        """Give up a ticket still queued (a rerun interrupted its wait)."""
        with self._changed:
            index = self._index(ticket)
            if index is not None:
                del self._waiting[index]
                self._changed.notify_all()

    @property
    def queued(self) -> int:
        with self._changed:
            return len(self._waiting)


@st.cache_resource
def heavy_lane() -> Lane:
    return Lane(HEAVY_LANES)


@st.cache_resource
def generation_lane() -> Lane:
    """Generations' own lane (not the training slots): one per core by default."""
    return Lane(GENERATION_LANES)


@contextmanager
def heavy_turn(
    lang: str, lane: Lane | None = None, priority: int = FIRST_SCREEN, message: str = "lane.ahead"
) -> Iterator[None]:
    """Do the block's heavy work in the lane: at once when a place is free, else after a
    visible wait ("3 students ahead of you") that a rerun can interrupt."""
    lane = lane or heavy_lane()
    ticket = lane.ticket(priority)
    note = None
    try:
        entered = lane.enter(ticket, 0)
        while not entered:
            if note is None:
                note = st.empty()
            note.info(t(message, lang, n=lane.ahead(ticket)), icon=":material/hourglass_top:")
            entered = lane.enter(ticket, WAIT_POLL_S)
        if note is not None:
            note.empty()
        try:
            with all_cores():  # mostly torch, which lets go of the interpreter: any core
                yield
        finally:
            lane.exit()
    finally:
        lane.leave(ticket)
