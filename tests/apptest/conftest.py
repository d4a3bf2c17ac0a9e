from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from harness.charts import traces_by_name

ROOT = Path(__file__).resolve().parents[2]
APPTEST_TIMEOUT_S = 60  # the first run imports torch


def open_page(script: str = "app.py", **query: str) -> AppTest:
    """Run ``script`` (a path relative to app.py) as a user opening it with ``query``."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=APPTEST_TIMEOUT_S)
    for key, value in query.items():
        at.query_params[key] = value
    if script != "app.py":
        at.switch_page(script)
    return at.run()


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
