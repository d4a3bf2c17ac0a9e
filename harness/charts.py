"""Reading Plotly charts: from the page, as Plotly drew them, and from figure JSON, the way
the browser receives it."""

from __future__ import annotations

import base64
import re
from decimal import ROUND_HALF_UP, Decimal

import numpy as np

from harness.browser import APP_READY_TIMEOUT_MS, wait_for_app

# --- in the page (Playwright) ---

CHART_SELECTOR = ".js-plotly-plot .heatmaplayer"

# Every trace on the page as {name: {"x": [...], "z": [[...], ...] | None, ...}}, read from
# what Plotly drew (_fullData holds the decoded arrays), with the templates that print its
# values where it has them (so that ``assert_displays`` reads it as it reads figure JSON).
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
        hoverinfo: trace.hoverinfo || null,
      };
      for (const name of ['hovertemplate', 'texttemplate']) {
        if (typeof trace[name] === 'string' && trace[name]) out[trace.name][name] = trace[name];
      }
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


_Z_FIELD = re.compile(r"%\{z(?::([^}]*))?\}")
_FIXED = re.compile(r"^([+\- ]?)\.(\d+)f$")


def d3_fixed(value: float, decimals: int, plus: bool = False) -> str:
    """What plotly.js prints for ``%{z:.Nf}`` (``+.Nf`` with ``plus``): d3-format's fixed
    type, JavaScript's ``toFixed`` of the absolute value (ties away from zero, on the exact
    binary value), with a minus sign that a negative rounding to zero loses unless ``+``."""
    if np.isnan(value):
        return "NaN"
    negative = value < 0 or (value == 0 and np.copysign(1.0, value) < 0)
    body = Decimal(abs(float(value))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    if negative and body == 0 and not plus:
        negative = False
    return ("−" if negative else ("+" if plus else "")) + str(body)


def printed_formats(trace: dict) -> list[tuple[int, bool]] | None:
    """The fixed formats (decimals, signed) in which a trace's hover and written values print
    its ``z``; None where one prints it otherwise or the trace keeps Plotly's own hover."""
    if "hovertemplate" not in trace and trace.get("hoverinfo") != "skip":
        return None
    forms = []
    for name in ("hovertemplate", "texttemplate"):
        for form in _Z_FIELD.findall(str(trace.get(name) or "")):
            fixed = _FIXED.match(form)
            if fixed is None:
                return None
            forms.append((int(fixed.group(2)), fixed.group(1) == "+"))
    return forms


def assert_displays(trace: dict, expected, exact_atol: float = 0.0) -> None:
    """A heatmap as a person reads it in the browser shows ``expected`` (torch's numbers):
    the same cells are empty, every fixed format of its hover and written values prints the
    text ``expected`` prints, and each cell's colour lies within one last digit of it.
    A trace whose ``z`` is printed otherwise is sent exact: it must equal ``expected`` to
    ``exact_atol``."""
    truth = np.asarray(expected, dtype=np.float64)
    shown = np.asarray(decode(trace["z"]), dtype=np.float64)
    assert shown.size == truth.size, (shown.shape, truth.shape)
    shown = shown.reshape(truth.shape)
    np.testing.assert_array_equal(np.isfinite(shown), np.isfinite(truth))
    forms = printed_formats(trace)
    if forms is None:
        np.testing.assert_allclose(shown, truth, atol=exact_atol, rtol=0)
        return
    cells = np.isfinite(truth)
    for decimals, plus in forms or [(4, False)]:
        for got, want in zip(shown[cells], truth[cells], strict=True):
            assert d3_fixed(got, decimals, plus) == d3_fixed(want, decimals, plus), (got, want, decimals)
    finest = max((decimals for decimals, _ in forms), default=4)
    assert np.abs(shown[cells] - truth[cells]).max(initial=0.0) < 10.0**-finest


def part_of(trace: dict, z) -> dict:
    """``trace`` with ``z`` (some of its decoded cells) as its values: to read those cells
    alone with ``assert_displays``, as its templates print them."""
    return {**trace, "z": np.asarray(z, dtype=np.float64)}


HEATMAP_HOVER = "%{z:.4f}"  # what every attention heatmap's hover prints (figures/attention.py, grid.py)


def assert_hover_shows(values, expected) -> None:
    """Cells read from a drawn heatmap (``None`` where empty) show ``expected`` as the
    attention heatmaps' hover prints it (``HEATMAP_HOVER``): ``assert_displays`` for the
    values a page script read without the trace's templates."""
    cells = np.array([[np.nan if v is None else v for v in row] for row in values], dtype=np.float64)
    assert_displays({"hovertemplate": HEATMAP_HOVER, "z": cells}, expected)


def traces_by_name(spec: dict) -> dict[str, dict]:
    return {trace.get("name"): trace for trace in spec["data"] if trace.get("name")}
