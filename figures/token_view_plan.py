"""Where the token view's panels go: how many heads to a row for the page's width, the
gaps and margins its token labels need, and each (layer, head) panel's place in the sheet.

Pure arithmetic on sizes in pixels (``figures/sizing.py`` estimates the labels' widths);
``figures/token_view.py`` draws the panels into these places.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from gpt_core.tokens import POSITION_SEPARATOR, position_label

from .labels import plotly_safe
from .panels import AXIS_TITLE_FONT_PX, MARGIN_PX, MIN_TICK_FONT_PX, TICK_FONT_PX, TICK_STANDOFF_PX
from .sizing import LABEL_PAD_PX, LINE_HEIGHT, AxisTicks, key_ticks, text_px
from .style import TITLE_FONT_SIZE

PANEL_HEIGHT_PX = 96
MIN_PANEL_WIDTH_PX = 120
MIN_BAR_PX = 3  # a token's slot in a panel, at least (else the heads wrap onto more rows)
PANEL_GAP_PX = 14
ROW_GAP_PX = 10
PANEL_TITLE_FONT_PX = 13


@dataclass(frozen=True)
class RowPlan:
    cols: int
    panel_w: float
    gap: float
    ticks: AxisTicks
    left: float
    right: float


def _ticks_through(ticks: AxisTicks, short: list[str], position: int, first: int = 0) -> AxisTicks:
    """The same labels, every ``step``-th, shifted so that the chosen token's is one of them
    (``first``: the position of ``short[0]``, in a window over a long text)."""
    positions = tuple(range(position % ticks.step, len(short), ticks.step))
    if ticks.angle == 0:
        texts = tuple(f"{first + i}<br>{plotly_safe(short[i])}" for i in positions)
        return replace(ticks, positions=positions, texts=texts)
    texts = tuple(plotly_safe(position_label(first + i, short[i])) for i in positions)
    extent = max(text_px(f"{first + i}{POSITION_SEPARATOR}{short[i]}", ticks.font_px) for i in positions)
    return replace(ticks, positions=positions, texts=texts, extent_px=extent + LABEL_PAD_PX)


def _overhang(ticks: AxisTicks, short: list[str], slot: float, first: int = 0) -> float:
    """How far the widest shown label reaches past its slot on either side."""
    if ticks.angle:
        widest = ticks.font_px * LINE_HEIGHT
    else:
        widest = max(
            max(text_px(str(first + i), ticks.font_px), text_px(short[i], ticks.font_px)) for i in ticks.positions
        )
    return max(0.0, (widest - slot) / 2)


def plan_rows(
    heads: int, short: list[str], position: int, width_px: float, y_room: float, scale: float, first: int = 0
) -> RowPlan:
    """Heads to a row (all, else half, a quarter … one) so that each panel keeps its minimum
    width; the gaps and margins wide enough for the labels reaching past a panel's edge."""
    T = len(short)
    tick_px, smallest = TICK_FONT_PX * scale, MIN_TICK_FONT_PX * scale
    need = max(MIN_PANEL_WIDTH_PX * scale, T * MIN_BAR_PX * scale)
    choices = sorted({math.ceil(heads / 2**k) for k in range(heads.bit_length() + 1)}, reverse=True)
    gap, left, right = PANEL_GAP_PX * scale, y_room, MARGIN_PX
    for cols in choices:
        rows = math.ceil(heads / cols)
        cols = math.ceil(heads / rows)  # balance the rows: 6 heads as 3 + 3
        for _ in range(4):  # the labels decide the gap, the gap the panels' width, that the labels
            panel_w = (width_px - left - right - (cols - 1) * gap) / cols
            ticks = _ticks_through(key_ticks(short, panel_w / T, tick_px, smallest, first), short, position, first)
            reach = _overhang(ticks, short, panel_w / T, first)
            wanted = (
                max(PANEL_GAP_PX * scale, 2 * reach + LABEL_PAD_PX),
                max(y_room, reach + MARGIN_PX),
                reach + MARGIN_PX,
            )
            if wanted[0] <= gap + 1e-6 and wanted[1] <= left + 1e-6 and wanted[2] <= right + 1e-6:
                break
            gap, left, right = max(gap, wanted[0]), max(left, wanted[1]), max(right, wanted[2])
        if panel_w >= need or cols == choices[-1]:
            return RowPlan(cols, max(panel_w, 1.0), gap, ticks, left, right)
    raise AssertionError("unreachable: the last choice always returns")


@dataclass(frozen=True)
class Slot:
    """One (layer, head) panel's place: its axes' number and its domain in the plot area."""

    index: int  # 1-based, the axes' number ("x", "x2" …)
    col: int
    x0: float
    y0: float
    y1: float

    @property
    def suffix(self) -> str:
        return "" if self.index == 1 else str(self.index)


@dataclass(frozen=True)
class Sheet:
    """The panels' grid in pixels: each row of panels is its titles, its bars and the token
    labels under them; every layer starts a new row."""

    plan: RowPlan
    title_room: float
    panel_h: float
    row_h: float
    rows_per_layer: int
    header: float
    plot_w: float
    plot_h: float
    two_lines: bool  # the panels' titles as "block 1" over "head 2" (one line is too wide)

    def slot(self, layer: int, head: int, heads: int) -> Slot:
        plan = self.plan
        grid_row, col = layer * self.rows_per_layer + head // plan.cols, head % plan.cols
        top = grid_row * self.row_h + self.title_room
        x0 = col * (plan.panel_w + plan.gap) / self.plot_w
        y0, y1 = 1.0 - (top + self.panel_h) / self.plot_h, 1.0 - top / self.plot_h
        return Slot(layer * heads + head + 1, col, x0, y0, y1)


def plan_sheet(plan: RowPlan, names: list[list[str]], named: bool, width_px: float, scale: float) -> Sheet:
    """Rows of ``plan.cols`` panels, each panel's title on one line if every title fits it."""
    title_px = PANEL_TITLE_FONT_PX * scale
    two_lines = named and any(
        text_px(name, title_px) > plan.panel_w + plan.gap - LABEL_PAD_PX for row in names for name in row
    )
    title_room = (2 if two_lines else 1) * title_px * LINE_HEIGHT + 4
    key_room = plan.ticks.extent_px + TICK_STANDOFF_PX
    panel_h = PANEL_HEIGHT_PX * scale
    row_h = title_room + panel_h + key_room + ROW_GAP_PX * scale
    rows_per_layer = math.ceil(len(names[0]) / plan.cols)
    header = TITLE_FONT_SIZE * scale * LINE_HEIGHT + MARGIN_PX * 2
    plot_h = len(names) * rows_per_layer * row_h
    return Sheet(
        plan, title_room, panel_h, row_h, rows_per_layer, header, width_px - plan.left - plan.right, plot_h, two_lines
    )


def weight_axis_room(y_ticks: tuple[float, float], scale: float) -> float:
    """The left margin the weight axis needs: its widest tick label and its title."""
    tick_px = TICK_FONT_PX * scale
    return (
        max(text_px(f"{tick:g}", tick_px) for tick in y_ticks)
        + LABEL_PAD_PX
        + TICK_STANDOFF_PX
        + AXIS_TITLE_FONT_PX * scale * LINE_HEIGHT
        + MARGIN_PX
    )
