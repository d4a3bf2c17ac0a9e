"""Find Debian's Chromium, launch it through Playwright, and wait for a Streamlit page."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1400, "height": 1000}
APP_READY_TIMEOUT_MS = 60_000


def chromium_path() -> str | None:
    explicit = os.environ.get("CHROMIUM_PATH")
    if explicit and Path(explicit).exists():
        return explicit
    for candidate in CHROMIUM_CANDIDATES:
        if Path(candidate).exists():
            return candidate
    return shutil.which("chromium")


def need_browser() -> str:
    """Chromium's path; without one, skip the calling test with the reason, or fail it
    when REQUIRE_BROWSER=1 (CI), so a missing install step can't pass silently."""
    import pytest

    path = chromium_path()
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        path = None
    if path is None:
        reason = "no Chromium (apt-get install chromium) or no playwright package"
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    return path


def launch_chromium(playwright, executable: str | None = None):
    """A Playwright Browser: ``executable`` (default: chromium_path()) with CHROMIUM_ARGS."""
    return playwright.chromium.launch(executable_path=executable or chromium_path(), args=CHROMIUM_ARGS)


IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
# ui/first_screen.py's component: on the page while only its first screen is drawn.
FIRST_SCREEN_ONLY = "[class*='st-key-first_screen_']"


def wait_for_app(page, timeout_ms: int = APP_READY_TIMEOUT_MS) -> None:
    """Wait until a title is on screen and the page's script has finished its run; when
    that run drew only the first screen, also for the run that draws the rest."""
    page.wait_for_selector("[data-testid='stHeading'] h1", timeout=timeout_ms)
    page.wait_for_selector(IDLE, timeout=timeout_ms)
    page.wait_for_selector(FIRST_SCREEN_ONLY, state="detached", timeout=timeout_ms)
    page.wait_for_selector(IDLE, timeout=timeout_ms)


def open_expanders(page) -> None:
    """Open every closed expander on the page (the playground's "More settings" holds the
    seed and the input width)."""
    for summary in page.locator("[data-testid='stExpander'] details:not([open]) > summary").all():
        summary.click()


def exceptions_shown(page) -> int:
    return page.locator("[data-testid='stException']").count()


RUN_START_GRACE_MS = 2_000  # how long a widget change may take to start its script run


def wait_for_rerun(page, timeout_ms: int = APP_READY_TIMEOUT_MS) -> None:
    """After a widget change: wait for its script run to start (if it has not already come
    and gone) and then to end. No fixed sleep: it returns as soon as the page is idle."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_selector("[data-testid='stApp'][data-test-script-state='running']", timeout=RUN_START_GRACE_MS)
    except PlaywrightTimeout:
        pass  # the run was over before we looked
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=timeout_ms)
