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


class _Page:
    """A page whose script returns ``readings`` one after another (the last one for ever)."""

    def __init__(self, readings):
        self.readings, self.evaluated, self.waited = list(readings), 0, 0

    def evaluate(self, script, arg=None):
        self.evaluated += 1
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]

    def wait_for_timeout(self, ms):
        self.waited += ms


def test_settled_value_is_the_first_reading_repeated_in_a_row():
    page = _Page([{"top": 1}, {"top": 5}, {"top": 9}, {"top": 9}])
    assert browser.settled_value(page, "() => 0", poll_ms=10) == {"top": 9}
    assert page.evaluated == 4 and page.waited == 30


def test_settled_value_fails_with_its_readings_when_the_page_never_settles(monkeypatch):
    count = iter(range(10**6))
    page = _Page([0])
    page.evaluate = lambda script, arg=None: next(count)
    with pytest.raises(AssertionError, match="not settled within 0 s: 0 then 1"):
        browser.settled_value(page, "() => 0", poll_ms=1, timeout_ms=0)
