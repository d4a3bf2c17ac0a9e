"""The trained-heads explorer's own figures: every block's heads as one grid, BertViz-style
lines from queries to keys, per-head metrics across blocks, and the attention of each
generated character. One head stage by stage is ``head_detail_figure``; all heads of one
block at one training step is ``heads_overview_figure``.

Arrays in, Plotly figures out; every word arrives translated, by key (``figures/words.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from plotly.colors import get_colorscale

from gpt_core.tokens import display_label
from gpt_core.window import Window

from .attention import VALUE_FONT_PX, window_title
from .events import BLANK, layer_meta, layout_meta, trace_meta
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
from .sizing import LABEL_PAD_PX, LINE_HEIGHT, text_px
from .style import (
    BACKGROUND,
    COLORBAR_THICKNESS_PX,
    FONT_FAMILY,
    FONT_SIZE,
    TITLE_FONT_SIZE,
    build_figure,
)
from .words import Words

# The grid: one square panel per (block, head).
GRID_GAP_PX = 12
GRID_MIN_PANEL_PX = 64
GRID_MAX_PANEL_PX = 220
GRID_ROW_GAP_PX = 10
GRID_TITLE_FONT_PX = 13
# The lines view.
# The metrics heatmap and the generation heatmap.
METRIC_CELL_PX = 56
METRIC_MAX_CELL_PX = 90
TICK_GAP_PX = 6  # between the cells and their tick labels (Plotly's tick length and padding)
GENERATION_ROW_PX = 24
# A few rows (a single next token's row) still get room for the colour bar's numbers and the
# rows' axis title ("generated character"), which would otherwise overlap and be cut.
GENERATION_MIN_ROWS_PX = 180
GENERATION_MIN_CELL_FOR_TEXT_PX = 14
WEIGHT_METRICS = ("previous", "first", "self", "induction")
# Viridis, written out as Plotly's Figure would (a page sends the builder's own dicts).
METRIC_COLORSCALE = [list(stop) for stop in get_colorscale("Viridis")]


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
    width_px: float,
    scale: float,
    window: Window | None = None,
) -> GridPlan:
    """Square panels as large as ``width_px`` allows (within GRID_MIN/MAX_PANEL_PX); query
    labels beside the first column, key labels under the bottom row. window: a long text's
    window, whose queries and keys alone are drawn (``labels``: all T)."""
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
    width_px: float = 870,
    scale: float = 1.0,
    window: Window | None = None,
) -> go.Figure:
    """Every head of every block: weights (blocks, h, T, T), rows = blocks, columns = heads,
    square panels titled "block b · head h" in the head's colour; query labels beside the
    first column, key labels under the bottom row. focus: (block, head), 0-based, drawn
    with a thick border. Each heatmap's ``meta`` holds its head and block, for clicks.
    window: a long text's window (``gpt_core.window``): only its cells are drawn."""
    check_rank(weights, labels, 4)
    blocks, heads = weights.shape[:2]
    plan = plan_grid(blocks, heads, labels, text, width_px, scale, window)
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


def metric_figure(
    values: np.ndarray,
    metric: str,
    text: Words,
    limit: float | None = None,
    scale: float = 1.0,
    cell_px: float | None = None,
    title: str | None = None,
    focus: tuple[int, int] | None = None,
    rows_word: str = "ex.col.block",
) -> go.Figure:
    """One metric for every head of every block: values (blocks, h), rows = blocks.
    Weights on a place go from 0 to 1; the entropy from 0 to ``limit`` (ln T, a uniform row's
    largest). ``cell_px`` fixes the cells' size (a map of many layers: numbers are written only
    while they fit); ``focus`` (block, head) is outlined; ``rows_word`` names the rows (a real
    model's are layers: "ex.col.layer"). A click on a cell sends its (row, col)."""
    blocks, h = values.shape
    weights = metric in WEIGHT_METRICS
    zmax = 1.0 if weights else float(limit or max(float(values.max()), 1e-6))
    cell = (cell_px or min(METRIC_MAX_CELL_PX, max(METRIC_CELL_PX, 600 / max(h, 1)))) * scale
    heads = [f"{plotly_safe(text['fig.head'])} {i + 1}" for i in range(h)]
    rows = [f"{plotly_safe(text[rows_word])} {b + 1}" for b in range(blocks)]
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
            text=plotly_safe(title if title is not None else text[f"ex.metric.{metric}"]),
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
    if focus is not None:
        block, head = focus
        layout["shapes"] = [
            dict(
                type="rect",
                xref="x",
                yref="y",
                x0=head - 0.5,
                x1=head + 0.5,
                y0=block - 0.5,
                y1=block + 0.5,
                line=dict(color="#111111", width=3),
            )
        ]
    return build_figure([trace], layout)


GENERATION_POSITIONS = 64  # a long context: its last this many positions, cells still legible


def generation_window(longest: int, last_positions: int = GENERATION_POSITIONS) -> int:
    """The first position the generation chart draws of contexts up to ``longest`` long."""
    return max(0, longest - last_positions)


def _generation_cells(
    rows: Sequence[np.ndarray], contexts: Sequence[Sequence[str]], first: int, width: int
) -> tuple[np.ndarray, list[list[str]]]:
    """The generation chart's cells from position ``first`` on, ``width`` wide: each row's
    weights left-aligned (NaN past a shorter context) and the key each cell reads (escaped)."""
    z = np.full((len(rows), width), np.nan, dtype=np.float32)
    keys = [["" for _ in range(width)] for _ in rows]
    for i, (row, context) in enumerate(zip(rows, contexts, strict=True)):
        if len(row) != len(context):
            raise ValueError(f"row {i} has {len(row)} weights for the context {context!r} of {len(context)} characters")
        z[i, : max(0, len(row) - first)] = row[first:]
        for j, char in enumerate(context[first:]):
            keys[i][j] = plotly_safe(display_label(char))
    return z, keys


def generation_figure(
    rows: Sequence[np.ndarray],
    chars: Sequence[str],
    contexts: Sequence[Sequence[str]],
    head: int,
    block: int,
    text: Words,
    width_px: float = 870,
    scale: float = 1.0,
    unit_word: str = "ex.col.block",
    last_positions: int = GENERATION_POSITIONS,
) -> go.Figure:
    """For each generated character (a row), the last query's weights over the context it
    read (columns: positions in that context, left-aligned; NaN where the context was
    shorter). rows: one (T_ctx,) array per character; contexts: the text each one read, or
    its tokens' labels (written in the cells while they fit, and shown on hover).
    ``unit_word`` names what ``block`` counts: ``"ex.col.layer"`` for a real model.
    last_positions: a long context's last this many positions only (``generation_window``)."""
    if not (len(rows) == len(chars) == len(contexts)):
        raise ValueError(f"{len(rows)} rows, {len(chars)} characters and {len(contexts)} contexts: one each")
    n = len(rows)
    longest = max((len(row) for row in rows), default=1)
    first = generation_window(longest, last_positions)
    width = longest - first
    z, keys = _generation_cells(rows, contexts, first, width)
    names = [
        plotly_safe(text["ex.step_label"].format(step=i + 1, char=display_label(char))) for i, char in enumerate(chars)
    ]
    font_px = TICK_FONT_PX * scale
    left = (
        max((text_px(name, font_px) for name in names), default=0.0) + MARGIN_PX * 3 + FONT_SIZE * scale * LINE_HEIGHT
    )
    cell = (width_px - left - OVERVIEW_COLORBAR_PX * scale) / width
    write = cell >= GENERATION_MIN_CELL_FOR_TEXT_PX * scale
    trace = dict(
        type="heatmap",
        z=z,
        x=list(range(first, longest)),
        y=list(range(n)),
        text=keys,
        colorscale=WEIGHT_COLORSCALE,
        zmin=0.0,
        zmax=1.0,
        hoverongaps=False,
        name=f"{plotly_safe(text[unit_word])} {block + 1} · {plotly_safe(text['fig.head'])} {head + 1}",
        meta=trace_meta(head, block),
        colorbar=dict(thickness=COLORBAR_THICKNESS_PX, outlinewidth=0),
        hovertemplate=f"%{{y}}<br>{plotly_safe(text['fig.key'])} %{{x}}: %{{text}}<br>{plotly_safe(text['ex.weight'])}: %{{z:.3f}}<extra></extra>",
        **(dict(texttemplate="%{text}", textfont=dict(size=VALUE_FONT_PX * scale)) if write else {}),
    )
    top = TITLE_FONT_SIZE * scale * LINE_HEIGHT + MARGIN_PX * 2
    # Under the rows: the position tick labels, then the axis title (never over the last row).
    bottom = font_px * LINE_HEIGHT + TICK_GAP_PX + FONT_SIZE * scale * LINE_HEIGHT + MARGIN_PX * 2
    layout = dict(
        meta=layout_meta(named_axes=True),  # rows are generation steps, not token positions
        height=round(top + max(n * GENERATION_ROW_PX, GENERATION_MIN_ROWS_PX) * scale + bottom),
        margin=dict(l=round(left), r=round(OVERVIEW_COLORBAR_PX * scale), t=round(top), b=round(bottom)),
        xaxis=dict(
            title=dict(text=plotly_safe(text["ex.position_axis"]), standoff=TICK_GAP_PX),
            tickfont=dict(size=font_px),
            dtick=1 if width <= 32 else 4,
        ),
        yaxis=dict(
            autorange="reversed",
            tickmode="array",
            tickvals=list(range(n)),
            ticktext=names,
            tickfont=dict(size=font_px),
            title=dict(text=plotly_safe(text["ex.generated_axis"]), standoff=4),
        ),
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        plot_bgcolor=BACKGROUND,
        hoverlabel=dict(font=dict(size=FONT_SIZE * scale)),
    )
    return build_figure([trace], layout)
