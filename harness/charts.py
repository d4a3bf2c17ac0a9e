"""Reading Plotly charts: from the page, as Plotly drew them, and from figure JSON, the way
the browser receives it."""

from __future__ import annotations

import base64

import numpy as np

from harness.browser import APP_READY_TIMEOUT_MS, wait_for_app

# --- in the page (Playwright) ---

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
        fill: trace.fill || null,
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


# The centre of cell (row, col) of a chart's panel, in page coordinates, from Plotly's own
# layout of that panel's axes (category axes: cell i spans i - 0.5 … i + 0.5).
CELL_CENTRE_JS = """([key, axis, row, col]) => {
  const plot = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  const layout = plot._fullLayout;
  const x = layout['xaxis' + axis], y = layout['yaxis' + axis];
  const box = plot.querySelector('.main-svg').getBoundingClientRect();
  return [box.left + x._offset + x.l2p(col), box.top + y._offset + y.l2p(row)];
}"""


def cell_centre(page, key: str, axis: str, row: int, col: int) -> tuple[float, float]:
    """Where cell (row, col) of panel ``axis`` ("" for the first, "2", …) of the chart in
    ``.st-key-<key>`` is in the viewport, with the chart scrolled into view first."""
    page.locator(f".st-key-{key}").scroll_into_view_if_needed()
    x, y = page.evaluate(CELL_CENTRE_JS, [key, axis, row, col])
    return x, y


# --- in figure JSON (AppTest, the figure builders) ---

DTYPES = {"f4": np.float32, "f8": np.float64, "i4": np.int32, "u1": np.uint8, "i1": np.int8, "u4": np.uint32}


def decode(value) -> np.ndarray:
    """A data array from figure JSON: a typed-array dict ({dtype, bdata, shape}) or a list."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=DTYPES[value["dtype"]])
        if "shape" in value:
            shape = value["shape"]
            shape = [int(n) for n in shape.split(",")] if isinstance(shape, str) else shape
            array = array.reshape(shape)
        return array
    return np.array(value, dtype=float)


def traces_by_name(spec: dict) -> dict[str, dict]:
    return {trace.get("name"): trace for trace in spec["data"] if trace.get("name")}
