from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from gpt_core.experiment import HEAD_COUNTS, StepTimes
from harness.charts import traces_by_name
from ui.first_screen import COMPONENT_KEY_PREFIX as FIRST_SCREEN_KEY
from ui.shared.shared_cache import clear_all

ROOT = Path(__file__).resolve().parents[2]
APPTEST_TIMEOUT_S = 60  # the first run imports torch


def asks_for_the_rest(at: AppTest) -> bool:
    """Whether the last run drew only the page's first screen (ui/first_screen.py) and
    asked the browser for the next run, which draws the rest."""
    return any(element.key and element.key.startswith(FIRST_SCREEN_KEY) for element in at.get("bidi_component"))


def open_page(script: str = "app.py", first_screen_only: bool = False, **query: str) -> AppTest:
    """Run ``script`` (a path relative to app.py) as a user opening it with ``query``; like
    the browser, run it again when the first run asked for the rest of the page (unless
    ``first_screen_only``)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=APPTEST_TIMEOUT_S)
    for key, value in query.items():
        at.query_params[key] = value
    if script != "app.py":
        at.switch_page(script)
    at.run()
    if asks_for_the_rest(at) and not at.exception and not first_screen_only:
        at.run()
    return at


def open_tab(at: AppTest, name: str, key: str = "pg_view") -> AppTest:
    """Open one of the playground's views below the charts (lazy tabs, ui/lazy_tabs.py: only
    the open one is drawn) as a click on its tab does, and run the page."""
    at.session_state[key] = name
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.fixture(autouse=True)
def named_parts_rerun_the_page(monkeypatch):
    """AppTest builds its element tree from each run's messages alone, so a part that a
    callback reruns by its name (``st.rerun("pg_charts")``: the part alone, the rest of the
    page as drawn) would leave the tree holding that part only. Here such a rerun is the
    usual one, the whole page with the same values; the part's rerun alone is tested against
    a real server (tests/browser/test_parts.py)."""
    rerun = st.rerun

    def whole_page(scope="app"):
        return rerun(scope if scope in ("app", "fragment") else "app")

    monkeypatch.setattr(st, "rerun", whole_page)


@pytest.fixture(autouse=True)
def fresh_shared_results():
    """Each test starts with nothing shared between sessions, as a fresh server does (a test
    that counts computations would otherwise depend on which tests ran before it)."""
    clear_all()
    yield


@pytest.fixture(autouse=True)
def server_corpus(stand_in_shakespeare):
    """Every page runs on a server whose "Tiny Shakespeare" is the generated stand-in, the
    same on every machine (tests/conftest.py): no AppTest depends on the course's copy.
    tests/apptest/test_corpus.py takes it away again for the server without it."""
    return stand_in_shakespeare


STEADY = StepTimes(train_step=0.05, forward=0.015, sample_token=0.002)  # a made-up server's speed


@pytest.fixture
def steady_server(monkeypatch):
    """The Train page's estimate with its measurement replaced by a fixed speed (the real one
    is measured live, and a busy machine's slowness makes the page warn); call it with other
    StepTimes for a slower server."""
    import ui.train.plan

    def at_speed(times: StepTimes = STEADY) -> None:
        ui.train.plan.step_times.clear()
        monkeypatch.setattr(ui.train.plan, "measure_step_times", lambda *_, **__: dict.fromkeys(HEAD_COUNTS, times))

    at_speed()
    yield at_speed
    ui.train.plan.step_times.clear()


@pytest.fixture
def steady_training(request, monkeypatch):
    """Training's speed probe (``gpt_core.train.forward_seconds``, timed before a capped run
    to refuse a model too slow for its cap or for Stop) at STEADY's fixed speed: a busy
    machine's probe refused the tests' tiny models as too slow to stop. A test marked
    ``measured_speed`` (its subject is that refusal) keeps the real probe."""
    if request.node.get_closest_marker("measured_speed"):
        return
    import importlib

    training = importlib.import_module("gpt_core.train")  # the module: gpt_core.train is its function
    monkeypatch.setattr(training, "forward_seconds", lambda *_: STEADY.forward)


@pytest.fixture
def page(request) -> AppTest:
    """The page named by the test module's PAGE, opened fresh, with no exception."""
    at = open_page(request.module.PAGE)
    assert not at.exception, at.exception
    return at


def chart_traces(at: AppTest) -> dict[str, dict]:
    """Every named trace of every Plotly chart on the page (a later chart wins a name)."""
    found: dict[str, dict] = {}
    for chart in at.get("plotly_chart"):
        found.update(traces_by_name(json.loads(chart.proto.spec)))
    return found


def clicks_for(monkeypatch, module) -> Callable[[object], None]:
    """Chart clicks as the chart-click component's value for one run each, as the browser sends
    them: ``module``'s ``listen`` hands out what the returned function was given, else None."""
    pending: list[object] = []
    monkeypatch.setattr(module, "listen", lambda charts, key: pending.pop() if pending else None)
    return pending.append


@pytest.fixture
def downloads(monkeypatch):
    """The files the download buttons of the last run would give: file name -> bytes. The
    buttons' data is made on click (a callable registered with Streamlit's media file
    manager); here it is recorded as registered, and made on demand."""
    from streamlit.runtime.media_file_manager import MediaFileManager

    registered: dict[str, object] = {}
    original = MediaFileManager.add_deferred

    def record(self, data_callable, mimetype, coordinates, file_name=None, **kwargs):
        registered[file_name] = data_callable
        return original(self, data_callable, mimetype, coordinates, file_name, **kwargs)

    monkeypatch.setattr(MediaFileManager, "add_deferred", record)

    def fetch(file_name: str) -> bytes:
        data = registered[file_name]()
        return data.encode() if isinstance(data, str) else data

    fetch.names = registered
    return fetch


def csv_matrix(data: bytes) -> np.ndarray:
    """A matrix downloaded as CSV (ui/playground/exports.py): its header row and each row's
    name left out, every number as written (Python's repr: the float exactly)."""
    rows = list(csv.reader(io.StringIO(data.decode())))[1:]
    return np.array([[float(value) for value in row[1:]] for row in rows])
