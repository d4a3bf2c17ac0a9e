"""A chart in words and as tables, read from the built figure itself: what it shows and its
strongest cells, for a screen reader, and the numbers behind it, for a table a student opens.

Every builder's figure is read the same way, so a page passes nothing but the figure:

- heatmap panels (the traces on one pair of axes): the values trace's ``z``, with the cells
  of the panel's layers (``meta[LAYER]``, figures/events.py) put back: −∞ where a layer marks
  them, 0 where dropout dropped them; rows and columns named by the traces' ``y`` and ``x``
  (the escaped ``"position · token"`` categories) or, for numbers, by the axis' tick texts;
- the lines view (scatter segments with ``meta.head`` and each line's weight as customdata):
  one query × key panel per head, the weight of every line drawn;
- any other scatter or bar trace with values: a series of points (a horizontal bar's values
  are its x).

Words come by string-table key (``DESCRIBE_WORDS``, figures/words.py); user text arrives
escaped for Plotly and leaves as plain text, to be escaped again for where it is shown.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from numbers import Number
from typing import Any

import numpy as np
import plotly.graph_objects as go

from .events import DROPPED, HEAD, LAYER, MINUS_INF
from .style import FigureSpec
from .words import Words

STRONGEST_CELLS = 3  # the cells a text alternative names
MINUS_INF_TEXT = "−∞"
DECIMALS = 4  # as the heatmaps' hover shows them
_TAG = re.compile(r"<[^>]*>")
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)


@dataclass(frozen=True)
class Axis:
    """Row or column names of a panel, as plain text; ``title`` prefixes a bare number."""

    labels: list[str]
    title: str = ""
    numbers: bool = False

    def spoken(self, index: int) -> str:
        label = self.labels[index]
        return f"{self.title} {label}" if self.numbers and self.title else label


@dataclass(frozen=True)
class Grid:
    """One heatmap panel: values (rows, cols), −∞ where masked, NaN where nothing is drawn."""

    name: str
    rows: Axis
    cols: Axis
    values: np.ndarray
    tokens: bool  # rows are queries and columns keys (a square of the same tokens)


@dataclass(frozen=True)
class Series:
    """One line, bar or set of points: each point's label and value (NaN: none)."""

    name: str
    x: Axis
    y: np.ndarray


@dataclass(frozen=True)
class ChartData:
    title: str  # plain text, "" when the figure has none
    grids: tuple[Grid, ...]
    series: tuple[Series, ...]


@dataclass(frozen=True)
class Description:
    label: str  # what the chart is: its title, kind and size (an accessible name)
    text: str  # the label, then each panel's strongest cells or each series' numbers


@dataclass(frozen=True)
class Table:
    name: str
    corner: str  # what the rows are
    index: list[str]
    columns: list[str]
    cells: list[list[str]]


def plain(text: Any) -> str:
    """Plotly text as plain text: line breaks as spaces, tags dropped, entities read back
    (user text was escaped by figures/labels.py, so only the builders' own tags go)."""
    if text is None:
        return ""
    return html.unescape(_TAG.sub("", _BREAK.sub(" ", str(text)))).strip()


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _axis(values: Any, size: int, figure: go.Figure, ref: str | None, which: str, seen: dict | None = None) -> Axis:
    """Names of ``size`` rows or columns: the trace's own labels, else the tick texts of its
    axis (``which`` "x" or "y", ``ref`` "x2"…; the nearest tick within half a step), else
    numbers after the axis' title. ``seen`` keeps the labels already read (every panel of a
    figure has the same tokens)."""
    values = tuple(range(size)) if values is None else tuple(values)
    if seen is not None and values in seen:
        return seen[values]
    if values and all(isinstance(value, str) for value in values):
        axis = Axis([plain(value) for value in values])
        if seen is not None:
            seen[values] = axis
        return axis
    return _numbered_axis(values, _layout_axis(figure, ref, which))


def _numbered_axis(values: tuple, layout_axis: Any) -> Axis:
    title = plain(layout_axis.title.text) if layout_axis is not None else ""
    ticks = {}
    if layout_axis is not None and layout_axis.tickvals is not None and layout_axis.ticktext is not None:
        pairs = zip(layout_axis.tickvals, layout_axis.ticktext, strict=False)
        ticks = {tick: label for tick, label in pairs if isinstance(tick, Number)}
    labels, numbers = [], False
    for value in values:
        near = min(ticks, key=lambda tick: abs(tick - value)) if ticks and isinstance(value, Number) else None
        if near is not None and abs(near - value) < 0.5:
            labels.append(plain(ticks[near]))
        else:
            labels.append(_number(value) if isinstance(value, Number) else plain(value))
            numbers = True
    return Axis(labels, title, numbers)


def _layout_axis(figure: go.Figure, ref: str | None, which: str) -> Any:
    name = which + "axis" + (ref or which)[1:]
    try:
        return figure.layout[name]
    except (KeyError, ValueError):
        return None


def _meta(trace: Any) -> dict:
    meta = trace.meta
    return meta if isinstance(meta, dict) else {}


@dataclass
class _Traces:
    """A figure's traces by what they hold, each property read once (Plotly's property
    access costs microseconds, and a chart has dozens of traces)."""

    heatmaps: list = field(default_factory=list)  # (trace, layer kind or None)
    lines: list = field(default_factory=list)  # (head, trace): the lines view's segments
    tokens: list = field(default_factory=list)  # the lines view's token columns
    points: list = field(default_factory=list)  # every other scatter or bar trace


def _sorted_traces(figure: go.Figure) -> _Traces:
    found = _Traces()
    for trace in figure.data:
        kind, meta = trace.type, _meta(trace)
        if kind == "heatmap":
            found.heatmaps.append((trace, meta.get(LAYER)))
        elif kind == "scatter" and HEAD in meta:
            found.lines.append((meta[HEAD], trace))
        elif kind in ("scatter", "bar") and trace.hoverinfo != "skip":  # skipped: bands, legend entries
            (found.tokens if kind == "scatter" and trace.mode == "markers+text" else found.points).append(trace)
    return found


def _heatmap_grids(figure: go.Figure, heatmaps: Sequence[tuple]) -> list[Grid]:
    """One grid per values trace, the cells its panel's layers mark put back."""
    panels: dict[tuple, list] = {}
    for trace, layer in heatmaps:
        panels.setdefault((trace.xaxis or "x", trace.yaxis or "y"), []).append((trace, layer))
    grids, seen = [], {}
    for (xref, yref), group in panels.items():
        for trace in [trace for trace, layer in group if layer is None]:
            values = np.array(trace.z, dtype=float, ndmin=2)
            for layer, kind in group:
                if kind in (MINUS_INF, DROPPED):
                    marked = np.isfinite(np.array(layer.z, dtype=float, ndmin=2))
                    values[marked] = -np.inf if kind == MINUS_INF else 0.0
            rows = _axis(trace.y, values.shape[0], figure, yref, "y", seen)
            cols = _axis(trace.x, values.shape[1], figure, xref, "x", seen)
            tokens = not rows.numbers and rows.labels == cols.labels
            grids.append(Grid(plain(trace.name) or plain(figure.layout.title.text), rows, cols, values, tokens))
    return grids


def _lines_grids(lines: Sequence[tuple], tokens: Sequence[Any], text: Words) -> list[Grid]:
    """The lines view as one query × key grid per head: each drawn line's weight (a trace's
    segments are (query, key, None) triples of y, each line's weight in customdata)."""
    segments = [(head, trace.y, trace.customdata) for head, trace in lines]
    segments = [(head, ends, weights) for head, ends, weights in segments if ends and weights is not None]
    if not segments:
        return []
    names = tokens[0].customdata if tokens else None
    if names is not None:
        axis = Axis([plain(name) for name in names])
    else:
        axis = Axis([str(i) for i in range(1 + int(max(y for _, ends, _ in segments for y in ends if y is not None)))])
    size, grids = len(axis.labels), {}
    for head, ends, weights in segments:
        grid = grids.setdefault(head, np.full((size, size), np.nan))
        grid[np.array(ends[0::3], dtype=int), np.array(ends[1::3], dtype=int)] = np.array(weights[0::3], dtype=float)
    return [Grid(f"{text['fig.head']} {head + 1}", axis, axis, grids[head], True) for head in sorted(grids)]


def _series(figure: go.Figure, points: Sequence[Any]) -> list[Series]:
    """Each scatter or bar trace with values as a series (a horizontal bar's are its x)."""
    found = []
    for trace in points:
        across = trace.type == "bar" and trace.orientation == "h"
        values = np.array([np.nan if v is None else v for v in (trace.x if across else trace.y) or ()], dtype=float)
        if not np.isfinite(values).any():
            continue  # a legend entry
        text = trace.text
        if isinstance(text, (list, tuple)) and len(text) == len(values):
            labels = Axis([plain(label) for label in text])
        else:
            ref, which = (trace.yaxis, "y") if across else (trace.xaxis, "x")
            labels = _axis(trace.y if across else trace.x, len(values), figure, ref, which)
        found.append(Series(plain(trace.name) or str(len(found) + 1), labels, values))
    return found


class _Props:
    """A builder's plain dict read as Plotly's objects are: attributes and items, None for
    what is not set, lists as tuples, a title given as text as {"text": …}."""

    __slots__ = ("_props",)

    def __init__(self, props: dict) -> None:
        self._props = props

    @staticmethod
    def _read(value: Any, name: str) -> Any:
        if name == "meta":
            return value  # free-form: Plotly gives it back as it was set
        if isinstance(value, dict):
            return _Props(value)
        if name == "title" and (value is None or isinstance(value, str)):
            return _Props({"text": value} if value is not None else {})  # Plotly's empty title object
        if isinstance(value, list):
            return tuple(value)
        return value

    def __getattr__(self, name: str) -> Any:
        return self._read(self._props.get(name), name)

    def __getitem__(self, name: str) -> Any:
        if name not in self._props:
            raise KeyError(name)
        return self._read(self._props[name], name)


class _SpecFigure:
    """A FigureSpec (figures/style.py) read as a Figure is by this module."""

    def __init__(self, spec: FigureSpec) -> None:
        self.data = [_Props(trace) for trace in spec.data]
        self.layout = _Props(spec.layout)


def chart_data(figure: go.Figure | FigureSpec, text: Words) -> ChartData:
    """What ``figure`` shows, as panels of cells and series of points, in plain text."""
    if isinstance(figure, FigureSpec):
        figure = _SpecFigure(figure)  # type: ignore[assignment]
    traces = _sorted_traces(figure)
    grids = _heatmap_grids(figure, traces.heatmaps) + _lines_grids(traces.lines, traces.tokens, text)
    return ChartData(plain(figure.layout.title.text), tuple(grids), tuple(_series(figure, traces.points)))


# -- words ---------------------------------------------------------------------------------
def _formatter(values: np.ndarray):
    """Whole numbers as such, others with DECIMALS; −∞ as "−∞", no value (NaN) as ""."""
    finite = values[np.isfinite(values)]
    whole = finite.size > 0 and bool(np.all(finite == np.round(finite))) and bool(np.all(np.abs(finite) < 1e15))

    def show(value: float) -> str:
        if value != value:  # NaN
            return ""
        if value == -math.inf:
            return MINUS_INF_TEXT
        return str(int(value)) if whole else f"{value:.{DECIMALS}f}"

    return show


def strongest_cells(values: np.ndarray, count: int = STRONGEST_CELLS) -> list[tuple[int, int]]:
    """The (row, col) of the ``count`` largest finite values, largest first (ties: the first
    in reading order); never a −∞ or missing cell."""
    flat = values.ravel()
    finite = np.flatnonzero(np.isfinite(flat))
    if finite.size > count:
        kth = np.partition(flat[finite], finite.size - count)[finite.size - count]
        finite = finite[flat[finite] >= kth]
    order = finite[np.lexsort((finite, -flat[finite]))][:count]
    return [divmod(int(index), values.shape[1]) for index in order]


def _grid_sentence(grid: Grid, text: Words) -> str:
    show = _formatter(grid.values)
    template = text["alt.token_cell"] if grid.tokens else text["alt.cell"]
    cells = [
        template.format(value=show(grid.values[row, col]), row=grid.rows.spoken(row), col=grid.cols.spoken(col))
        for row, col in strongest_cells(grid.values)
    ]  # fmt: skip
    if not cells:
        return text["alt.no_values"].format(name=grid.name)
    sentence = text["alt.grid"].format(name=grid.name, cells=text["alt.separator"].join(cells))
    masked = int(np.isneginf(grid.values).sum())
    return sentence + (text["alt.minus_inf"].format(count=masked) if masked else "")


def _series_sentence(series: Series, text: Words) -> str:
    show, y = _formatter(series.y), series.y
    kept = np.flatnonzero(np.isfinite(y))
    if kept.size == 1:
        return text["alt.point"].format(name=series.name, value=show(y[kept[0]]), x=series.x.spoken(kept[0]))
    first, last = kept[0], kept[-1]
    low, high = kept[np.argmin(y[kept])], kept[np.argmax(y[kept])]
    return text["alt.series"].format(
        name=series.name, count=kept.size, first=show(y[first]), first_x=series.x.spoken(first), last=show(y[last]),
        last_x=series.x.spoken(last), low=show(y[low]), low_x=series.x.spoken(low), high=show(y[high]),
        high_x=series.x.spoken(high),
    )  # fmt: skip


def _title(data: ChartData, text: Words) -> str:
    """The figure's title, else the name of its one panel or series, else "Chart"."""
    parts = [*data.grids, *data.series]
    return data.title or (parts[0].name if len(parts) == 1 else text["alt.chart"])


def _label(data: ChartData, text: Words) -> str:
    title = _title(data, text)
    if data.grids:
        rows, cols = data.grids[0].values.shape
        key = "alt.heatmap" if len(data.grids) == 1 else "alt.heatmaps"
        return text[key].format(title=title, count=len(data.grids), rows=rows, cols=cols)
    return text["alt.series_chart"].format(title=title, count=len(data.series))


def describe(data: ChartData, text: Words) -> Description:
    """The chart in words: its title, kind and size, then each panel's strongest cells (the
    largest finite values, with their row and column) or each series' first, last, lowest
    and highest values."""
    label = _label(data, text)
    sentences = [_grid_sentence(grid, text) for grid in data.grids]
    sentences += [_series_sentence(series, text) for series in data.series]
    return Description(label, " ".join([label, *sentences]))


# -- tables --------------------------------------------------------------------------------
def _series_groups(series: Sequence[Series]) -> list[list[Series]]:
    """Series over the same points together (a column each); single points together."""
    groups: list[list[Series]] = []
    for item in (item for item in series if item.y.size > 1):
        if groups and groups[-1][0].x.labels == item.x.labels:
            groups[-1].append(item)
        else:
            groups.append([item])
    points = [item for item in series if item.y.size == 1]
    return groups + ([points] if points else [])


def table_names(data: ChartData, text: Words) -> list[str]:
    """The chart's tables, by name: one per heatmap panel, then its series' (``chart_table``)."""
    names = [grid.name for grid in data.grids]
    for group in _series_groups(data.series):
        names.append(group[0].name if len(group) == 1 else data.title or text["alt.chart"])
    return names


def chart_table(data: ChartData, part: int, text: Words) -> Table:
    """Table ``part`` of ``table_names``: a panel's cells as drawn (rows × columns, −∞
    written out), or series as columns over their points (single points: a row each)."""
    if part < len(data.grids):
        grid = data.grids[part]
        show = _formatter(grid.values)
        cells = [[show(value) for value in row] for row in grid.values.tolist()]
        corner = text["alt.corner_tokens"] if grid.tokens else grid.rows.title
        return Table(grid.name, corner, grid.rows.labels, grid.cols.labels, cells)
    group = _series_groups(data.series)[part - len(data.grids)]
    name = table_names(data, text)[part]
    show = _formatter(np.concatenate([item.y for item in group]))
    if all(item.y.size == 1 for item in group):
        return Table(name, "", [item.name for item in group], [text["alt.value"]], [[show(item.y[0])] for item in group])
    cells = [[show(item.y[i]) for item in group] for i in range(group[0].y.size)]
    return Table(name, group[0].x.title, group[0].x.labels, [item.name for item in group], cells)
