"""A built figure read back as data: its panels of cells and its series of points, in plain
text, so that figures/describe.py can put it into words and tables.

Every builder's figure is read the same way, so a page passes nothing but the figure (or the
builder's FigureSpec, figures/style.py, read as the Figure would be):

- heatmap panels (the traces on one pair of axes): the values trace's ``z``, with the cells
  of the panel's layers (``meta[LAYER]``, figures/events.py) put back: −∞ where a layer marks
  them, 0 where dropout dropped them; rows and columns named by the traces' ``y`` and ``x``
  (the escaped ``"position · token"`` categories) or, for numbers, by the axis' tick texts;
- the lines view (scatter segments with ``meta.head`` and each line's weight as customdata):
  one query × key panel per head, the weight of every line drawn;
- any other scatter or bar trace with values: a series of points (a horizontal bar's values
  are its x).

User text arrives escaped for Plotly and leaves as plain text, to be escaped again for where
it is shown.
"""

from __future__ import annotations

import html
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
