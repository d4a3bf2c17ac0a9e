"""The browser tests skip without Chromium, and fail instead when REQUIRE_BROWSER=1."""

from __future__ import annotations

import pytest

import harness.browser as browser


def test_without_chromium_browser_tests_skip_with_a_reason(monkeypatch):
    monkeypatch.setattr(browser, "chromium_path", lambda: None)
    monkeypatch.delenv("REQUIRE_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no Chromium"):
        browser.need_browser()


def test_without_chromium_and_require_browser_they_fail(monkeypatch):
    monkeypatch.setattr(browser, "chromium_path", lambda: None)
    monkeypatch.setenv("REQUIRE_BROWSER", "1")
    with pytest.raises(pytest.fail.Exception, match="REQUIRE_BROWSER=1"):
        browser.need_browser()


def test_with_chromium_the_path_is_returned(monkeypatch, tmp_path):
    fake = tmp_path / "chromium"
    fake.write_text("")
    monkeypatch.setenv("CHROMIUM_PATH", str(fake))
    assert browser.need_browser() == str(fake)
