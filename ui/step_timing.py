"""Where a rerun's server time goes, for the roundtrip benchmark: with the environment
variable ``ATTENTION_STEP_TIMES`` naming a file, ``timed`` appends one line per timed step
(``step<TAB>seconds``) to it; unset (always, outside the benchmark), ``timed`` only calls
its work: no clock read, no file touched.

The steps: ``trace`` (gpt_core, on a trace cache miss), ``figures`` (a builder's dicts, and
the panel plans a page reads to place a chart),
``description`` (a chart's numbers and words for its alt text; a table's numbers written out), ``serialization`` (a
figure to the dicts sent, and Streamlit's element with its JSON).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TypeVar

ENV = "ATTENTION_STEP_TIMES"
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
        seconds = time.perf_counter() - start
        with open(LOG_PATH, "a", encoding="utf-8") as log:
            log.write(f"{step}\t{seconds:.6f}\n")


def read_steps(path: str) -> dict[str, float]:
    """The log's milliseconds summed by step."""
    totals: dict[str, float] = {}
    with open(path, encoding="utf-8") as log:
        for line in log:
            step, seconds = line.rstrip("\n").split("\t")
            totals[step] = totals.get(step, 0.0) + float(seconds) * 1000
    return totals
