"""Take the README's screenshot with a real browser against a real server.

    python scripts/screenshot.py [URL_PATH] [OUTPUT] [--full] [--size WxH] [--element CSS]

defaults: the playground at its book example, 1366×768 (a classroom projector), written
to docs/screenshot.png. The README's others:

    python scripts/screenshot.py "/lesson?lang=zh&present=1&step=3" docs/lesson-present.png
    python scripts/screenshot.py "/playground?cmp=1&text=the+cat+sat+on+the+mat&tok=word&heads=2&b_heads=8" docs/compare.png
    python scripts/screenshot.py "/playground?text=the+cat+sat+on+the+mat&tok=word&view=token&token=5" \
        docs/token-view.png --element "[role=tabpanel]:visible"

``--element``: the picture of that element only (scrolled into view), at the window's width.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python scripts/screenshot.py`: the harness lives at the root
    sys.path.insert(0, str(ROOT))

from harness.browser import APP_READY_TIMEOUT_MS, IDLE, chromium_path, launch_chromium, wait_for_app  # noqa: E402
from harness.charts import CHART_SELECTOR  # noqa: E402
from harness.server import start_server, stop_server  # noqa: E402

DEFAULT_PATH = "/playground"
DEFAULT_OUTPUT = ROOT / "docs" / "screenshot.png"
SCREENSHOT_VIEWPORT = {"width": 1366, "height": 768}
TALL_HEIGHT = 2400  # --full: the page scrolls inside, so grow the window
SETTLE_MS = 1500  # let Plotly finish its layout before the picture
FULL_PAGE = "--full" in sys.argv


def main() -> None:
    from playwright.sync_api import sync_playwright

    args = sys.argv[1:]
    viewport = dict(SCREENSHOT_VIEWPORT)
    if "--size" in args:
        at = args.index("--size")
        width, height = args[at + 1].split("x")
        viewport = {"width": int(width), "height": int(height)}
        del args[at : at + 2]
    element = None
    if "--element" in args:
        at = args.index("--element")
        element = args[at + 1]
        del args[at : at + 2]
    args = [a for a in args if a != "--full"]
    if FULL_PAGE:
        viewport["height"] = TALL_HEIGHT
    url_path = args[0] if args else DEFAULT_PATH
    output = Path(args[1]) if len(args) > 1 else DEFAULT_OUTPUT
    executable = chromium_path()
    if executable is None:
        sys.exit("No Chromium found: apt-get install chromium")
    server = start_server("screenshot")
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright, executable)
            page = browser.new_page(viewport=viewport)
            page.goto(server.url + url_path)
            if "present=1" in url_path:  # presentation mode draws no page title
                page.wait_for_selector(IDLE, timeout=APP_READY_TIMEOUT_MS)
            else:
                wait_for_app(page)
            if page.locator(CHART_SELECTOR).count() or "playground" in url_path:
                page.wait_for_selector(CHART_SELECTOR, timeout=APP_READY_TIMEOUT_MS)
            output.parent.mkdir(parents=True, exist_ok=True)
            page.wait_for_timeout(SETTLE_MS)
            if element:
                target = page.locator(element).first
                target.scroll_into_view_if_needed()
                page.wait_for_timeout(SETTLE_MS)
                target.screenshot(path=str(output))
            else:
                page.screenshot(path=str(output))
            browser.close()
    finally:
        stop_server(server)
    sys.stdout.write(f"wrote {output}\n")


if __name__ == "__main__":
    main()
