"""Bytes of a student's first visit through nginx, with and without gzip.

    python benchmarks/nginx_bytes.py [--runs 3]

Starts nginx in front of one app process (deploy/cluster.py) twice, once with the shipped
configuration (gzip on) and once with gzip off, and opens the playground's default view in
a new Chromium context each time (an empty cache, as a student's first visit). It counts
what crossed the network, as Chromium's DevTools protocol reports it: the HTTP responses
(encoded bytes, headers included: the page, Streamlit's JavaScript, fonts, the hover
script's page) and the websocket's frames (the figures), apart. Prints a Markdown table.
"""

from __future__ import annotations

import base64
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/nginx_bytes.py`
    sys.path.insert(0, str(ROOT))

from deploy.cluster import start_cluster, stop_cluster  # noqa: E402
from harness.browser import VIEWPORT, launch_chromium  # noqa: E402
from harness.charts import wait_for_charts  # noqa: E402


def first_visit(browser, url: str) -> dict[str, float]:
    """One first visit: HTTP bytes and requests, websocket bytes, until the charts are drawn."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    tally = {"http_bytes": 0, "requests": 0, "ws_bytes": 0}

    def finished(event: dict) -> None:
        tally["http_bytes"] += event["encodedDataLength"]
        tally["requests"] += 1

    def frame(event: dict) -> None:
        response = event["response"]
        data = response["payloadData"]
        tally["ws_bytes"] += len(base64.b64decode(data)) if response["opcode"] == 2 else len(data.encode())

    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.webSocketFrameReceived", frame)
    page.goto(f"{url}/playground")
    wait_for_charts(page)
    page.wait_for_load_state("networkidle")
    context.close()
    return tally


def measure(browser, gzip: bool, runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as run_dir:
        cluster = start_cluster(processes=1, gzip=gzip, run_dir=run_dir)
        try:
            first_visit(browser, cluster.url)  # the server warm, as for a class
            visits = [first_visit(browser, cluster.url) for _ in range(runs)]
        finally:
            stop_cluster(cluster)
    return {key: statistics.median(v[key] for v in visits) for key in visits[0]}


def main() -> None:
    from playwright.sync_api import sync_playwright

    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 3
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        results = {gzip: measure(browser, gzip, runs) for gzip in (True, False)}
        browser.close()
    print(f"First visit to /playground through nginx (medians of {runs} new contexts)\n")
    print("| nginx | HTTP (page, JavaScript, fonts) | requests | websocket (figures) | total |")
    print("| --- | --- | --- | --- | --- |")
    for gzip, r in results.items():
        total = r["http_bytes"] + r["ws_bytes"]
        print(
            f"| gzip {'on' if gzip else 'off'} | {r['http_bytes'] / 1e6:.2f} MB | {r['requests']:.0f} | "
            f"{r['ws_bytes'] / 1e6:.2f} MB | {total / 1e6:.2f} MB |"
        )


if __name__ == "__main__":
    main()
