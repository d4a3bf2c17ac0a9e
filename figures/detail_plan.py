"""Where one head's stages go in the detail view, in pixels: a panel per stage, side by side
while their cells stay legible, else in rows; under a height limit (every stage on one
screen) the largest panels that fit. ``figures.attention`` draws the plan."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from gpt_core.window import Window

from .panels import (
    AXIS_TITLE_FONT_PX,
    MARGIN_PX,
    MIN_TICK_FONT_PX,
    TICK_FONT_PX,
    AxisLabels,
    Frame,
    Panel,
    plan_labels,
    query_label_room,
    short_labels,
    wrapped_title,
)
from .sizing import DEFAULT_WIDTH_PX, LABEL_PAD_PX, LINE_HEIGHT, ChartSize, PanelGrid, key_ticks, panel_grid, text_px
from .style import TITLE_FONT_SIZE

# The detail view: one panel per stage, all in one row while cells keep MIN_CELL_PX.
DETAIL_MIN_CELL_PX = 8
# Under a height limit (raw scores and softmax on one screen) cells may be smaller, values hidden.
DETAIL_FIT_MIN_CELL_PX = 3
DETAIL_MAX_CELL_PX = 48
DETAIL_MIN_PANEL_PX = 150
DETAIL_MAX_PANEL_PX = 440
VALUE_ROOM = 1.2  # cells made room for values: up to this much larger than the values need
DETAIL_GAP_PX = 26  # between panels of a row (more when the key labels reach over)
HEADER_PX = 40  # the head's title and the legend
ROW_GAP_PX = 16
COLORBAR_BLOCK_PX = 58  # a colour bar under its panel, its numbers and its one-line note


@dataclass(frozen=True)
class DetailPlan:
    """One head's stages planned in pixels: a panel per stage, side by side while their cells
    stay legible, else in rows (the page scrolls sideways below the minimum cell)."""

    frame: Frame
    panels: list[Panel]
    labels: AxisLabels
    cols: int
    titles: dict[str, tuple[str, int]]  # stage -> (escaped Plotly text, lines)
    colorbar_tops: list[float]  # under each panel, in paper coordinates
    panel_px: float
    width: float  # the width the layout needs: more than the page's when cells need it


def _key_gap(short: list[str], cell: float, scale: float) -> float:
    """The gap between panels of a row: wider when flat key labels reach over a panel's edge."""
    T = len(short)
    keys = key_ticks(short, cell, TICK_FONT_PX * scale, MIN_TICK_FONT_PX * scale)
    overhang = 0.0
    if keys.angle == 0:
        first, last = keys.positions[0], keys.positions[-1]
        half = [max(text_px(str(i), keys.font_px), text_px(short[i], keys.font_px)) / 2 for i in (first, last)]
        overhang = max(0.0, half[1] - (T - last - 0.5) * cell) + max(0.0, half[0] - (first + 0.5) * cell)
    return max(DETAIL_GAP_PX * scale, overhang + LABEL_PAD_PX * 2)


def _detail_columns(
    stages: int, T: int, available: float, left: float, short: list[str], scale: float, cells: tuple[float, float]
) -> tuple[PanelGrid, float, float]:
    """The panels' grid, the gap between them (wider when key labels reach over) and the
    figure's width; the gap depends on the key labels, which depend on the cell size."""
    gap, width = DETAIL_GAP_PX * scale, left + available + MARGIN_PX
    for _ in range(2):
        grid = panel_grid(
            stages,
            T,
            available,
            gap,
            *cells,
            DETAIL_MIN_PANEL_PX * scale,
            DETAIL_MAX_PANEL_PX * scale,
        )
        legible = T * DETAIL_MIN_CELL_PX * scale
        if grid.panel_px < legible:  # one stage a row and still too narrow: wider than the page
            grid, width = PanelGrid(1, stages, legible), left + legible + MARGIN_PX
        needed = _key_gap(short, grid.cell_px(T), scale)
        if needed <= gap:
            break
        gap = needed
    return grid, gap, width


def _laid_out(
    names: list[str],
    labels: list[str],
    titles: Mapping[str, str],
    scale: float,
    left: float,
    grid: PanelGrid,
    gap: float,
    width: float,
    window: Window | None = None,
    every_label: list[str] | None = None,
) -> DetailPlan:
    """The plan of a chosen grid: labels, titles, the frame, each panel and colour bar.
    labels: the rows shown (a window's queries); every_label: all T, where a window is shown."""
    T, title_px = len(labels), TITLE_FONT_SIZE * scale
    axes = plan_labels(every_label or labels, grid.cell_px(T), scale, window)
    panel_px = grid.panel_px
    wrapped = {stage: wrapped_title(titles[stage], panel_px + gap - LABEL_PAD_PX, title_px) for stage in names}
    title_room = max(lines for _, lines in wrapped.values()) * title_px * LINE_HEIGHT + 4
    row_px = title_room + panel_px + axes.key_room + COLORBAR_BLOCK_PX * scale + ROW_GAP_PX
    header = HEADER_PX * scale
    frame = Frame(width, header + grid.rows * row_px + MARGIN_PX, left, MARGIN_PX, header, MARGIN_PX)
    panels, tops = [], []
    for index in range(len(names)):
        row, col = divmod(index, grid.cols)
        top = row * row_px + title_room
        panels.append(frame.panel(index + 1, col * (panel_px + gap), top, panel_px))
        tops.append(frame.y_paper(top + panel_px + axes.key_room))
    return DetailPlan(frame, panels, axes, grid.cols, wrapped, tops, panel_px, width)


def _fitted_detail(
    names: list[str],
    labels: list[str],
    titles: Mapping[str, str],
    width_px: float,
    scale: float,
    left: float,
    cells: tuple[float, float],
    max_height_px: float,
    window: Window | None = None,
    every_label: list[str] | None = None,
) -> DetailPlan | None:
    """The plan whose panels are largest (ties: more to a row) while the whole chart is at
    most ``max_height_px`` tall, in the page's width, with cells of at least ``cells[0]``;
    None when there is none."""
    count, T, short, best = len(names), len(labels), short_labels(labels), None
    available = width_px - left - MARGIN_PX
    for cols in sorted({count, math.ceil(count / 2), 1}, reverse=True):
        rows = math.ceil(count / cols)
        cols = math.ceil(count / rows)
        panel = max(DETAIL_MIN_PANEL_PX * scale, min(T * cells[1], DETAIL_MAX_PANEL_PX * scale))
        for _ in range(4):  # the labels' room depends on the cell size, the size on the room
            gap = _key_gap(short, panel / T, scale)
            panel = min(panel, (available - (cols - 1) * gap) / cols)
            plan = _laid_out(
                names, labels, titles, scale, left, PanelGrid(cols, rows, panel), gap, width_px, window, every_label
            )
            over = plan.frame.height - max_height_px
            if over <= 0.5:
                break
            panel -= over / rows
        fits = plan.frame.height <= max_height_px + 0.5 and plan.panel_px >= T * cells[0] - 1e-6
        if fits and (best is None or plan.panel_px > best.panel_px + 0.5):
            best = plan
    return best


def plan_detail(
    names: list[str],
    labels: list[str],
    titles: Mapping[str, str],
    size: ChartSize,
    value_cell_px: float = 0.0,
    window: Window | None = None,
) -> DetailPlan:
    """Where each stage's panel, title and colour bar go for a page ``size.width_px`` wide
    (default: a projector's), its type at ``size.scale``.
    value_cell_px: cells at least this large (values written in them), as long as a panel
    of T such cells is no larger than the largest panel; the stages then take more rows.
    size.max_height_px: the whole chart at most this tall (every stage on one screen) where cells
    of DETAIL_FIT_MIN_CELL_PX allow, the values' cells first; else as the width alone has it.
    window: only its queries and keys are shown (``labels`` are all T)."""
    width_px, scale, max_height_px = size.width_or(DEFAULT_WIDTH_PX), size.scale, size.max_height_px
    every_label, first = None, 0
    if window is not None and not window.whole:
        every_label, first = list(labels), window.first_query
        labels = every_label[first:][: window.size]
    T, short = len(labels), short_labels(labels)
    left = query_label_room(short, TICK_FONT_PX * scale, AXIS_TITLE_FONT_PX * scale, first)
    cells = (DETAIL_MIN_CELL_PX * scale, DETAIL_MAX_CELL_PX * scale)
    roomy = T * value_cell_px <= DETAIL_MAX_PANEL_PX * scale and value_cell_px > cells[0]
    if max_height_px is not None:
        tries = [(value_cell_px, value_cell_px * VALUE_ROOM)] if roomy else []
        for fit_cells in [*tries, (DETAIL_FIT_MIN_CELL_PX * scale, cells[1])]:
            plan = _fitted_detail(
                names, labels, titles, width_px, scale, left, fit_cells, max_height_px, window, every_label
            )
            if plan is not None:
                return plan
    if roomy:
        cells = (value_cell_px, value_cell_px * VALUE_ROOM)  # no larger than that: the rows stay short
    grid, gap, width = _detail_columns(len(names), T, width_px - left - MARGIN_PX, left, short, scale, cells)
    return _laid_out(names, labels, titles, scale, left, grid, gap, width, window, every_label)
