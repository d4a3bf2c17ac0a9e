from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

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
def page_opener():
    return open_page
