"""Is every Plotly chart on a page legible? Read the boxes of its texts and plot areas in the
page, then check them in plain Python (unit-tested in tests/unit/test_legibility_harness.py).

What is read, per chart (``.js-plotly-plot``), in page coordinates (viewport position plus the
scroll offsets of every scrolling ancestor, so boxes read at different scroll positions agree):

- tick labels of every axis (``g.xtick``, ``g.x2tick``, ``g.y3tick``… under the axis layers)
  with their axis id and tick value, and colour-bar tick labels (axis ``None``);
- titles: panel titles (annotations, ``.annotation-text``), the figure title (``.gtitle``),
  axis titles (``.xtitle``, ``.x2title``, ``.ytitle``…), colour-bar titles and legend texts;
- each subplot's plot area (``_fullLayout._plots[id].xaxis/yaxis._offset/_length``), its axes
  and, for heatmap subplots, the number of categories (tokens) its heatmap shows;
- the chart's own drawing area (its main ``svg``): whatever lies outside it is cut off.

What is checked, with ``TOLERANCE_PX`` of slack everywhere (boxes may touch or share 1 px):

- ``collisions``: no two texts of a chart overlap (tick labels within an axis and across axes,
  tick labels and titles, titles and titles);
- ``intrusions``: no tick label reaches into the plot area of a subplot that is not its own
  axis's (colour-bar labels have no plot area of their own: none may be entered);
- ``clipped``: no text is cut off by the edge of its chart;
- ``label_problems``: heatmap panels that start a row (nothing to their left) show at least one
  y label, panels that end a column (nothing below) at least one x label; every label shown on
  a heatmap axis reads ``"<position> · <token>"`` with the position of its own row or column.

Texts that are empty or only whitespace, or that draw nothing (zero size, hidden), are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TOLERANCE_PX = 1.0
TICK = "tick"  # kinds of text
COLORBAR_TICK = "colorbar tick"
PANEL_TITLE = "panel title"
FIGURE_TITLE = "figure title"
AXIS_TITLE = "axis title"
COLORBAR_TITLE = "colorbar title"
LEGEND = "legend"
# "3 · 学", or the position on its own line above the token ("3\n学"), or the position alone
POSITION_LABEL = re.compile(r"^\s*(\d+)(?: · |\n|$)")
# Bidi marks and isolates a label may carry so that "16 · ו" reads left to right in any
# context (U+200E/F, U+202A–E, U+2066–9): invisible, ignored when reading the position.
BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")

# Read every visible Plotly chart: texts, subplots, drawing area. Argument: a chart index, or
# null for all charts. Charts that are not displayed (an inactive tab) come back with
# visible: false and nothing else.
READ_CHARTS_JS = r"""(only) => {
  const charts = Array.from(document.querySelectorAll('.js-plotly-plot'));
  const picked = only === null || only === undefined ? charts.map((_, i) => i) : [only];
  function scrollOffset(el) {
    let x = window.scrollX, y = window.scrollY;
    for (let p = el.parentElement; p; p = p.parentElement) { x += p.scrollLeft; y += p.scrollTop; }
    return [x, y];
  }
  function shown(el, stop) {
    for (let e = el; e && e !== stop; e = e.parentElement || e.parentNode) {
      if (!(e instanceof Element)) break;
      const style = getComputedStyle(e);
      if (style.display === 'none' || style.visibility === 'hidden' || parseFloat(style.opacity) === 0) return false;
    }
    return true;
  }
  return picked.map(index => {
    const gd = charts[index];
    const rect = gd.getBoundingClientRect();
    const title = (gd._fullLayout && gd._fullLayout.title && gd._fullLayout.title.text) || '';
    if (!gd._fullLayout || rect.width === 0 || rect.height === 0 || !shown(gd, null)) {
      return {index, visible: false, title, texts: [], subplots: [], svg: null};
    }
    const [sx, sy] = scrollOffset(gd);
    const box = r => [r.left + sx, r.top + sy, r.right + sx, r.bottom + sy];
    const svg = gd.querySelector('svg.main-svg');
    const svgRect = svg.getBoundingClientRect();
    const texts = [];
    function add(el, kind, axis, value) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || !shown(el, gd)) return;
      const lines = el.querySelectorAll('tspan.line');  // a label of several lines (<br>)
      const text = lines.length ? Array.from(lines, line => line.textContent).join('\n') : (el.textContent || '');
      texts.push({kind, text, box: box(r), axis, value});
    }
    for (const el of gd.querySelectorAll('g[class$="tick"] > text')) {
      const group = el.parentNode;
      const cls = Array.from(group.classList).find(c => /tick$/.test(c)) || '';
      const data = group.__data__ || {};
      const value = typeof data.x === 'number' ? data.x : null;
      if (el.closest('.cbaxis')) add(el, 'colorbar tick', null, value);
      else {
        const m = cls.match(/^([xy]\d*)tick$/);
        if (m) add(el, 'tick', m[1], value);
      }
    }
    for (const el of gd.querySelectorAll('.annotation-text')) add(el, 'panel title', null, null);
    for (const el of gd.querySelectorAll('text.gtitle')) add(el, 'figure title', null, null);
    for (const el of gd.querySelectorAll('.infolayer text')) {
      const cls = el.getAttribute('class') || '';
      if (/^[xy]\d*title$/.test(cls)) add(el, 'axis title', cls.replace('title', ''), null);
      else if (/cbtitle/.test(cls) || el.closest('.cbtitle')) add(el, 'colorbar title', null, null);
    }
    for (const el of gd.querySelectorAll('.legendtext')) add(el, 'legend', null, null);
    const subplots = [];
    const left = svgRect.left + sx, top = svgRect.top + sy;
    for (const [id, plot] of Object.entries(gd._fullLayout._plots || {})) {
      const xa = plot.xaxis, ya = plot.yaxis;
      if (!xa || !ya) continue;
      let tokens = null, rows = null, cols = null, xFirst = 0, yFirst = 0;
      const named = !!(gd.layout && gd.layout.meta && gd.layout.meta.namedAxes);  // figures/events.py NAMED_AXES
      // Where an axis starts in the whole text: a window's first "position · token", or, for
      // an axis in tokens (a long text's map), 0 and as many positions as its last value.
      const first = values => {
        const found = values && values.length ? /^(\d+) ·/.exec(String(values[0])) : null;
        return found ? Number(found[1]) : 0;
      };
      const span = (values, count) => values && values.length && typeof values[0] === 'number'
        ? Math.ceil(values[values.length - 1]) + 1 : count;
      for (const trace of (named ? [] : gd._fullData || [])) {
        if (trace.type !== 'heatmap' || trace.visible !== true) continue;
        if (trace.xaxis !== xa._id || trace.yaxis !== ya._id) continue;
        const z = trace.z || [];
        cols = Math.max(cols || 0, span(trace.x, trace.x ? trace.x.length : (z[0] ? z[0].length : 0)));
        rows = Math.max(rows || 0, span(trace.y, trace.y ? trace.y.length : z.length));
        tokens = Math.max(tokens || 0, trace.x ? trace.x.length : z.length);
        xFirst = first(trace.x);
        yFirst = first(trace.y);
      }
      subplots.push({id, xaxis: xa._id, yaxis: ya._id, tokens, rows, cols, xFirst, yFirst,
        box: [left + xa._offset, top + ya._offset, left + xa._offset + xa._length, top + ya._offset + ya._length]});
    }
    return {index, visible: true, title, texts, subplots, svg: box(svgRect)};
  });
}"""


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    @classmethod
    def of(cls, values) -> Box:
        x0, y0, x1, y1 = values
        return cls(float(x0), float(y0), float(x1), float(y1))

    def overlap(self, other: Box) -> tuple[float, float]:
        """Width and height of the common part (negative: the gap between them)."""
        return min(self.x1, other.x1) - max(self.x0, other.x0), min(self.y1, other.y1) - max(self.y0, other.y0)

    def intersects(self, other: Box, tolerance: float = TOLERANCE_PX) -> bool:
        """Whether they share more than ``tolerance`` px both across and down."""
        width, height = self.overlap(other)
        return width > tolerance and height > tolerance

    def inside(self, other: Box, tolerance: float = TOLERANCE_PX) -> bool:
        return (
            self.x0 >= other.x0 - tolerance
            and self.y0 >= other.y0 - tolerance
            and self.x1 <= other.x1 + tolerance
            and self.y1 <= other.y1 + tolerance
        )

    def __str__(self) -> str:
        return f"[x {self.x0:.1f}–{self.x1:.1f}, y {self.y0:.1f}–{self.y1:.1f}]"


@dataclass(frozen=True)
class Text:
    kind: str
    text: str
    box: Box
    axis: str | None = None  # a tick label's axis id ("x", "y3"); None for other texts
    value: float | None = None  # a tick label's value (a category axis: the category's index)

    def __str__(self) -> str:
        where = f" of axis {self.axis}" if self.axis else ""
        return f"{self.kind}{where} {self.text!r} {self.box}"


@dataclass(frozen=True)
class Subplot:
    id: str
    xaxis: str
    yaxis: str
    box: Box
    tokens: int | None = None  # a heatmap subplot: its number of columns; else None
    rows: int | None = None  # a heatmap subplot: rows (tokens) and columns (tokens, or channels)
    cols: int | None = None
    x_first: int = 0  # a long text's window: the position of its first column
    y_first: int = 0  # and of its first row

    def positions(self, side: str) -> int | None:
        """How many positions the heatmap has along its ``side`` ("x" or "y") axis."""
        count = self.rows if side == "y" else self.cols
        return count if count is not None else self.tokens

    def first(self, side: str) -> int:
        """The position of the heatmap's first row ("y") or column ("x") in the whole text."""
        return self.y_first if side == "y" else self.x_first


@dataclass
class Chart:
    index: int
    title: str
    texts: list[Text] = field(default_factory=list)
    subplots: list[Subplot] = field(default_factory=list)
    area: Box | None = None

    @property
    def name(self) -> str:
        return f"chart {self.index + 1}" + (f" ({self.title!r})" if self.title else "")


def parse_charts(raw: list[dict]) -> list[Chart]:
    """Charts from READ_CHARTS_JS's answer; charts that are not displayed are left out."""
    charts = []
    for entry in raw:
        if not entry.get("visible"):
            continue
        texts = [
            Text(t["kind"], t["text"], Box.of(t["box"]), t.get("axis"), t.get("value"))
            for t in entry["texts"]
            if is_legible_text(t["text"])
        ]
        subplots = [
            Subplot(
                s["id"],
                s["xaxis"],
                s["yaxis"],
                Box.of(s["box"]),
                s.get("tokens"),
                s.get("rows"),
                s.get("cols"),
                s.get("xFirst", 0),
                s.get("yFirst", 0),
            )
            for s in entry["subplots"]
        ]
        area = Box.of(entry["svg"]) if entry.get("svg") else None
        charts.append(Chart(entry["index"], _plain(entry.get("title") or ""), texts, subplots, area))
    return charts


def _plain(title: str) -> str:
    return re.sub(r"<[^>]+>", "", title)


def is_legible_text(text: str) -> bool:
    """Whether a text draws something to read (not empty, not only whitespace)."""
    return bool(text) and not text.isspace()


def collisions(texts: list[Text], tolerance: float = TOLERANCE_PX) -> list[tuple[Text, Text]]:
    """Every pair of texts whose boxes overlap by more than ``tolerance``."""
    ordered = sorted(texts, key=lambda t: t.box.x0)
    found = []
    for i, first in enumerate(ordered):
        for second in ordered[i + 1 :]:
            if second.box.x0 >= first.box.x1 - tolerance:
                break  # sorted by left edge: nothing further right can overlap ``first``
            if first.box.intersects(second.box, tolerance):
                found.append((first, second))
    return found


def own_subplots(text: Text, subplots: list[Subplot]) -> set[str]:
    """The subplots whose axes include the tick label's axis (none for other texts)."""
    if text.axis is None:
        return set()
    side = "xaxis" if text.axis.startswith("x") else "yaxis"
    return {s.id for s in subplots if getattr(s, side) == text.axis}


def intrusions(
    texts: list[Text], subplots: list[Subplot], tolerance: float = TOLERANCE_PX
) -> list[tuple[Text, Subplot]]:
    """Tick labels (of axes and colour bars) reaching into another subplot's plot area."""
    found = []
    for text in texts:
        if text.kind not in (TICK, COLORBAR_TICK):
            continue
        own = own_subplots(text, subplots)
        for subplot in subplots:
            if subplot.id not in own and text.box.intersects(subplot.box, tolerance):
                found.append((text, subplot))
    return found


def clipped(texts: list[Text], area: Box | None, tolerance: float = TOLERANCE_PX) -> list[Text]:
    """Texts not wholly inside the chart's drawing area: the chart's edge cuts them off."""
    if area is None:
        return []
    return [text for text in texts if not text.box.inside(area, tolerance)]


def _ranges_overlap(a0: float, a1: float, b0: float, b1: float, tolerance: float) -> bool:
    return min(a1, b1) - max(a0, b0) > tolerance


def first_column(subplot: Subplot, subplots: list[Subplot], tolerance: float = TOLERANCE_PX) -> bool:
    """No other subplot lies to its left in the same row (their heights overlap)."""
    return not any(
        other.id != subplot.id
        and other.box.x1 <= subplot.box.x0 + tolerance
        and _ranges_overlap(subplot.box.y0, subplot.box.y1, other.box.y0, other.box.y1, tolerance)
        for other in subplots
    )


def bottom_row(subplot: Subplot, subplots: list[Subplot], tolerance: float = TOLERANCE_PX) -> bool:
    """No other subplot lies below it in the same column (their widths overlap)."""
    return not any(
        other.id != subplot.id
        and other.box.y0 >= subplot.box.y1 - tolerance
        and _ranges_overlap(subplot.box.x0, subplot.box.x1, other.box.x0, other.box.x1, tolerance)
        for other in subplots
    )


def label_problems(texts: list[Text], subplots: list[Subplot]) -> list[str]:
    """Heatmap axes that must show labels and show none; shown labels without their position."""
    heatmaps = [s for s in subplots if s.tokens]
    problems = []
    for subplot in heatmaps:
        for side, needed in (("y", first_column(subplot, heatmaps)), ("x", bottom_row(subplot, heatmaps))):
            axis = subplot.yaxis if side == "y" else subplot.xaxis
            labels = [t for t in texts if t.kind == TICK and t.axis == axis]
            if needed and not labels:
                where = "starts a row" if side == "y" else "ends a column"
                problems.append(f"subplot {subplot.id} {where} but its {side} axis {axis} shows no label")
            count, start = subplot.positions(side), subplot.first(side)
            for label in labels:
                match = POSITION_LABEL.match(BIDI_CONTROLS.sub("", label.text))
                position = int(match.group(1)) if match else None
                if position is None or not start <= position < start + count:
                    problems.append(
                        f"{label} on subplot {subplot.id} does not start with a position in {start}…{start + count - 1}"
                    )
                elif (
                    label.value is not None and float(label.value).is_integer() and start + int(label.value) != position
                ):
                    problems.append(
                        f"{label} on subplot {subplot.id} names position {position} at tick {label.value:g}"
                    )
    return problems


def problems(chart: Chart, tolerance: float = TOLERANCE_PX) -> list[str]:
    """Everything illegible in ``chart``, one line each, naming the chart, texts and boxes."""
    lines = [f"{chart.name}: {a} overlaps {b}" for a, b in collisions(chart.texts, tolerance)]
    lines += [
        f"{chart.name}: {text} reaches into the plot area of subplot {subplot.id} {subplot.box}"
        for text, subplot in intrusions(chart.texts, chart.subplots, tolerance)
    ]
    lines += [
        f"{chart.name}: {text} is cut off by the chart's edge {chart.area}"
        for text in clipped(chart.texts, chart.area, tolerance)
    ]
    lines += [f"{chart.name}: {line}" for line in label_problems(chart.texts, chart.subplots)]
    return lines


def read_charts(page, index: int | None = None) -> list[Chart]:
    """The displayed charts of a Playwright page (or only chart ``index``), as drawn now."""
    return parse_charts(page.evaluate(READ_CHARTS_JS, index))


STABLE_READS = 2  # the same boxes this many times in a row: Plotly and Streamlit are done
STABLE_POLL_MS = 250
STABLE_TRIES = 40


def settled_charts(page, index: int | None = None) -> list[Chart]:
    """The charts (or only chart ``index``) once two readings in a row agree (layout and
    re-renders settled), or the last reading after STABLE_TRIES."""
    last, same = None, 0
    for _ in range(STABLE_TRIES):
        charts = read_charts(page, index)
        same = same + 1 if charts == last else 1
        if same >= STABLE_READS:
            return charts
        last = charts
        page.wait_for_timeout(STABLE_POLL_MS)
    return last or []
