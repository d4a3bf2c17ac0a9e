"""The browser's Back button: it returns to the view the link of the page before held."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from harness.browser import exceptions_shown, wait_for_app, wait_for_rerun
from harness.charts import wait_for_charts

TEXT = "hello world"
QUERY = "10 · d"  # the query box's label of position 10


def _params(page) -> dict[str, str]:
    return {key: values[-1] for key, values in parse_qs(urlparse(page.url).query).items()}


def _shown(page, key: str, expected: str) -> str:
    """What a box shows, once it shows ``expected`` or after the wait."""
    try:
        page.wait_for_function(
            "([key, value]) => document.querySelector(`.st-key-${key} input, .st-key-${key} textarea`)?.value === value",
            arg=[key, expected],
            timeout=30_000,
        )
    except Exception:  # noqa: BLE001 - the assertion then shows what is there
        pass
    return page.locator(f".st-key-{key} input, .st-key-{key} textarea").first.input_value()


def test_back_from_the_lesson_returns_to_the_playground_as_the_student_left_it(shared_server, browser_page):
    page = browser_page
    page.goto(f"{shared_server.url}/playground")
    wait_for_charts(page)
    box = page.get_by_role("textbox", name="Sequence")
    box.fill(TEXT)
    box.press("Control+Enter")
    page.wait_for_function("() => new URLSearchParams(location.search).get('text') === 'hello world'")
    page.locator(".st-key-pg_row input").click()
    page.keyboard.type("10 ·")
    page.get_by_role("option", name=QUERY, exact=True).wait_for()
    page.keyboard.press("Enter")
    page.wait_for_function("() => new URLSearchParams(location.search).get('row') === '10'")
    left = _params(page)
    page.locator("[data-testid='stSidebar']").get_by_role("link", name="Guided lesson").click()
    page.wait_for_url(lambda url: urlparse(url).path.endswith("/lesson"))
    wait_for_app(page)
    wait_for_rerun(page)
    page.go_back()
    page.wait_for_url(lambda url: urlparse(url).path.endswith("/playground"))
    wait_for_charts(page)
    assert _shown(page, "pg_text", TEXT) == TEXT
    assert _shown(page, "pg_row", QUERY) == QUERY
    page.wait_for_timeout(1500)  # a late rerun would write another link
    assert _params(page) == left
    assert _shown(page, "pg_row", QUERY) == QUERY
    assert exceptions_shown(page) == 0
