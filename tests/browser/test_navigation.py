"""Deep links work on a freshly started server, with the app's own shell."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from harness.browser import exceptions_shown, wait_for_app
from ui.shell import PAGES
from ui.strings import t


@pytest.mark.parametrize("page_key", [page.key for page in PAGES[1:]])
def test_deep_link_as_first_request_to_a_fresh_server_shows_the_page_and_navigation(
    fresh_server, browser_page, page_key
):
    slug = page_key
    browser_page.goto(f"{fresh_server.url}/{slug}")
    wait_for_app(browser_page)
    heading = browser_page.locator("[data-testid='stHeading'] h1").first.inner_text()
    assert t(f"page.{page_key}") in heading
    sidebar = browser_page.locator("[data-testid='stSidebar']")
    for info in PAGES:
        link = sidebar.get_by_text(t(f"page.{info.key}"), exact=True)
        link.wait_for(timeout=30_000)  # the script may still be drawing
        assert link.count() == 1, info.key
    assert "1_playground" not in sidebar.inner_text(), "raw file names leaked into the navigation"
    assert exceptions_shown(browser_page) == 0
    browser_page.wait_for_function("title => document.title.startsWith(title)", arg=t(f"page.{page_key}"))


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
