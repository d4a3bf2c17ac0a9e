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
# Deadlines sized for a busy 2-core machine (CI runs there, and other work may run beside it):
# conditions are waited for, never fixed sleeps, so a quiet machine is as fast as before.
APP_READY_TIMEOUT_MS = 60_000
ACTION_TIMEOUT_MS = 60_000  # every Playwright action and wait of a context made by new_context


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


# Installed in every page of a context made by new_context: when the user last acted (a
# click, a key, an input) and when a script run last started, by the page's own clock, so
# wait_for_rerun can tell a run that this action started from one that ended before it.
RUN_WATCH_JS = """
(() => {
  window.__lastAction = 0; window.__lastRunStart = 0;
  const acted = () => { window.__lastAction = performance.now(); };
  for (const kind of ["click", "keydown", "input", "change"]) { window.addEventListener(kind, acted, true); }
  const watch = () => {
    const app = document.querySelector("[data-testid='stApp']");
    if (!app) { requestAnimationFrame(watch); return; }
    const running = () => app.getAttribute("data-test-script-state") === "running";
    if (running()) { window.__lastRunStart = performance.now(); }
    new MutationObserver((records) => {
      if (running() || records.some((record) => record.oldValue === "running")) {
        window.__lastRunStart = performance.now();
      }
    }).observe(app, { attributes: true, attributeOldValue: true, attributeFilter: ["data-test-script-state"] });
  };
  watch();
  // The element that has the focus, and when the page last removed it (or a block around it):
  // a redraw that takes the focused element away leaves the focus on the page's body.
  window.__focused = null; window.__focusRemoved = 0;
  window.addEventListener("focusin", (event) => { window.__focused = event.target; }, true);
  const watchRemovals = () => {
    if (!document.body) { requestAnimationFrame(watchRemovals); return; }
    new MutationObserver((records) => {
      const focused = window.__focused;
      if (!focused) return;
      for (const record of records) {
        for (const node of record.removedNodes) {
          if (node === focused || (node.contains && node.contains(focused))) {
            window.__focusRemoved = performance.now();
            return;
          }
        }
      }
    }).observe(document.body, { childList: true, subtree: true });
  };
  watchRemovals();
})();
"""


def new_context(browser, **options):
    """A browser context for a test: the deadlines above, and the run watcher in its pages."""
    context = browser.new_context(**options)
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    context.add_init_script(RUN_WATCH_JS)
    return context


def local_page(browser, folder, html: str):
    """A context and a page of ``html``, written into ``folder`` and loaded as the app's pages
    are (a file's URL, not set_content, whose document.open() drops the run watcher's
    listeners): the harness's own tests use it."""
    path = folder / "page.html"
    path.write_text(html, encoding="utf-8")
    context = new_context(browser)
    page = context.new_page()
    page.goto(path.as_uri())
    return context, page


IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
# ui/first_screen.py's component: on the page while only its first screen is drawn.
FIRST_SCREEN_ONLY = "[class*='st-key-first_screen_']"


# The app's own styles are on the page (ui/shell.py BASE_CSS sets this property). They come
# through Streamlit's HTML element, whose code a browser loads on first use: a busy machine
# draws the page's widgets before it, so a size or a position is measured once it is here.
STYLED_JS = "() => getComputedStyle(document.documentElement).getPropertyValue('--attention-styled').trim() === '1'"


def wait_for_styles(page, timeout_ms: int = APP_READY_TIMEOUT_MS) -> None:
    """Wait until the app's styles apply (every style the run so far sent: the same code draws them)."""
    page.wait_for_function(STYLED_JS, timeout=timeout_ms)


def wait_for_app(page, timeout_ms: int = APP_READY_TIMEOUT_MS) -> None:
    """Wait until a title is on screen and the page's script has finished its run; when
    that run drew only the first screen, also for the run that draws the rest; and until
    the app's styles apply."""
    page.wait_for_selector("[data-testid='stHeading'] h1", timeout=timeout_ms)
    page.wait_for_selector(IDLE, timeout=timeout_ms)
    page.wait_for_selector(FIRST_SCREEN_ONLY, state="detached", timeout=timeout_ms)
    page.wait_for_selector(IDLE, timeout=timeout_ms)
    wait_for_styles(page, timeout_ms)


# A chart's "show as table" expander (ui/charts.py TABLE_SUFFIX): opening one reruns the page.
CHART_TABLE = "[class*='__as_table']"


CLOSED_EXPANDER = "[data-testid='stExpander'] details:not([open]) > summary"
MAX_EXPANDERS = 20


def open_expanders(page) -> None:
    """Open every closed expander of controls on the page (the playground's "More settings"
    holds the seed and the input width), one at a time (an opened one leaves the list of
    closed ones); the charts' tables stay closed."""
    for _ in range(MAX_EXPANDERS):
        index = page.evaluate(
            "([closed, table]) => Array.from(document.querySelectorAll(closed)).findIndex(e => !e.closest(table))",
            [CLOSED_EXPANDER, CHART_TABLE],
        )
        if index < 0:
            return
        summary = page.locator(CLOSED_EXPANDER).nth(index).element_handle()
        summary.click()
        page.wait_for_function("summary => summary.parentElement.open", arg=summary)


def exceptions_shown(page) -> int:
    return page.locator("[data-testid='stException']").count()


# When an action started no run at all (or its run came and went before the watcher saw it),
# wait_for_rerun gives up waiting for a start after this long and only waits for idleness.
RUN_START_GRACE_MS = 10_000
RAN_SINCE_ACTION_JS = "() => window.__lastRunStart === undefined || window.__lastRunStart >= window.__lastAction"


def wait_for_rerun(page, timeout_ms: int = APP_READY_TIMEOUT_MS) -> None:
    """After a widget change: wait until a script run has started since the user's last
    action (pages of new_context record both), then until the page is idle. No fixed sleep."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(RAN_SINCE_ACTION_JS, timeout=RUN_START_GRACE_MS)
    except PlaywrightTimeout:
        pass  # no run started: nothing to wait for beyond idleness
    page.wait_for_selector(IDLE, timeout=timeout_ms)


SETTLE_POLL_MS = 100


def settled_value(page, script: str, arg=None, poll_ms: int = SETTLE_POLL_MS, timeout_ms: int = APP_READY_TIMEOUT_MS):
    """What ``script`` (a function evaluated in the page) returns once two readings in a row,
    ``poll_ms`` apart, agree: a layout, a relayout or a fade has settled. Never a fixed wait:
    a quiet page answers after one poll; a page still moving at the deadline fails with its
    last two readings."""
    import time

    deadline = time.monotonic() + timeout_ms / 1000
    last = page.evaluate(script, arg)
    while True:
        page.wait_for_timeout(poll_ms)
        now = page.evaluate(script, arg)
        if now == last:
            return now
        if time.monotonic() > deadline:
            raise AssertionError(f"not settled within {timeout_ms / 1000:.0f} s: {last!r} then {now!r}")
        last = now
