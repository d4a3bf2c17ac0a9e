"""All heads at once: one stage for every head as small multiples, in the heads' colours
and one colour range, laid out in pixels for the page (figures/sizing.py, figures/panels.py)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import plotly.graph_objects as go

from gpt_core.window import Window

from .attention import check_square, masked_legend_entry, stage_traces, window_title
from .detail_plan import HEADER_PX, ROW_GAP_PX
from .labels import plotly_safe
from .palette import HIGHLIGHT_COLOR, SCORE_COLORSCALE, WEIGHT_COLORSCALE, head_color
from .panels import (
    AXIS_TITLE_FONT_PX,
    MARGIN_PX,
    TICK_FONT_PX,
    AxisLabels,
    Frame,
    Panel,
    cell_outline,
    figure_title,
    finished_layout,
    panel_axes,
    panel_border,
    panel_title,
    plan_labels,
    query_label_room,
    row_outline,
    shared_colorbar,
    short_labels,
    top_legend,
)
from .sizing import DEFAULT_SIZE, DEFAULT_WIDTH_PX, LINE_HEIGHT, ChartSize, PanelGrid, panel_grid
from .stage_colors import Look, is_weights, score_range
from .style import TITLE_FONT_SIZE, build_figure
from .words import Words

# The overview: small multiples, one per head.
OVERVIEW_MIN_CELL_PX = 3
OVERVIEW_MAX_CELL_PX = 34
OVERVIEW_MIN_PANEL_PX = 125
# Under a height limit (every head on the first screen), panels may be smaller, down to this.
OVERVIEW_MIN_FIT_PANEL_PX = 96
OVERVIEW_MAX_PANEL_PX = 280
OVERVIEW_COLUMN_CHOICES = (4, 3, 2, 1)
OVERVIEW_GAP_PX = 18
OVERVIEW_COLORBAR_PX = 64  # right margin: the shared colour bar and its numbers
OVERVIEW_COLORBAR_MAX_PX = 260  # figures/panels.COLORBAR_MAX_PX
FOCUSED_BORDER_PX = 5
BORDER_PX = 1.5


@dataclass(frozen=True)
class OverviewPlan:
    """Small multiples planned in pixels: the frame, one panel per head, the labels, and
    which panels label their keys (those with no panel below)."""

    frame: Frame
    panels: list[Panel]
    labels: AxisLabels
    cols: int
    labelled: list[bool]


def _row_tops(heads: int, cols: int, panel_px: float, axes: AxisLabels, scale: float) -> tuple[list[float], float]:
    """Each row's panel top below the header, and the rows' whole height (key labels under
    the rows that have a panel with none below it)."""
    title_room = TITLE_FONT_SIZE * scale * LINE_HEIGHT + 4
    rows = math.ceil(heads / cols)
    labelled = [head + cols >= heads for head in range(heads)]
    row_tops, top = [], 0.0
    for row in range(rows):
        row_tops.append(top + title_room)
        keys_below = any(labelled[row * cols : (row + 1) * cols])
        top += title_room + panel_px + (axes.key_room if keys_below else 0.0) + ROW_GAP_PX
    return row_tops, top


def _chart_height(heads: int, cols: int, panel_px: float, axes: AxisLabels, scale: float) -> float:
    return HEADER_PX * scale + _row_tops(heads, cols, panel_px, axes, scale)[1] + MARGIN_PX


def _fitted_grid(
    heads: int,
    labels: list[str],
    room: float,
    gap: float,
    scale: float,
    max_height_px: float,
    choices: list[int],
    window: Window | None = None,
) -> PanelGrid | None:
    """The grid whose panels are largest while the whole chart is at most ``max_height_px``
    tall (ties: more to a row), or None when no grid keeps legible panels that low."""
    T, best = (window.size if window is not None else len(labels)), None
    smallest = max(OVERVIEW_MIN_FIT_PANEL_PX * scale, T * OVERVIEW_MIN_CELL_PX * scale)
    for cols in choices:
        rows = math.ceil(heads / cols)
        cols = math.ceil(heads / rows)
        panel = min(
            (room - (cols - 1) * gap) / cols,
            max(smallest, min(T * OVERVIEW_MAX_CELL_PX * scale, OVERVIEW_MAX_PANEL_PX * scale)),
        )
        for _ in range(3):  # the key labels' room depends on the cell size, the size on the room
            axes = plan_labels(labels, panel / T, scale, window)
            fixed = _chart_height(heads, cols, 0.0, axes, scale)
            panel = min(panel, (max_height_px - fixed) / rows)
        if (
            panel >= smallest
            and _chart_height(heads, cols, panel, plan_labels(labels, panel / T, scale, window), scale)
            <= max_height_px + 0.5
            and (best is None or panel > best.panel_px + 0.5)
        ):
            best = PanelGrid(cols, rows, panel)
    return best


def plan_overview(
    heads: int,
    labels: list[str],
    size: ChartSize,
    window: Window | None = None,
) -> OverviewPlan:
    """Where each head's panel goes for a page ``size.width_px`` wide (default: a
    projector's): ``size.cols`` to a row, else as many as keep their cells legible; key
    labels under a panel with none below. size.max_height_px: the chart
    at most this tall where a grid of legible panels allows (the first screen holds every
    head), the panels centred in the width they leave; else as the width alone would have it.
    window: a long text's window, whose queries and keys alone are drawn (``labels``: all T)."""
    width_px, scale, cols, max_height_px = size.width_or(DEFAULT_WIDTH_PX), size.scale, size.cols, size.max_height_px
    long = window is not None and not window.whole
    T = window.size if long else len(labels)
    first = window.first_query if long else 0
    shown = list(labels)[first:][:T]
    left = query_label_room(short_labels(shown), TICK_FONT_PX * scale, AXIS_TITLE_FONT_PX * scale, first)
    right, gap = OVERVIEW_COLORBAR_PX * scale, OVERVIEW_GAP_PX * scale
    choices = [cols] if cols else [c for c in OVERVIEW_COLUMN_CHOICES if c <= heads] or [1]
    room = width_px - left - right
    grid = (
        None if max_height_px is None else _fitted_grid(heads, labels, room, gap, scale, max_height_px, choices, window)
    )
    if grid is None:
        grid = panel_grid(
            heads,
            T,
            room,
            gap,
            OVERVIEW_MIN_CELL_PX * scale,
            OVERVIEW_MAX_CELL_PX * scale,
            OVERVIEW_MIN_PANEL_PX * scale,
            OVERVIEW_MAX_PANEL_PX * scale,
            column_choices=choices,
        )
    axes = plan_labels(labels, grid.cell_px(T), scale, window)
    labelled = [head + grid.cols >= heads for head in range(heads)]
    row_tops, top = _row_tops(heads, grid.cols, grid.panel_px, axes, scale)
    frame = Frame(width_px, HEADER_PX * scale + top + MARGIN_PX, left, right, HEADER_PX * scale, MARGIN_PX)
    spare = 0.0 if max_height_px is None else max(0.0, room - grid.cols * grid.panel_px - (grid.cols - 1) * gap) / 2
    panels = [
        frame.panel(
            head + 1, spare + (head % grid.cols) * (grid.panel_px + gap), row_tops[head // grid.cols], grid.panel_px
        )
        for head in range(heads)
    ]
    return OverviewPlan(frame, panels, axes, grid.cols, labelled)


def stage_look(matrices: np.ndarray, stage: str) -> Look:
    """One colour range for every head: weights 0 to 1, scores centred on 0."""
    if is_weights(stage):
        return Look(WEIGHT_COLORSCALE, 0.0, 1.0)
    limit = score_range(list(matrices))
    return Look(SCORE_COLORSCALE, -limit, limit, 0.0)


def _head_panels(
    matrices: np.ndarray,
    stage: str,
    plan: OverviewPlan,
    look: Look,
    text: Words,
    focus: int | None,
    highlight: tuple[int, int] | None,
    origin: tuple[int, int],
    scale: float,
) -> tuple[list[dict], dict, list[dict], list[dict]]:
    """Each head's panel: its stage's layers (the first with the shared colour bar), axes,
    title and border (thicker on ``focus``), the ``highlight`` cell outlined;
    returned as traces, layout axes, annotations and shapes."""
    traces, layout, annotations, shapes = [], {}, [], []
    for head, panel in enumerate(plan.panels):
        colorbar = shared_colorbar(plan.frame, scale) if head == 0 else None
        traces += stage_traces(
            matrices[head],
            plan.labels.categories,
            stage,
            head,
            panel,
            text,
            replace(look, colorbar=colorbar),
            rows=plan.labels.rows,
            origin=origin,
        )
        first_col = head % plan.cols == 0
        layout.update(
            panel_axes(
                panel,
                plan.labels,
                plan.labelled[head],
                first_col,
                text["fig.key_axis"] if plan.labelled[head] and first_col else None,
                text["fig.query_axis"] if head == 0 else None,
            )
        )
        name = f"{plotly_safe(text['fig.head'])} {head + 1}"
        annotations.append(panel_title(name, panel, TITLE_FONT_SIZE * scale, head_color(head), bold=True))
        shapes.append(panel_border(panel, head_color(head), FOCUSED_BORDER_PX if head == focus else BORDER_PX))
        if highlight is not None:
            shapes.append(cell_outline(panel, *highlight, HIGHLIGHT_COLOR))
    return traces, layout, annotations, shapes


def _row_outlines(plan: OverviewPlan, query: int | None, window: Window | None) -> list[dict]:
    """``query``'s row, keys 0 to ``query``, outlined in every panel: in a window, the part of
    it the window holds (none when the window does not hold the row)."""
    if query is None:
        return []
    first, last, row = 0, query, query
    if window is not None and not window.whole:
        if query not in window.queries or window.first_key > query:
            return []
        row, first = query - window.first_query, 0
        last = min(query, window.first_key + window.size - 1) - window.first_key
    return [row_outline(panel, row, first, last, HIGHLIGHT_COLOR) for panel in plan.panels]


def heads_overview_figure(
    matrices: np.ndarray,
    labels: list[str],
    stage: str,
    text: Words,
    focus: int | None = None,
    title: str | None = None,
    highlight: tuple[int, int] | None = None,
    window: Window | None = None,
    size: ChartSize = DEFAULT_SIZE,
    outline_row: int | None = None,
) -> go.Figure:
    """Small multiples: one stage for every head. matrices: (h, T, T). title: the figure's
    title (plain text; default the stage's), such as a training snapshot's step and block.

    All heads share one colour range, so they can be compared. The focused head (0-based)
    has a thicker border in its colour. Query labels are beside the first column, key labels
    under the panels with none below. size: the page's width for the chart, the type scale,
    the heads to a row and the most height (``ChartSize``; ``plan_overview``).
    highlight: a (query, key) cell outlined in every panel (two set-ups compared).
    window: a long text's window (``gpt_core.window``): each head shows only its cells, in
    the colour range of the whole matrices, labelled with their positions in the text.
    outline_row: a query whose row is outlined in every panel, from the first key to its own
    (the causal part; a generation's new row beside the matrix it completes).
    """
    check_square("matrices", matrices, labels)
    if outline_row is not None and not 0 <= outline_row < matrices.shape[-1]:
        raise IndexError(f"outline_row {outline_row} is outside the {matrices.shape[-1]} queries")
    plan, scale = plan_overview(matrices.shape[0], labels, size, window), size.scale
    look = stage_look(matrices, stage)
    origin = (0, 0)
    if window is not None and not window.whole:
        matrices, origin, highlight = window.cut(np.asarray(matrices)), window.origin, window.local(highlight)
        title = f"{text[f'stage.{stage}'] if title is None else title} · {window_title(window, text)}"
    traces, layout, annotations, shapes = _head_panels(
        matrices, stage, plan, look, text, focus, highlight, origin, scale
    )
    if stage == "masked_scores":
        traces.append(masked_legend_entry(text))
    shapes += _row_outlines(plan, outline_row, window)
    layout = finished_layout(
        layout,
        plan.frame,
        scale,
        plan.panels,
        annotations=annotations,
        shapes=shapes,
        legend=top_legend(scale),
        title=figure_title(plotly_safe(text[f"stage.{stage}"] if title is None else title), TITLE_FONT_SIZE * scale),
    )
    return build_figure(traces, layout)
