"""The harness's wait for the app's styles (harness/browser.py ``wait_for_styles``), on pages
written here: it returns once the app's marker property applies, and not before."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from harness.browser import local_page, wait_for_styles
from ui.shell import BASE_CSS

PAGE = "<!DOCTYPE html><html><head>{style}</head><body><p>a page</p></body></html>"


def test_the_wait_ends_once_the_apps_style_applies(playwright_browser, tmp_path):
    context, page = local_page(playwright_browser, tmp_path, PAGE.replace("{style}", BASE_CSS))
    try:
        wait_for_styles(page, timeout_ms=5_000)
    finally:
        context.close()


def test_the_wait_does_not_end_without_the_apps_style(playwright_browser, tmp_path):
    context, page = local_page(
        playwright_browser, tmp_path, PAGE.replace("{style}", "<style>p { color: red; }</style>")
    )
    try:
        with pytest.raises(PlaywrightTimeout):
            wait_for_styles(page, timeout_ms=1_000)
    finally:
        context.close()
