"""Take the README's screenshot with a real browser against a real server.

    python scripts/screenshot.py [URL_PATH] [OUTPUT]

defaults: the playground at its book example, written to docs/screenshot.png.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.helpers import wait_for_app  # noqa: E402
from tests.browser.server import CHROMIUM_ARGS, chromium_path, start_server, stop_server  # noqa: E402

DEFAULT_PATH = "/playground"
DEFAULT_OUTPUT = ROOT / "docs" / "screenshot.png"
SCREENSHOT_VIEWPORT = {"width": 1400, "height": 1100}
CHART_SELECTOR = ".js-plotly-plot .heatmaplayer"


def main() -> None:
    from playwright.sync_api import sync_playwright

    url_path = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_PATH
    output = Path(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_OUTPUT
    executable = chromium_path()
    if executable is None:
        sys.exit("No Chromium found: apt-get install chromium")
    server = start_server("screenshot")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport=SCREENSHOT_VIEWPORT)
            page.goto(server.url + url_path)
            wait_for_app(page)
            if page.locator(CHART_SELECTOR).count() or "playground" in url_path:
                page.wait_for_selector(CHART_SELECTOR, timeout=60_000)
            output.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(output))
            browser.close()
    finally:
        stop_server(server)
    sys.stdout.write(f"wrote {output}\n")


if __name__ == "__main__":
    main()
