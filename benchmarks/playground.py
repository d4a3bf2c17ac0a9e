"""Playground speed and size: rerun time, figure payload, and browser update time.

    python benchmarks/playground.py [--no-browser]

Measures at T=64, h=8, head_dim=8 (the targets: rerun median ≤ 100 ms server-side, figure
payload ≤ 700 KB, widget change to updated chart in Chromium ≤ 1 s) and at T=128, h=16.
Prints a Markdown table for docs/benchmarks.md. Reruns are driven by Streamlit's AppTest, which runs
the page script in this process as the server does; the time is the script's own run
(from its first line to its last), which is what a rerun costs the server.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/playground.py`: ui and the harness live at the root
    sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

import ui.playground  # noqa: E402

SCRIPT_MS: list[float] = []  # how long each run of the page's script took, measured inside it
_render = ui.playground.render


def _timed_render() -> None:
    start = time.perf_counter()
    try:
        _render()
    finally:
        SCRIPT_MS.append((time.perf_counter() - start) * 1000)


ui.playground.render = _timed_render  # the page script calls ui.playground.render on each run

RERUNS = 25
BROWSER_CHANGES = 6
SIZES = [
    {"label": "T=64, h=8, d=8", "text": "abcdefgh" * 8, "heads": 8, "head_dim": 8},
    {"label": "T=128, h=16, d=8", "text": "abcdefgh" * 16, "heads": 16, "head_dim": 8},
]


def open_playground(size: dict) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key in ("text", "heads", "head_dim"):
        at.query_params[key] = str(size[key])
    at.switch_page("pages/1_playground.py")
    at.run()
    assert not at.exception, at.exception
    return at


def payload_bytes(at: AppTest) -> int:
    return sum(len(chart.proto.spec.encode()) for chart in at.get("plotly_chart"))


def timed_reruns(at: AppTest, change) -> list[float]:
    """The page script's own run time (ms) after each of RERUNS changes."""
    SCRIPT_MS.clear()
    for i in range(RERUNS):
        change(at, i)
        at.run()
        assert not at.exception
    return list(SCRIPT_MS)


def change_seed(at: AppTest, i: int) -> None:
    at.number_input(key="pg_seed").set_value(i + 1)


def change_head(at: AppTest, i: int) -> None:
    at.selectbox(key="pg_head").set_value(1 + (i + 1) % 4)


def browser_update_ms(size: dict) -> list[float]:
    """From typing a new seed (Enter) to the chart showing new numbers, in Chromium."""
    from playwright.sync_api import sync_playwright

    from harness.browser import VIEWPORT, launch_chromium, open_expanders
    from harness.charts import wait_for_charts
    from harness.server import start_server, stop_server

    server = start_server("benchmark")
    times = []
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_page(viewport=VIEWPORT)
            query = {key: size[key] for key in ("text", "heads", "head_dim")}
            page.goto(f"{server.url}/playground?{urlencode(query)}")
            wait_for_charts(page)
            page.wait_for_timeout(1000)
            open_expanders(page)  # the seed waits in "More settings"
            seed = page.get_by_role("spinbutton", name="seed")
            read_first = "() => document.querySelector('.js-plotly-plot')._fullData[0].z[1][0]"
            for i in range(BROWSER_CHANGES):
                before = page.evaluate(read_first)
                seed.fill(str(100 + i))
                start = time.perf_counter()
                seed.press("Enter")
                page.wait_for_function(
                    f"before => {read_first.removeprefix('() => ')} !== before", arg=before, timeout=30_000
                )
                times.append((time.perf_counter() - start) * 1000)
                page.wait_for_timeout(300)
            browser.close()
    finally:
        stop_server(server)
    return times


def main() -> None:
    with_browser = "--no-browser" not in sys.argv
    rows = []
    for size in SIZES:
        at = open_playground(size)
        payload = payload_bytes(at)
        seed_ms = timed_reruns(at, change_seed)
        head_ms = timed_reruns(at, change_head)
        browser_ms = browser_update_ms(size) if with_browser else []
        rows.append(
            {
                "size": size["label"],
                "rerun_ms_median": round(statistics.median(seed_ms), 1),
                "view_only_rerun_ms_median": round(statistics.median(head_ms), 1),
                "payload_kb": round(payload / 1000, 1),
                "browser_update_ms_median": round(statistics.median(browser_ms)) if browser_ms else None,
            }
        )
    sys.stdout.write(json.dumps(rows, indent=2) + "\n\n")
    sys.stdout.write(
        "| size | rerun after a number change (median) | rerun after a view change (median) "
        "| figure payload | widget change to updated chart in Chromium (median) |\n"
    )
    sys.stdout.write("| --- | --- | --- | --- | --- |\n")
    for row in rows:
        browser = f"{row['browser_update_ms_median']} ms" if row["browser_update_ms_median"] is not None else "–"
        sys.stdout.write(
            f"| {row['size']} | {row['rerun_ms_median']} ms | {row['view_only_rerun_ms_median']} ms "
            f"| {row['payload_kb']} KB | {browser} |\n"
        )


if __name__ == "__main__":
    main()
