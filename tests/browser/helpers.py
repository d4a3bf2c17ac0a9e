"""Helpers for reading what a person sees in a Streamlit page."""

from __future__ import annotations

APP_READY_TIMEOUT_MS = 60_000


def wait_for_app(page, timeout_ms: int = APP_READY_TIMEOUT_MS) -> None:
    """Wait until a title is on screen and the page's script has finished its run."""
    page.wait_for_selector("[data-testid='stHeading'] h1", timeout=timeout_ms)
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=timeout_ms)


def exceptions_shown(page) -> int:
    return page.locator("[data-testid='stException']").count()


CHART_SELECTOR = ".js-plotly-plot .heatmaplayer"

# Every trace on the page as {name: {"x": [...], "z": [[...], ...] | None}}, read from what
# Plotly drew (_fullData holds the decoded arrays).
READ_TRACES_JS = """() => {
  const out = {};
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    for (const trace of plot._fullData || []) {
      if (!trace.name) continue;
      out[trace.name] = {
        x: trace.x ? Array.from(trace.x) : null,
        z: trace.z ? Array.from(trace.z, row => Array.from(row, v => (v === null || Number.isNaN(v)) ? null : v)) : null,
        colorscale: trace.colorscale || null,
      };
    }
  }
  return out;
}"""


def wait_for_charts(page, timeout_ms: int = APP_READY_TIMEOUT_MS) -> None:
    wait_for_app(page, timeout_ms)
    page.wait_for_selector(CHART_SELECTOR, timeout=timeout_ms)


def read_traces(page) -> dict:
    return page.evaluate(READ_TRACES_JS)


def wait_for_trace(page, name: str, timeout_ms: int = APP_READY_TIMEOUT_MS) -> None:
    """Wait until a trace called ``name`` is drawn."""
    page.wait_for_function(
        """name => Array.from(document.querySelectorAll('.js-plotly-plot'))
             .some(plot => (plot._fullData || []).some(trace => trace.name === name))""",
        arg=name,
        timeout=timeout_ms,
    )
