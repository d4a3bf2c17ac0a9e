"""Helpers for reading what a person sees in a Streamlit page."""

from __future__ import annotations

APP_READY_TIMEOUT_MS = 60_000


def wait_for_app(page, timeout_ms: int = APP_READY_TIMEOUT_MS) -> None:
    """Wait until the script has finished running and a title is on screen."""
    page.wait_for_selector("[data-testid='stHeading'] h1", timeout=timeout_ms)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')",
        timeout=timeout_ms,
    )


def exceptions_shown(page) -> int:
    return page.locator("[data-testid='stException']").count()
