"""Sizes in pixels for the attention heatmaps: how large a cell is, how many panels fit in
a row, which tick labels fit, and whether a cell has room for its value.

Plotly lays labels out in the browser; these rules choose them on the server from the
width the page has (measured by the browser, or a classroom projector's by default), so
that labels never collide and cells stay legible as T grows. Label widths are estimated
from their characters, generously (wide CJK and emoji count as a full em).
"""

from __future__ import annotations

import functools
import html
import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from gpt_core.tokens import POSITION_SEPARATOR, position_label

# The width of the page's main column when the browser has not said: a 1366×768 projector
# with the sidebar open (the presentation mode, sidebar closed, has more).
DEFAULT_WIDTH_PX = 870
DEFAULT_PRESENTING_WIDTH_PX = 1200
NARROW_EM = 0.62  # Latin letters and most symbols, a little wider than they are
DIGIT_EM = 0.55  # digits and the minus sign (tabular in Source Sans)
THIN_EM = 0.3  # . , : ; ' | and spaces
THIN = set(".,:;'|!il ")
WIDE_EM = 1.05  # CJK and other wide characters
EMOJI_EM = 1.3
LINE_HEIGHT = 1.37  # a line of text, in font sizes (a tick label's box as Chromium draws it)
LABEL_PAD_PX = 6  # between two neighbouring labels
VALUE_PAD_PX = 3  # around a value written in its cell
MAX_LABEL_CHARS = 10  # a longer token is shortened on the axes; hover shows it whole
ELLIPSIS = "…"
TEXT_WIDTHS_KEPT = 65_536  # (label, size) widths remembered, a few MB at most
# Tick plans remembered by their labels and sizes: a rerun (a seed change) plans the same
# labels for the same cells again, and fitting a chart tries each size several times. A
# page's charts of one text take 30-60 entries (a few KB each, ~30 KB for 512 tokens): the
# texts of a class at once, a few MB, ~30 MB at most.
TICKS_KEPT = 1024


@functools.lru_cache(maxsize=TEXT_WIDTHS_KEPT)
def text_px(text: str, font_px: float) -> float:
    """The estimated width of ``text`` drawn at ``font_px`` (remembered: every rerun measures
    the same labels again)."""
    width = 0.0
    for char in text:
        if ord(char) >= 0x1F000:
            width += EMOJI_EM
        elif unicodedata.east_asian_width(char) in ("W", "F"):
            width += WIDE_EM
        elif unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue  # drawn on (or between) its neighbours
        elif char.isdigit() or char in "−-+":
            width += DIGIT_EM
        elif char in THIN:
            width += THIN_EM
        else:
            width += NARROW_EM
    return width * font_px


def short_label(label: str, limit: int = MAX_LABEL_CHARS) -> str:
    return label if len(label) <= limit else label[: limit - 1] + ELLIPSIS


@dataclass(frozen=True)
class AxisTicks:
    """The labels one axis shows: every ``step``-th position, and how they are drawn."""

    step: int
    positions: tuple[int, ...]
    texts: tuple[str, ...]  # Plotly text (escaped by the caller), one per shown position
    angle: int  # 0: horizontal; -90: read upwards
    extent_px: float  # room the labels take away from the panel (height for x, width for y)
    font_px: float  # the labels' type size


def _safe(text: str) -> str:
    return html.escape(text, quote=True)  # Plotly parses tags in labels


def _line_texts(labels: Sequence[str], positions: Sequence[int], first: int = 0) -> tuple[str, ...]:
    return tuple(_safe(position_label(first + i, labels[i])) for i in positions)


def _step(count: int, room_px: float, cell_px: float) -> int:
    return max(1, min(count, math.ceil(room_px / max(cell_px, 1e-6))))


def _positions(count: int, step: int) -> tuple[int, ...]:
    return tuple(range(0, count, step))


def _font_sizes(font_px: float, min_font_px: float | None) -> list[float]:
    """``font_px``, then one pixel smaller at a time down to ``min_font_px`` (if given)."""
    sizes, size = [font_px], font_px - 1
    while min_font_px is not None and size >= min_font_px - 1e-9:
        sizes.append(size)
        size -= 1
    return sizes


def _whole_or_largest(plan, count: int, font_px: float, min_font_px: float | None) -> AxisTicks:
    """Every label at the largest size from ``font_px`` down to ``min_font_px`` that shows
    them all (a few words should each be named); else every k-th label at ``font_px``."""
    for size in _font_sizes(font_px, min_font_px):
        ticks = plan(size)
        if len(ticks.positions) == count:
            return ticks
    return plan(font_px)


def _key_ticks_at(labels: Sequence[str], cell_px: float, font_px: float, first: int = 0) -> AxisTicks:
    count = len(labels)
    widths = [max(text_px(str(first + i), font_px), text_px(label, font_px)) for i, label in enumerate(labels)]
    flat_step = _step(count, max(widths, default=0.0) + LABEL_PAD_PX, cell_px)
    upright_step = _step(count, font_px * LINE_HEIGHT, cell_px)
    flat_count = math.ceil(count / flat_step)
    # Turned on its side only for tokens of several characters, where it helps: one symbol
    # turned reads as another (a space, "␣", turned upwards reads "]").
    words = any(len(label) > 1 for label in labels)
    if not words or math.ceil(count / upright_step) < 2 * flat_count:  # flat, unless upright shows twice as many
        positions = _positions(count, flat_step)
        texts = tuple(f"{first + i}<br>{_safe(labels[i])}" for i in positions)
        return AxisTicks(flat_step, positions, texts, 0, 2 * font_px * LINE_HEIGHT + LABEL_PAD_PX, font_px)
    positions = _positions(count, upright_step)
    extent = max(text_px(f"{first + i}{POSITION_SEPARATOR}{labels[i]}", font_px) for i in positions) + LABEL_PAD_PX
    return AxisTicks(upright_step, positions, _line_texts(labels, positions, first), -90, extent, font_px)


def key_ticks(
    labels: Sequence[str], cell_px: float, font_px: float, min_font_px: float | None = None, first: int = 0
) -> AxisTicks:
    """Labels under the columns: the position above the token on two lines, unless
    "position · token" read upwards (one per line height) shows twice as many. Every label
    at a smaller size down to ``min_font_px`` when that shows them all.

    labels: plain display labels (visible and shortened); the texts come back escaped.
    first: the position of ``labels[0]`` (a window over a long text starts later)."""
    return _key_ticks(tuple(labels), cell_px, font_px, min_font_px, first)


@functools.lru_cache(maxsize=TICKS_KEPT)
def _key_ticks(
    labels: tuple[str, ...], cell_px: float, font_px: float, min_font_px: float | None, first: int
) -> AxisTicks:
    return _whole_or_largest(
        lambda size: _key_ticks_at(labels, cell_px, size, first), len(labels), font_px, min_font_px
    )


def _query_ticks_at(labels: Sequence[str], cell_px: float, font_px: float, first: int = 0) -> AxisTicks:
    step = _step(len(labels), font_px * LINE_HEIGHT, cell_px)
    positions = _positions(len(labels), step)
    extent = max((text_px(f"{first + i}{POSITION_SEPARATOR}{labels[i]}", font_px) for i in positions), default=0.0)
    return AxisTicks(step, positions, _line_texts(labels, positions, first), 0, extent + LABEL_PAD_PX, font_px)


def query_ticks(
    labels: Sequence[str], cell_px: float, font_px: float, min_font_px: float | None = None, first: int = 0
) -> AxisTicks:
    """Labels beside the rows: "position · token", one per line height; every label at a
    smaller size down to ``min_font_px`` when that shows them all. first: as for key_ticks."""
    return _query_ticks(tuple(labels), cell_px, font_px, min_font_px, first)


@functools.lru_cache(maxsize=TICKS_KEPT)
def _query_ticks(
    labels: tuple[str, ...], cell_px: float, font_px: float, min_font_px: float | None, first: int
) -> AxisTicks:
    return _whole_or_largest(
        lambda size: _query_ticks_at(labels, cell_px, size, first), len(labels), font_px, min_font_px
    )


@dataclass(frozen=True)
class PanelGrid:
    """Square panels of ``panel_px``, ``cols`` to a row."""

    cols: int
    rows: int
    panel_px: float

    def cell_px(self, count: int) -> float:
        return self.panel_px / max(count, 1)


def panel_grid(
    panels: int,
    count: int,
    available_px: float,
    gap_px: float,
    min_cell_px: float,
    max_cell_px: float,
    min_panel_px: float,
    max_panel_px: float,
    column_choices: Sequence[int] | None = None,
) -> PanelGrid:
    """The largest columns-per-row (from ``column_choices``, default all panels in one row,
    then half, then one) whose panels keep cells of at least ``min_cell_px``; the panel then
    grows with T up to what the row has room for. With one column and still no room, the
    panel takes the whole width (its cells smaller than the minimum)."""
    choices = list(column_choices or sorted({panels, math.ceil(panels / 2), min(panels, 2), 1}, reverse=True))
    need = max(min_panel_px, count * min_cell_px)
    for cols in choices:
        fit = (available_px - (cols - 1) * gap_px) / cols
        if fit >= need or cols == choices[-1]:
            rows = math.ceil(panels / cols)
            cols = math.ceil(panels / rows)  # balance the rows: 4 panels as 2 + 2, not 3 + 1
            fit = (available_px - (cols - 1) * gap_px) / cols
            wanted = max(need, min(count * max_cell_px, max_panel_px))
            return PanelGrid(cols, rows, max(1.0, min(fit, wanted)))
    raise AssertionError("unreachable: the last choice always returns")


def value_cell_px(values: Sequence[str], font_px: float) -> float:
    """The smallest cell every value's text fits inside."""
    widest = max((text_px(value, font_px) for value in values), default=0.0)
    return max(widest + VALUE_PAD_PX, font_px * LINE_HEIGHT)


def value_fits(values: Sequence[str], cell_px: float, font_px: float) -> bool:
    """Whether every value's text fits inside a cell."""
    return value_cell_px(values, font_px) <= cell_px


@dataclass(frozen=True)
class ChartSize:
    """The sizes a page gives a figure builder, as one value: the width the chart may take,
    the type scale (presentation mode's is larger), and where a builder has them, the heads to
    a row, the most height it should take, and a fixed cell size. None: the builder's own
    choice (a projector's width, as many heads to a row as stay legible, no height limit,
    cells sized to the chart). Each builder reads the sizes it has and no other.

    Frozen and compared by value: equal sizes are one key for a figure shared between the
    sessions that show the same view."""

    width_px: float | None = None
    scale: float = 1.0
    cols: int | None = None
    max_height_px: float | None = None
    cell_px: float | None = None

    def width_or(self, default_px: float) -> float:
        """The width given, else ``default_px`` (a builder's own default)."""
        return self.width_px or default_px


DEFAULT_SIZE = ChartSize()  # every size the builder's own: a projector's page
