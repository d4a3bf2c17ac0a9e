"""Where a rerun's server time goes, for the roundtrip benchmark: with the environment
variable ``ATTENTION_STEP_TIMES`` naming a file, ``timed`` appends one line per timed step
(``step<TAB>seconds``) to it; unset (always, outside the benchmark), ``timed`` only calls
its work: no clock read, no file touched.

The steps: ``trace`` (gpt_core, on a trace cache miss), ``figures`` (a builder's dicts, and
the panel plans a page reads to place a chart),
``description`` (a chart's numbers and words for its alt text; a table's numbers written out), ``serialization`` (a
figure to the dicts sent, and Streamlit's element with its JSON), all timed on the run's
thread by the clock; and ``send`` (``time_the_sends``: each websocket message's deflate and
socket write), timed on the server's event loop by that thread's CPU time: it runs between
the run's own steps, whenever the loop takes the interpreter, so it is part of their clock
time and not to be added to them (``LOOP_STEPS``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TypeVar

ENV = "ATTENTION_STEP_TIMES"
SEND = "send"
LOOP_STEPS = frozenset({SEND})  # timed on the event loop, inside the run's steps' clock time
LOG_PATH = os.environ.get(ENV) or None  # read once: the server's environment is fixed at start

Result = TypeVar("Result")


def timed(step: str, work: Callable[[], Result]) -> Result:
    """``work()``, its duration appended to the log as ``step`` when the log is on."""
    if LOG_PATH is None:
        return work()
    start = time.perf_counter()
    try:
        return work()
    finally:
        _log(step, time.perf_counter() - start)


def _log(step: str, seconds: float) -> None:
    with open(LOG_PATH, "a", encoding="utf-8") as log:
        log.write(f"{step}\t{seconds:.6f}\n")


def time_the_sends() -> bool:
    """With the log on, time each websocket message the server sends (Starlette's
    ``WebSocket.send_bytes``: the permessage-deflate and the socket write) as ``send``, in
    the event loop thread's CPU time (its clock time would count the waits for the
    interpreter while the run computes). Returns whether the sends are timed."""
    if LOG_PATH is None:
        return False
    from starlette.websockets import WebSocket

    send = WebSocket.send_bytes
    if getattr(send, "timed_as", None) == SEND:
        return True

    async def send_bytes(self: WebSocket, data: bytes) -> None:
        start = time.thread_time()
        try:
            await send(self, data)
        finally:
            _log(SEND, time.thread_time() - start)

    send_bytes.timed_as = SEND
    WebSocket.send_bytes = send_bytes
    return True


def read_steps(path: str) -> dict[str, float]:
    """The log's milliseconds summed by step."""
    totals: dict[str, float] = {}
    with open(path, encoding="utf-8") as log:
        for line in log:
            step, seconds = line.rstrip("\n").split("\t")
            totals[step] = totals.get(step, 0.0) + float(seconds) * 1000
    return totals
