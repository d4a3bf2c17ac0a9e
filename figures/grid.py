"""Every block's heads as one grid (the trained-heads explorer's first view): rows =
blocks, columns = heads, square panels planned in pixels (``figures/panels.py``).

Arrays in, Plotly figures out; every word arrives translated, by key (``figures/words.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from gpt_core.window import Window

from .attention import window_title
from .events import BLANK, layer_meta, trace_meta
from .labels import plotly_safe
from .overview import BORDER_PX, FOCUSED_BORDER_PX, OVERVIEW_COLORBAR_PX
from .palette import WEIGHT_COLORSCALE, head_color
from .panels import (
    AXIS_TITLE_FONT_PX,
    MARGIN_PX,
    TICK_FONT_PX,
    AxisLabels,
    Frame,
    Panel,
    figure_title,
    finished_layout,
    panel_axes,
    panel_border,
    panel_title,
    plan_labels,
    query_label_room,
    shared_colorbar,
    short_labels,
)
from .sizing import DEFAULT_SIZE, DEFAULT_WIDTH_PX, LABEL_PAD_PX, LINE_HEIGHT, ChartSize, text_px
from .style import TITLE_FONT_SIZE, build_figure
from .words import Words

# The grid: one square panel per (block, head).
GRID_GAP_PX = 12
GRID_MIN_PANEL_PX = 64
GRID_MAX_PANEL_PX = 220
GRID_ROW_GAP_PX = 10
GRID_TITLE_FONT_PX = 13


def panel_name(block: int, head: int, text: Words) -> str:
    """``"block 1 · head 2"`` (0-based in, 1-based out): a grid panel's title and trace name."""
    return f"{text['ex.col.block']} {block + 1} · {text['fig.head']} {head + 1}"


def check_rank(weights: np.ndarray, labels: Sequence[str], rank: int) -> None:
    T = len(labels)
    if weights.ndim != rank or weights.shape[-2:] != (T, T):
        raise ValueError(
            f"weights have shape {weights.shape}, expected {rank} dimensions ending ({T}, {T}) for tokens {list(labels)}"
        )


@dataclass(frozen=True)
class GridPlan:
    """Every (block, head) panel planned in pixels: rows = blocks, columns = heads."""

    frame: Frame
    panels: list[list[Panel]]  # [block][head]
    labels: AxisLabels
    two_line_titles: bool  # "block b" over "head h" when one line is wider than a panel


def plan_grid(
    blocks: int,
    heads: int,
    labels: Sequence[str],
    text: Words,
    size: ChartSize,
    window: Window | None = None,
) -> GridPlan:
    """Square panels as large as ``size.width_px`` (default: a projector's) allows, within
    GRID_MIN/MAX_PANEL_PX; query labels beside the first column, key labels under the bottom
    row. window: a long text's window, whose queries and keys alone are drawn (``labels``:
    all T)."""
    width_px, scale = size.width_or(DEFAULT_WIDTH_PX), size.scale
    long = window is not None and not window.whole
    first = window.first_query if long else 0
    queries = list(labels)[first:][: window.size] if long else list(labels)
    T, title_px = len(queries), GRID_TITLE_FONT_PX * scale
    left = query_label_room(short_labels(queries), TICK_FONT_PX * scale, AXIS_TITLE_FONT_PX * scale, first)
    right, gap = OVERVIEW_COLORBAR_PX * scale, GRID_GAP_PX * scale
    fit = (width_px - left - right - (heads - 1) * gap) / heads
    panel_px = max(GRID_MIN_PANEL_PX * scale, min(fit, GRID_MAX_PANEL_PX * scale))
    axes = plan_labels(labels, panel_px / T, scale, window)
    two_lines = any(
        text_px(panel_name(b, head, text), title_px) > panel_px + gap - LABEL_PAD_PX
        for b in range(blocks)
        for head in range(heads)
    )
    title_room = (2 if two_lines else 1) * title_px * LINE_HEIGHT + 4
    row_px = title_room + panel_px + GRID_ROW_GAP_PX * scale
    header = TITLE_FONT_SIZE * scale * LINE_HEIGHT + MARGIN_PX * 2
    frame = Frame(width_px, header + blocks * row_px + axes.key_room + MARGIN_PX, left, right, header, MARGIN_PX)
    panels = [
        [
            frame.panel(b * heads + head + 1, head * (panel_px + gap), b * row_px + title_room, panel_px)
            for head in range(heads)
        ]
        for b in range(blocks)
    ]
    return GridPlan(frame, panels, axes, two_lines)


def _future(shape: tuple[int, int], origin: tuple[int, int]) -> np.ndarray:
    """The cells whose key comes after their query: (query, key) of the whole text are
    ``origin`` + (row, column)."""
    rows, cols = np.indices(shape)
    return cols + origin[1] > rows + origin[0]


def _grid_future_trace(
    block: int, head: int, future: np.ndarray, panel: Panel, axes: AxisLabels, text: Words, origin: tuple[int, int]
) -> dict:
    """The masked future of one panel, transparent: a click there chooses the panel's head too
    (Plotly sends no click from a heatmap's gap)."""
    return dict(
        type="heatmap",
        z=np.where(future, np.float32(1.0), np.float32(np.nan)),
        x=axes.categories,
        y=axes.rows,
        xaxis=panel.xaxis,
        yaxis=panel.yaxis,
        colorscale=[[0, "rgba(0,0,0,0)"], [1, "rgba(0,0,0,0)"]],
        showscale=False,
        hoverongaps=False,  # no name: the panel's has it
        meta={**trace_meta(head, block, origin), **layer_meta(head, BLANK, block)},
        hovertemplate=f"{plotly_safe(text['fig.masked_reason'])}<extra>{plotly_safe(panel_name(block, head, text))}</extra>",
    )


def _grid_trace(
    weights: np.ndarray,
    block: int,
    head: int,
    panel: Panel,
    axes: AxisLabels,
    text: Words,
    colorbar: dict | None,
    future: np.ndarray,
    origin: tuple[int, int],
) -> dict:
    """One head's weights, the masked future a gap; meta names its block and head."""
    z = np.where(future, np.float32(np.nan), np.asarray(weights, dtype=np.float32))
    name = panel_name(block, head, text)
    return dict(
        type="heatmap",
        z=z,
        x=axes.categories,
        y=axes.rows,
        xaxis=panel.xaxis,
        yaxis=panel.yaxis,
        colorscale=WEIGHT_COLORSCALE,
        zmin=0.0,
        zmax=1.0,
        showscale=colorbar is not None,
        colorbar=colorbar,
        hoverongaps=False,
        name=name,
        meta=trace_meta(head, block, origin),
        hovertemplate=(
            f"{plotly_safe(text['fig.query'])} %{{y}}<br>{plotly_safe(text['fig.key'])} %{{x}}<br>"
            f"{plotly_safe(text['ex.weight'])}: %{{z:.4f}}<extra>{plotly_safe(name)}</extra>"
        ),
    )


def grid_figure(
    weights: np.ndarray,
    labels: list[str],
    text: Words,
    focus: tuple[int, int] | None = None,
    window: Window | None = None,
    size: ChartSize = DEFAULT_SIZE,
) -> go.Figure:
    """Every head of every block: weights (blocks, h, T, T), rows = blocks, columns = heads,
    square panels titled "block b · head h" in the head's colour; query labels beside the
    first column, key labels under the bottom row. focus: (block, head), 0-based, drawn
    with a thick border. Each heatmap's ``meta`` holds its head and block, for clicks.
    window: a long text's window (``gpt_core.window``): only its cells are drawn.
    size: the page's width for the chart and the type scale."""
    check_rank(weights, labels, 4)
    blocks, heads = weights.shape[:2]
    plan, scale = plan_grid(blocks, heads, labels, text, size, window), size.scale
    origin, title = (0, 0), plotly_safe(text["ex.grid_title"])
    if window is not None and not window.whole:
        weights, origin = window.cut(np.asarray(weights)), window.origin
        title += " · " + plotly_safe(window_title(window, text))
    future = _future(weights.shape[-2:], origin)
    traces, layout, annotations, shapes = [], {}, [], []
    for b, row in enumerate(plan.panels):
        for head, panel in enumerate(row):
            colorbar = shared_colorbar(plan.frame, scale) if panel.index == 1 else None
            traces.append(_grid_trace(weights[b, head], b, head, panel, plan.labels, text, colorbar, future, origin))
            if future.any():
                traces.append(_grid_future_trace(b, head, future, panel, plan.labels, text, origin))
            bottom, first = b == blocks - 1, head == 0
            layout.update(
                panel_axes(
                    panel,
                    plan.labels,
                    bottom,
                    first,
                    text["fig.key_axis"] if bottom and first else None,
                    text["fig.query_axis"] if first and b == 0 else None,
                )
            )
            name = (
                f"{plotly_safe(text['ex.col.block'])} {b + 1}<br>{plotly_safe(text['fig.head'])} {head + 1}"
                if plan.two_line_titles
                else plotly_safe(panel_name(b, head, text))
            )
            annotations.append(panel_title(name, panel, GRID_TITLE_FONT_PX * scale, head_color(head), bold=True))
            width = FOCUSED_BORDER_PX if focus == (b, head) else BORDER_PX
            shapes.append(panel_border(panel, head_color(head), width))
    layout = finished_layout(
        layout,
        plan.frame,
        scale,
        [panel for row in plan.panels for panel in row],
        annotations=annotations,
        shapes=shapes,
        title=figure_title(title, TITLE_FONT_SIZE * scale),
    )
    return build_figure(traces, layout)
