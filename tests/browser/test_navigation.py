"""Deep links work on a freshly started server, with the app's own shell."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from harness.browser import exceptions_shown, wait_for_app
from string_table import t
from tests.helpers import assert_the_app_shell
from ui.shell import PAGES

# The playground, the lesson and the explorer have fresh-server deep-link tests of their
# own (test_playground.py, test_lesson.py, test_explorer.py), which check the shell too.
OWN_FRESH_SERVER_TESTS = ("playground", "lesson", "explorer")


@pytest.mark.parametrize("page_key", [page.key for page in PAGES[1:] if page.key not in OWN_FRESH_SERVER_TESTS])
def test_deep_link_as_first_request_to_a_fresh_server_shows_the_page_and_navigation(
    fresh_server, browser_page, page_key
):
    browser_page.goto(f"{fresh_server.url}/{page_key}")
    wait_for_app(browser_page)
    assert_the_app_shell(browser_page, page_key)
    assert exceptions_shown(browser_page) == 0


def test_every_page_is_covered_by_a_fresh_server_test():
    assert {page.key for page in PAGES[1:]} >= set(OWN_FRESH_SERVER_TESTS)


def test_landing_page_links_to_every_page(shared_server, browser_page):
    browser_page.goto(shared_server.url)
    wait_for_app(browser_page)
    assert t("app.name") in browser_page.locator("h1").first.inner_text()
    main = browser_page.locator("[data-testid='stMain']")
    for info in PAGES[1:]:
        link = main.get_by_text(t(f"page.{info.key}"), exact=True)
        link.wait_for(timeout=30_000)
        assert link.count() == 1, info.key
    main.get_by_text(t("page.playground"), exact=True).click()
    browser_page.wait_for_url(lambda url: urlparse(url).path.endswith("/playground"))  # the query follows
    wait_for_app(browser_page)
    assert t("page.playground") in browser_page.locator("h1").first.inner_text()
