"""A chart in words and as tables: what it shows and its strongest cells, for a screen
reader, and the numbers behind it, for a table a student opens.

The chart is read from the built figure itself by ``chart_data`` (figures/chart_reading.py,
re-exported here with ``ChartData`` and ``plain`` for the pages): a page passes nothing but
the figure. Words come by string-table key (``DESCRIBE_WORDS``, figures/words.py); values
are written as the heatmaps' hover shows them, −∞ written out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .chart_reading import Axis, ChartData, Grid, Series, chart_data, plain
from .words import Words

__all__ = [
    "DECIMALS",
    "MINUS_INF_TEXT",
    "STRONGEST_CELLS",
    "Axis",
    "ChartData",
    "Description",
    "Grid",
    "Series",
    "Table",
    "chart_data",
    "chart_table",
    "describe",
    "plain",
    "strongest_cells",
    "table_names",
]

STRONGEST_CELLS = 3  # the cells a text alternative names
MINUS_INF_TEXT = "−∞"
DECIMALS = 4  # as the heatmaps' hover shows them


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
    ]
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
        name=series.name,
        count=kept.size,
        first=show(y[first]),
        first_x=series.x.spoken(first),
        last=show(y[last]),
        last_x=series.x.spoken(last),
        low=show(y[low]),
        low_x=series.x.spoken(low),
        high=show(y[high]),
        high_x=series.x.spoken(high),
    )


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
        return Table(
            name, "", [item.name for item in group], [text["alt.value"]], [[show(item.y[0])] for item in group]
        )
    cells = [[show(item.y[i]) for item in group] for i in range(group[0].y.size)]
    return Table(name, group[0].x.title, group[0].x.labels, [item.name for item in group], cells)
