"""A failing view stays in its tab, in a real Chromium against a real server: with the
explorer's odds view forced to raise, the page keeps its grid and its tabs, the odds tab
says what failed in its place, Streamlit's "This app has encountered an error" never shows,
and the server's log holds the traceback. Choosing another tab draws it and writes it to
the link.

The failure is forced without a switch in the product: the server runs, from a temporary
folder, scripts that run the app's own, the explorer page's after replacing
``ui.explorer.odds_view.odds`` with a function that raises."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlparse

import pytest

from harness.browser import exceptions_shown, wait_for_app, wait_for_rerun
from harness.server import ROOT, Server, start_server, stop_server

FORCED = "forced failure of the odds view (browser test)"
PATCH = f"""import ui.explorer.odds_view as odds_view


def _failing_odds(*args, **kwargs):
    raise RuntimeError({FORCED!r})


odds_view.odds = _failing_odds
"""


def _runner(script: Path, patch: str = "") -> str:
    """A script that (after ``patch``) runs the app's own ``script``."""
    return f"import runpy\n{patch}\nrunpy.run_path({str(script)!r}, run_name='__main__')\n"


TABS = [
    "Stage by stage",
    "Lines",
    "What each head does",
    "During training",
    "Generate",
    "Next-token odds",
    "One token, every head",
    "Heads and layers combined",
]
MESSAGE = (
    "“Next-token odds” could not be drawn: something went wrong on the server (it was logged). "
    "The rest of the page still works: try other settings here, or reload the page."
)
STREAMLIT_ERROR = "This app has encountered an error"


@pytest.fixture
def failing_odds_server(chromium_executable, tmp_path: Path) -> Iterator[Server]:
    """A server of this app whose explorer's odds view raises: in a temporary folder, an
    app.py and a page of each name that run the app's own (Streamlit finds pages next to its
    main script; linked files it would not accept), the explorer's after the patch above."""
    (tmp_path / "app.py").write_text(_runner(ROOT / "app.py"), encoding="utf-8")
    pages = tmp_path / "pages"
    pages.mkdir()
    for page in (ROOT / "pages").glob("*.py"):
        patch = PATCH if page.name == "4_explorer.py" else ""
        (pages / page.name).write_text(_runner(page, patch), encoding="utf-8")
    server = start_server("failing-odds", script=str(tmp_path / "app.py"), cwd=ROOT)
    yield server
    stop_server(server)


def test_a_failing_tab_says_so_in_its_place_and_the_page_stays(failing_odds_server, browser_page):
    page = browser_page
    page.goto(f"{failing_odds_server.url}/explorer?{urlencode({'model': 'h4', 'view': 'odds'})}")
    wait_for_app(page)
    panel = page.get_by_role("tabpanel")
    panel.get_by_text(MESSAGE).wait_for()
    assert page.locator(".st-key-ex_grid_chart .js-plotly-plot").is_visible()  # the grid, drawn before the tabs
    for label in TABS:
        assert page.get_by_role("tab", name=label, exact=True).is_visible(), label
    assert page.get_by_role("tab", name="Next-token odds", exact=True).get_attribute("aria-selected") == "true"
    assert page.get_by_text(STREAMLIT_ERROR).count() == 0 and exceptions_shown(page) == 0
    log = failing_odds_server.log.read_text(encoding="utf-8")
    assert "Traceback" in log and FORCED in log and "'Next-token odds' failed to draw" in log

    page.get_by_role("tab", name="Lines", exact=True).click()  # the rest of the page still works
    wait_for_rerun(page)
    page.wait_for_function("() => location.search.includes('view=lines')")
    page.locator(".st-key-ex_lines_chart .js-plotly-plot").wait_for()
    assert page.get_by_text(MESSAGE).count() == 0  # only the open tab is drawn
    assert parse_qs(urlparse(page.url).query)["view"] == ["lines"]
    assert exceptions_shown(page) == 0 and not page.console_errors
