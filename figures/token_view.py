"""One token, every head: for each (layer, head), a small bar chart of the token's attention
row (what it reads: the keys up to it) and column (who reads it: the queries from it on),
the token itself marked; and the token's strongest links as data for sentences.

Arrays in, Plotly figures out; every word arrives translated, by key (``figures/words.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import plotly.graph_objects as go

from gpt_core.tokens import POSITION_SEPARATOR, position_label
from gpt_core.window import Window

from .labels import plotly_safe
from .palette import head_color
from .panels import (
    AXIS_TITLE_FONT_PX,
    MARGIN_PX,
    MIN_TICK_FONT_PX,
    TICK_FONT_PX,
    TICK_STANDOFF_PX,
    Panel,
    categories_of,
    figure_title,
    panel_title,
    short_labels,
)
from .sizing import LABEL_PAD_PX, LINE_HEIGHT, AxisTicks, key_ticks, text_px
from .style import BACKGROUND, FONT_FAMILY, FONT_SIZE, TITLE_FONT_SIZE, build_figure
from .words import Words

DIRECTIONS = ("reads", "read_by", "both")
PANEL_HEIGHT_PX = 96
MIN_PANEL_WIDTH_PX = 120
MIN_BAR_PX = 3  # a token's slot in a panel, at least (else the heads wrap onto more rows)
PANEL_GAP_PX = 14
ROW_GAP_PX = 10
PANEL_TITLE_FONT_PX = 13
Y_TOPS = (0.02, 0.05, 0.1, 0.2, 0.5, 1.0)  # the weight axis ends at the first that holds every bar
Y_HEADROOM = 1.1  # room above the top for its tick label
READ_BY_OPACITY = 0.45
CHOSEN_FILL = "rgba(255, 196, 0, 0.28)"
WEIGHT_DECIMALS = 2


def panel_name(layer: int | None, head: int, text: Words, layer_word: str = "ex.col.block") -> str:
    """``"head 2"``, or ``"block 1 · head 2"`` in a figure of several layers (0-based in)."""
    head_part = f"{text['fig.head']} {head + 1}"
    return head_part if layer is None else f"{text[layer_word]} {layer + 1} · {head_part}"


def trace_name(layer: int | None, head: int, direction: str, text: Words, layer_word: str = "ex.col.block") -> str:
    """A bar trace's name: its panel and its direction, ``"head 2 · reads"``."""
    word = {"reads": text["tv.reads"], "read_by": text["tv.read_by"]}[direction]
    return f"{panel_name(layer, head, text, layer_word)} · {word}"


@dataclass(frozen=True)
class _Plan:
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


def _plan(
    heads: int, short: list[str], position: int, width_px: float, y_room: float, scale: float, first: int = 0
) -> _Plan:
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
            return _Plan(cols, max(panel_w, 1.0), gap, ticks, left, right)
    raise AssertionError("unreachable: the last choice always returns")


@dataclass(frozen=True)
class _Slot:
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
class _Sheet:
    """The panels' grid in pixels: each row of panels is its titles, its bars and the token
    labels under them; every layer starts a new row."""

    plan: _Plan
    title_room: float
    panel_h: float
    row_h: float
    rows_per_layer: int
    header: float
    plot_w: float
    plot_h: float
    two_lines: bool  # the panels' titles as "block 1" over "head 2" (one line is too wide)

    def slot(self, layer: int, head: int, heads: int) -> _Slot:
        plan = self.plan
        grid_row, col = layer * self.rows_per_layer + head // plan.cols, head % plan.cols
        top = grid_row * self.row_h + self.title_room
        x0 = col * (plan.panel_w + plan.gap) / self.plot_w
        y0, y1 = 1.0 - (top + self.panel_h) / self.plot_h, 1.0 - top / self.plot_h
        return _Slot(layer * heads + head + 1, col, x0, y0, y1)


def _sheet(plan: _Plan, names: list[list[str]], named: bool, width_px: float, scale: float) -> _Sheet:
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
    return _Sheet(
        plan, title_room, panel_h, row_h, rows_per_layer, header, width_px - plan.left - plan.right, plot_h, two_lines
    )


def _checked(rows: np.ndarray, columns: np.ndarray, position: int, T: int, direction: str) -> tuple[np.ndarray, ...]:
    """rows and columns as float32 (layers, h, T); ValueError or IndexError for what cannot
    be drawn."""
    rows, columns = np.asarray(rows, dtype=np.float32), np.asarray(columns, dtype=np.float32)
    if rows.ndim != 3 or rows.shape != columns.shape or rows.shape[-1] != T:
        raise ValueError(f"rows {rows.shape} and columns {columns.shape}: expected (layers, h, {T}) each")
    if not 0 <= position < T:
        raise IndexError(f"position {position} is outside the {T} tokens")
    if direction not in DIRECTIONS:
        raise ValueError(f"direction {direction!r}: one of {DIRECTIONS}")
    return rows, columns


def _y_room(y_ticks: tuple[float, float], scale: float) -> float:
    """The left margin the weight axis needs: its widest tick label and its title."""
    tick_px = TICK_FONT_PX * scale
    return (
        max(text_px(f"{tick:g}", tick_px) for tick in y_ticks)
        + LABEL_PAD_PX
        + TICK_STANDOFF_PX
        + AXIS_TITLE_FONT_PX * scale * LINE_HEIGHT
        + MARGIN_PX
    )


def _bars(
    rows: np.ndarray,
    columns: np.ndarray,
    layer: int,
    head: int,
    slot: _Slot,
    position: int,
    shown: tuple,
    categories: list[str],
    names: list[str],
    weight_word: str,
) -> list[dict]:
    """One panel's bars: the token's row up to it (what it reads), its column from it on
    (who reads it, lighter); ``names`` the traces' names in the order of ``shown``."""
    color, T = head_color(head), rows.shape[-1]
    xaxis, yaxis = f"x{slot.suffix}", f"y{slot.suffix}"
    traces = []
    for which, name in zip(shown, names, strict=True):
        span = slice(0, position + 1) if which == "reads" else slice(position, T)
        values = (rows if which == "reads" else columns)[layer, head, span]
        marker = dict(color=color) if which == "reads" else dict(color=color, opacity=READ_BY_OPACITY)
        traces.append(
            dict(
                type="bar",
                name=name,
                x=categories[span],
                y=values.tolist(),
                xaxis=xaxis,
                yaxis=yaxis,
                marker=marker,
                showlegend=False,
                hovertemplate=f"%{{x}}<br>{weight_word}: %{{y:.4f}}<extra>{plotly_safe(name)}</extra>",
            )
        )
    return traces


def _axes(
    sheet: _Sheet, slot: _Slot, categories: list[str], y_ticks: tuple[float, float], weight_word: str, scale: float
) -> dict:
    """A panel's token axis (the labels ``plan.ticks`` shows) and its weight axis, the same
    scale in every panel, its numbers and title only on the first panel of a row."""
    plan, suffix, T = sheet.plan, slot.suffix, len(categories)
    first = slot.col == 0
    xaxis = dict(
        type="category",
        categoryorder="array",
        categoryarray=categories,
        range=[-0.5, T - 0.5],
        domain=[max(0.0, slot.x0), min(1.0, slot.x0 + plan.panel_w / sheet.plot_w)],
        anchor=f"y{suffix}",
        showgrid=False,
        zeroline=False,
        ticks="",
        fixedrange=True,
        tickmode="array",
        ticklabelstandoff=TICK_STANDOFF_PX,
        tickvals=[categories[i] for i in plan.ticks.positions],
        ticktext=list(plan.ticks.texts),
        tickfont=dict(size=plan.ticks.font_px),
        tickangle=plan.ticks.angle,
        showline=True,
        linecolor="#999",
    )
    yaxis = dict(
        range=[0.0, y_ticks[-1] * Y_HEADROOM],
        domain=[max(0.0, slot.y0), min(1.0, slot.y1)],
        anchor=f"x{suffix}",
        fixedrange=True,
        tickmode="array",
        tickvals=list(y_ticks),
        ticktext=[f"{tick:g}" for tick in y_ticks],
        showticklabels=first,
        tickfont=dict(size=TICK_FONT_PX * scale),
        gridcolor="#eee",
        zeroline=False,
        ticklabelstandoff=TICK_STANDOFF_PX,
        **({"title": dict(text=weight_word, standoff=4, font=dict(size=AXIS_TITLE_FONT_PX * scale))} if first else {}),
    )
    return {f"xaxis{suffix}": xaxis, f"yaxis{suffix}": yaxis}


def _panel_title(
    sheet: _Sheet, slot: _Slot, name: str, number: int | None, head: int, layer_word: str, text: Words, scale: float
) -> dict:
    """The panel's name over it in its head's colour: on two lines where one is too wide."""
    title = (
        f"{plotly_safe(text[layer_word])} {number + 1}<br>{plotly_safe(text['fig.head'])} {head + 1}"
        if sheet.two_lines
        else plotly_safe(name)
    )
    panel = Panel(slot.index, (slot.x0, slot.x0), (slot.y0, slot.y1))
    return panel_title(title, panel, PANEL_TITLE_FONT_PX * scale, head_color(head), bold=True)


def _chosen_shade(slot: _Slot, position: int) -> dict:
    """The chosen token's slot, shaded under the bars."""
    return dict(
        type="rect",
        xref=f"x{slot.suffix}",
        yref=f"y{slot.suffix} domain",
        x0=position - 0.5,
        x1=position + 0.5,
        y0=0,
        y1=1,
        fillcolor=CHOSEN_FILL,
        line=dict(width=0),
        layer="below",
    )


def token_view_figure(
    rows: np.ndarray,
    columns: np.ndarray,
    position: int,
    labels: list[str],
    text: Words,
    direction: str = "both",
    layer_word: str | None = None,
    width_px: float = 870,
    scale: float = 1.0,
    first_layer: int = 0,
    window: Window | None = None,
) -> go.Figure:
    """Token ``position`` in every head of every layer: rows and columns are (layers, h, T)
    (``gpt_core.token_attention``). Each head is one bar chart over the tokens: bars up to the
    token are its row (what it reads), bars from it on its column (who reads it, lighter);
    ``direction`` "reads", "read_by" or "both" says which are drawn. The token's slot is
    shaded in every panel and its label always shown. ``layer_word`` (such as
    "ex.col.block") names the layers in the panels' titles, numbered from ``first_layer``
    (0-based: the layer ``rows[0]`` is); None: one layer, heads only. window: a long text's
    window (``gpt_core.window``): the bars of its keys' positions only (it should hold the
    token), labelled with their positions in the whole text."""
    rows, columns = _checked(rows, columns, position, len(labels), direction)
    first, whole_position = 0, position
    if window is not None and not window.whole:
        first = window.first_key
        rows, columns = rows[..., first : first + window.size], columns[..., first : first + window.size]
        labels, position = list(labels)[first:][: window.size], position - first
        if not 0 <= position < len(labels):
            raise IndexError(f"position {whole_position} is outside the window {list(window.keys)[:: len(labels) - 1]}")
    layers, heads = rows.shape[:2]
    named, word = layer_word is not None, layer_word or "ex.col.block"
    short, categories = short_labels(labels), categories_of(list(labels), first)
    weight_word = plotly_safe(text["ex.weight"])
    y_ticks = _weight_ticks(rows, columns, position, direction)
    plan = _plan(heads, short, position, width_px, _y_room(y_ticks, scale), scale, first)
    layer_numbers = [first_layer + layer if named else None for layer in range(layers)]
    names = [[panel_name(number, head, text, word) for head in range(heads)] for number in layer_numbers]
    sheet = _sheet(plan, names, named, width_px, scale)
    shown = ("reads", "read_by") if direction == "both" else (direction,)
    traces, layout, annotations, shapes = [], {}, [], []
    for layer, number in enumerate(layer_numbers):
        for head in range(heads):
            slot = sheet.slot(layer, head, heads)
            bar_names = [trace_name(number, head, which, text, word) for which in shown]
            traces += _bars(rows, columns, layer, head, slot, position, shown, categories, bar_names, weight_word)
            layout.update(_axes(sheet, slot, categories, y_ticks, weight_word, scale))
            annotations.append(_panel_title(sheet, slot, names[layer][head], number, head, word, text, scale))
            shapes.append(_chosen_shade(slot, position))
    token = plotly_safe(position_label(whole_position, short[position]))
    layout.update(
        height=round(sheet.header + sheet.plot_h + MARGIN_PX),
        barmode="overlay",
        bargap=0.15,
        annotations=annotations,
        shapes=shapes,
        margin=dict(l=round(plan.left), r=round(plan.right), t=round(sheet.header), b=MARGIN_PX),
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        plot_bgcolor=BACKGROUND,
        hoverlabel=dict(font=dict(size=FONT_SIZE * scale)),
        title=figure_title(_title(direction, text).format(token=token), TITLE_FONT_SIZE * scale),
    )
    return build_figure(traces, layout)


def _weight_ticks(rows: np.ndarray, columns: np.ndarray, position: int, direction: str) -> tuple[float, float]:
    """The weight axis's two ticks, half its top and its top: one scale for every panel, the
    smallest of ``Y_TOPS`` that holds the tallest bar drawn (a long text's weights are small)."""
    drawn = []
    if direction != "read_by":
        drawn.append(rows[..., : position + 1])
    if direction != "reads":
        drawn.append(columns[..., position:])
    tallest = max(float(np.max(values, initial=0.0)) for values in drawn)
    top = next((top for top in Y_TOPS if tallest <= top), Y_TOPS[-1])
    return top / 2, top


def _title(direction: str, text: Words) -> str:
    return {"reads": text["tv.title_reads"], "read_by": text["tv.title_read_by"], "both": text["tv.title_both"]}[
        direction
    ]


@dataclass(frozen=True)
class LinkWords:
    """One strongest link, ready for a sentence: layer and head 1-based (layer None: the
    figure's one layer), the other token's visible label, the weight written out."""

    layer: int | None
    head: int
    position: int
    token: str
    weight: str
    direction: str


def link_words(
    links: Sequence, labels: Sequence[str], one_layer: bool = False, decimals: int = WEIGHT_DECIMALS
) -> list[LinkWords]:
    """``gpt_core.Link``s as the words of their sentences ("layer 1 head 3 reads 'cat' at
    0.71"): the UI puts them into its strings. ``labels`` are the visible labels
    (``gpt_core.display_labels``); the token is not escaped: the page quotes it."""
    return [
        LinkWords(
            None if one_layer else link.layer + 1,
            link.head + 1,
            link.other,
            labels[link.other],
            f"{link.weight:.{decimals}f}",
            link.direction,
        )
        for link in links
    ]
