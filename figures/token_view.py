"""One token, every head: for each (layer, head), a small bar chart of the token's attention
row (what it reads: the keys up to it) and column (who reads it: the queries from it on),
the token itself marked; and the token's strongest links as data for sentences.

Arrays in, Plotly figures out; every word arrives translated, by key (``figures/words.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from gpt_core.tokens import position_label
from gpt_core.window import Window

from .labels import plotly_safe
from .palette import head_color
from .panels import (
    AXIS_TITLE_FONT_PX,
    MARGIN_PX,
    TICK_FONT_PX,
    TICK_STANDOFF_PX,
    Panel,
    categories_of,
    figure_title,
    panel_title,
    short_labels,
)
from .sizing import DEFAULT_SIZE, DEFAULT_WIDTH_PX, ChartSize
from .style import BACKGROUND, FONT_FAMILY, FONT_SIZE, TITLE_FONT_SIZE, build_figure
from .token_view_plan import PANEL_TITLE_FONT_PX, Sheet, Slot, plan_rows, plan_sheet, weight_axis_room
from .words import Words

DIRECTIONS = ("reads", "read_by", "both")
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


def _bars(
    rows: np.ndarray,
    columns: np.ndarray,
    layer: int,
    head: int,
    slot: Slot,
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
    sheet: Sheet, slot: Slot, categories: list[str], y_ticks: tuple[float, float], weight_word: str, scale: float
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
    sheet: Sheet, slot: Slot, name: str, number: int | None, head: int, layer_word: str, text: Words, scale: float
) -> dict:
    """The panel's name over it in its head's colour: on two lines where one is too wide."""
    title = (
        f"{plotly_safe(text[layer_word])} {number + 1}<br>{plotly_safe(text['fig.head'])} {head + 1}"
        if sheet.two_lines
        else plotly_safe(name)
    )
    panel = Panel(slot.index, (slot.x0, slot.x0), (slot.y0, slot.y1))
    return panel_title(title, panel, PANEL_TITLE_FONT_PX * scale, head_color(head), bold=True)


def _chosen_shade(slot: Slot, position: int) -> dict:
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
    first_layer: int = 0,
    window: Window | None = None,
    size: ChartSize = DEFAULT_SIZE,
) -> go.Figure:
    """Token ``position`` in every head of every layer: rows and columns are (layers, h, T)
    (``gpt_core.token_attention``). Each head is one bar chart over the tokens: bars up to the
    token are its row (what it reads), bars from it on its column (who reads it, lighter);
    ``direction`` "reads", "read_by" or "both" says which are drawn. The token's slot is
    shaded in every panel and its label always shown. ``layer_word`` (such as
    "ex.col.block") names the layers in the panels' titles, numbered from ``first_layer``
    (0-based: the layer ``rows[0]`` is); None: one layer, heads only. window: a long text's
    window (``gpt_core.window``): the bars of its keys' positions only (it should hold the
    token), labelled with their positions in the whole text. size: the page's width for the
    chart (default: a projector's) and the type scale."""
    rows, columns = _checked(rows, columns, position, len(labels), direction)
    width_px, scale = size.width_or(DEFAULT_WIDTH_PX), size.scale
    whole_position = position
    rows, columns, labels, position, first = _windowed(rows, columns, labels, position, window)
    layers, heads = rows.shape[:2]
    named, word = layer_word is not None, layer_word or "ex.col.block"
    short, categories = short_labels(labels), categories_of(list(labels), first)
    weight_word = plotly_safe(text["ex.weight"])
    y_ticks = _weight_ticks(rows, columns, position, direction)
    plan = plan_rows(heads, short, position, width_px, weight_axis_room(y_ticks, scale), scale, first)
    layer_numbers = [first_layer + layer if named else None for layer in range(layers)]
    names = [[panel_name(number, head, text, word) for head in range(heads)] for number in layer_numbers]
    sheet = plan_sheet(plan, names, named, width_px, scale)
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
    title = figure_title(_title(direction, text).format(token=token), TITLE_FONT_SIZE * scale)
    layout.update(_sheet_layout(sheet, annotations, shapes, title, scale))
    return build_figure(traces, layout)


def _windowed(
    rows: np.ndarray, columns: np.ndarray, labels: list[str], position: int, window: Window | None
) -> tuple[np.ndarray, np.ndarray, list[str], int, int]:
    """Only the window's keys (``window`` None or whole: all of them): the rows, columns and
    labels cut to them, the token's position in the window, and the window's first key."""
    if window is None or window.whole:
        return rows, columns, labels, position, 0
    first = window.first_key
    rows, columns = rows[..., first : first + window.size], columns[..., first : first + window.size]
    labels, local = list(labels)[first:][: window.size], position - first
    if not 0 <= local < len(labels):
        raise IndexError(f"position {position} is outside the window {list(window.keys)[:: len(labels) - 1]}")
    return rows, columns, labels, local, first


def _sheet_layout(sheet: Sheet, annotations: list[dict], shapes: list[dict], title: dict, scale: float) -> dict:
    """The figure's height, margins and type around the panels' sheet."""
    return dict(
        height=round(sheet.header + sheet.plot_h + MARGIN_PX),
        barmode="overlay",
        bargap=0.15,
        annotations=annotations,
        shapes=shapes,
        margin=dict(l=round(sheet.plan.left), r=round(sheet.plan.right), t=round(sheet.header), b=MARGIN_PX),
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        plot_bgcolor=BACKGROUND,
        hoverlabel=dict(font=dict(size=FONT_SIZE * scale)),
        title=title,
    )


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
