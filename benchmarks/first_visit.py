"""A student's first visit: navigation to the first chart drawn, against a one-chart app.

    python benchmarks/first_visit.py [--visits N]

Starts two real servers in the same run: this app (`streamlit run app.py`) and a reference
app written to a temporary directory (one `st.plotly_chart` of a 6×6 heatmap, nothing
else), both with the same command-line flags (headless, no usage stats, no file watcher).
Each is visited once to warm it (imports, caches). Then, alternating between the two so
both share the machine's noise, N times (default 8) a NEW browser context (empty cache,
new session: a student's first visit) opens the page: the app's `/playground` with the
default view's query, the reference's `/`. The time runs from the navigation's start (the
page's own clock, `performance.now()`, whose origin is the navigation) to the first
heatmap image Plotly has drawn inside a Streamlit chart, seen by a MutationObserver the
page installs before any of its scripts run: the same "the user sees a chart" for both
apps. Bytes are what came over the network until that moment: HTTP responses
(Playwright's `request.sizes()`, headers and bodies) and websocket frames received.

Target: median(app) ≤ 1.25 × median(reference). Prints a Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/first_visit.py`: the harness lives at the root
    sys.path.insert(0, str(ROOT))

from harness.browser import VIEWPORT, launch_chromium  # noqa: E402
from harness.server import Server, start_server, stop_server  # noqa: E402
from links import playground as state  # noqa: E402

TARGET_RATIO = 1.25
DEFAULT_VISITS = 8
VISIT_TIMEOUT_MS = 60_000
CHART_SELECTOR = "[data-testid='stPlotlyChart'] .js-plotly-plot .heatmaplayer image"
REFERENCE_APP = textwrap.dedent(
    """\
    import numpy as np
    import plotly.graph_objects as go
    import streamlit as st

    z = np.arange(36, dtype=float).reshape(6, 6)
    st.plotly_chart(go.Figure(go.Heatmap(z=z)))
    """
)
# Installed before the page's own scripts. When the first heatmap image is in the page:
# the time (ms since the navigation started), the HTTP responses finished by then (the
# page's resource timing: headers and encoded bodies) and the websocket bytes received.
WATCH_JS = """(() => {
  const selector = SELECTOR;
  let wsBytes = 0;
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = function (...args) {
    const socket = new NativeWebSocket(...args);
    socket.addEventListener('message', event => {
      const data = event.data;
      wsBytes += data.byteLength ?? data.size ?? data.length ?? 0;
    });
    return socket;
  };
  window.WebSocket.prototype = NativeWebSocket.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  const seen = () => {
    if (window.__firstChart !== undefined || !document.querySelector(selector)) return;
    const ms = performance.now();
    const done = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
      .filter(entry => entry.responseEnd > 0 && entry.responseEnd <= ms);
    window.__firstChart = {
      ms, requests: done.length, http: done.reduce((sum, entry) => sum + entry.transferSize, 0), ws: wsBytes,
    };
  };
  new MutationObserver(seen).observe(document, {childList: true, subtree: true, attributes: true});
})();""".replace("SELECTOR", json.dumps(CHART_SELECTOR))


@dataclass
class Visit:
    ms: float
    http_bytes: int
    requests: int
    ws_bytes: int


@dataclass
class Target:
    name: str
    url: str
    visits: list[Visit] = field(default_factory=list)


def app_url(server: Server) -> str:
    return f"{server.url}/playground?{urlencode(state.to_query(state.defaults()))}"


def visit(browser, url: str) -> Visit:
    """One first visit in a new context: time to the first chart, and what came before it."""
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(WATCH_JS)
    page = context.new_page()
    page.set_default_timeout(VISIT_TIMEOUT_MS)
    try:
        page.goto(url, wait_until="commit")
        page.wait_for_function("() => window.__firstChart !== undefined")
        seen = page.evaluate("() => window.__firstChart")
        return Visit(seen["ms"], seen["http"], seen["requests"], seen["ws"])
    finally:
        context.close()


def measure(visits: int) -> list[Target]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "reference.py").write_text(REFERENCE_APP)
        app = start_server("first-visit-app")
        reference = start_server("first-visit-reference", script="reference.py", cwd=Path(folder))
        targets = [Target("this app, /playground", app_url(app)), Target("one-heatmap reference app", reference.url)]
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                for target in targets:
                    visit(browser, target.url)  # warm the server
                for _ in range(visits):
                    for target in targets:
                        target.visits.append(visit(browser, target.url))
                browser.close()
        finally:
            stop_server(app)
            stop_server(reference)
    return targets


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def table(targets: list[Target]) -> str:
    lines = [
        "| page | first chart (median) | first chart (p90) | HTTP before it | requests | websocket before it |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for target in targets:
        ms = [v.ms for v in target.visits]
        http = statistics.median(v.http_bytes for v in target.visits) / 1000
        requests = round(statistics.median(v.requests for v in target.visits))
        ws = statistics.median(v.ws_bytes for v in target.visits) / 1000
        lines.append(
            f"| {target.name} | {statistics.median(ms):.0f} ms | {p90(ms):.0f} ms "
            f"| {http:.0f} KB | {requests} | {ws:.1f} KB |"
        )
    app, reference = ([v.ms for v in target.visits] for target in targets)
    ratio = statistics.median(app) / statistics.median(reference)
    lines.append("")
    lines.append(f"Ratio of medians: {ratio:.2f} (target ≤ {TARGET_RATIO}).")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=DEFAULT_VISITS, help="first visits per app")
    args = parser.parse_args()
    targets = measure(args.visits)
    for target in targets:
        sys.stdout.write(f"{target.name}: {[round(v.ms) for v in target.visits]}\n")
    sys.stdout.write("\n" + table(targets))


if __name__ == "__main__":
    main()
