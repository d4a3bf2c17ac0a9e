"""One metric for every head of every block as a heatmap of cells (the explorer's and the
real models' map): how much each head attends to the previous token, the first, itself,
its induction target, or how spread its rows are.

Arrays in, Plotly figures out; every word arrives translated, by key (``figures/words.py``).
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.colors import get_colorscale

from .events import layout_meta
from .labels import plotly_safe
from .palette import WEIGHT_COLORSCALE
from .panels import MARGIN_PX
from .sizing import DEFAULT_SIZE, LINE_HEIGHT, ChartSize, text_px
from .style import BACKGROUND, COLORBAR_THICKNESS_PX, FONT_FAMILY, FONT_SIZE, TITLE_FONT_SIZE, build_figure
from .words import Words

# The metrics heatmap (its tick gap is the generation chart's too).
METRIC_CELL_PX = 56
METRIC_MAX_CELL_PX = 90
TICK_GAP_PX = 6  # between the cells and their tick labels (Plotly's tick length and padding)
WEIGHT_METRICS = ("previous", "first", "self", "induction")
# Viridis, written out as Plotly's Figure would (a page sends the builder's own dicts).
METRIC_COLORSCALE = [list(stop) for stop in get_colorscale("Viridis")]


def metric_figure(
    values: np.ndarray,
    metric: str,
    text: Words,
    limit: float | None = None,
    title: str | None = None,
    focus: tuple[int, int] | None = None,
    rows_word: str = "ex.col.block",
    size: ChartSize = DEFAULT_SIZE,
) -> go.Figure:
    """One metric for every head of every block: values (blocks, h), rows = blocks.
    Weights on a place go from 0 to 1; the entropy from 0 to ``limit`` (ln T, a uniform row's
    largest). ``size.cell_px`` fixes the cells' size (a map of many layers: numbers are written only
    while they fit); ``focus`` (block, head) is outlined; ``rows_word`` names the rows (a real
    model's are layers: "ex.col.layer"). A click on a cell sends its (row, col). size: the
    type scale and the cells' size (``ChartSize``; the width is the cells')."""
    blocks, h = values.shape
    weights = metric in WEIGHT_METRICS
    zmax = 1.0 if weights else float(limit or max(float(values.max()), 1e-6))
    scale = size.scale
    cell = (size.cell_px or min(METRIC_MAX_CELL_PX, max(METRIC_CELL_PX, 600 / max(h, 1)))) * scale
    heads = [f"{plotly_safe(text['fig.head'])} {i + 1}" for i in range(h)]
    rows = [f"{plotly_safe(text[rows_word])} {b + 1}" for b in range(blocks)]
    trace = _metric_trace(values, metric, text, heads, rows, weights, zmax, cell, scale)
    layout = _metric_layout(heads, rows, cell, text[f"ex.metric.{metric}"] if title is None else title, scale)
    if focus is not None:
        layout["shapes"] = [_focus_outline(*focus)]
    return build_figure([trace], layout)


def _metric_trace(
    values: np.ndarray,
    metric: str,
    text: Words,
    heads: list[str],
    rows: list[str],
    weights: bool,
    zmax: float,
    cell: float,
    scale: float,
) -> dict:
    """The metric's cells, its number written in each while the cells are large enough."""
    font = FONT_SIZE * scale
    write = cell >= METRIC_CELL_PX * scale * 0.75
    trace = dict(
        type="heatmap",
        z=np.asarray(values, dtype=np.float32),
        x=heads,
        y=rows,
        colorscale=WEIGHT_COLORSCALE if weights else METRIC_COLORSCALE,
        zmin=0.0,
        zmax=zmax,
        texttemplate="%{z:.2f}" if write else None,
        textfont=dict(size=font),
        name=plotly_safe(text[f"ex.metric.{metric}"]),
        colorbar=dict(thickness=COLORBAR_THICKNESS_PX, outlinewidth=0),
        hovertemplate=f"%{{y}} · %{{x}}<br>{plotly_safe(text[f'ex.metric.{metric}'])}: %{{z:.3f}}<extra></extra>",
        xgap=1,
        ygap=1,
    )
    return trace


def _metric_layout(heads: list[str], rows: list[str], cell: float, title: str, scale: float) -> dict:
    """Square cells of ``cell`` px, the rows' names on the left and the heads' under the
    cells (turned by 45° where a cell is narrower than the widest name)."""
    font = FONT_SIZE * scale
    blocks, h = len(rows), len(heads)
    top = TITLE_FONT_SIZE * scale * LINE_HEIGHT + MARGIN_PX * 2
    left = text_px(rows[-1], font) + MARGIN_PX * 2
    widest = max(text_px(head, font) for head in heads)
    rotate = cell < widest + MARGIN_PX  # narrow cells: the head labels turn by 45°
    label_px = (widest + font * LINE_HEIGHT) * math.sqrt(0.5) if rotate else font * LINE_HEIGHT
    bottom = label_px + TICK_GAP_PX + MARGIN_PX * 2
    layout = dict(
        height=round(top + blocks * cell + bottom),
        width=round(left + h * cell + 90 * scale),
        margin=dict(l=round(left), r=MARGIN_PX, t=round(top), b=round(bottom)),
        title=dict(
            text=plotly_safe(title),
            x=0.0,
            xref="paper",
            xanchor="left",
            font=dict(size=TITLE_FONT_SIZE * scale),
        ),
        xaxis=dict(side="bottom", tickfont=dict(size=font), fixedrange=True, tickangle=-45 if rotate else 0),
        yaxis=dict(autorange="reversed", tickfont=dict(size=font), fixedrange=True),
        font=dict(size=font, family=FONT_FAMILY),
        plot_bgcolor=BACKGROUND,
        meta=layout_meta(named_axes=True),
    )
    return layout


def _focus_outline(block: int, head: int) -> dict:
    """The chosen (block, head) cell's outline."""
    return dict(
        type="rect",
        xref="x",
        yref="y",
        x0=head - 0.5,
        x1=head + 0.5,
        y0=block - 0.5,
        y1=block + 0.5,
        line=dict(color="#111111", width=3),
    )
