"""The browser tests skip without Chromium, and fail instead when REQUIRE_BROWSER=1."""

from __future__ import annotations

import pytest

import tests.browser.server as server


def test_without_chromium_browser_tests_skip_with_a_reason(monkeypatch):
    monkeypatch.setattr(server, "chromium_path", lambda: None)
    monkeypatch.delenv("REQUIRE_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no Chromium"):
        server.need_browser()


def test_without_chromium_and_require_browser_they_fail(monkeypatch):
    monkeypatch.setattr(server, "chromium_path", lambda: None)
    monkeypatch.setenv("REQUIRE_BROWSER", "1")
    with pytest.raises(pytest.fail.Exception, match="REQUIRE_BROWSER=1"):
        server.need_browser()


def test_with_chromium_the_path_is_returned(monkeypatch, tmp_path):
    fake = tmp_path / "chromium"
    fake.write_text("")
    monkeypatch.setenv("CHROMIUM_PATH", str(fake))
    assert server.need_browser() == str(fake)
