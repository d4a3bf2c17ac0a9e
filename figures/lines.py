"""The explorer's lines view, in the manner of BertViz's head view: the tokens in two
columns, a line from each query to each key it attends to, darker and thicker for more
weight. Each head has its colour and its dash pattern, so heads are told apart without
colour too; the lines are opaque, so where heads cross, the top line keeps its colour
instead of blending with the others into brown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from gpt_core.tokens import position_label
from gpt_core.window import Window

from .events import trace_meta
from .grid import check_rank
from .labels import plotly_safe
from .palette import HEAD_COLORS, head_color
from .panels import (
    MARGIN_PX,
)
from .sizing import LABEL_PAD_PX, LINE_HEIGHT, short_label, text_px
from .style import (
    BACKGROUND,
    FONT_FAMILY,
    FONT_SIZE,
    TITLE_COLOR,
    TITLE_FONT_SIZE,
    build_figure,
)
from .words import Words

LINE_THRESHOLD = 0.02  # weights below this draw no line
MAX_LINES = 1_500  # the strongest lines drawn at most (a long text's window of 12 heads has thousands)
LINES_OUTSIDE, LINES_CUT = "linesOutside", "linesCut"  # the layout's meta: lines left out, and why
LINES_DRAWN, LINES_STRONGEST = "linesDrawn", "linesStrongest"  # and lines drawn, the largest weight they could show
LINE_BINS = 5  # weight steps: one trace per (head, bin)
LINE_MIN_WIDTH_PX = 1.5  # the lightest step's width; the heaviest's is LINE_MAX_WIDTH_PX
LINE_MAX_WIDTH_PX = 4.0
# The lightest step's share of the head's colour, mixed with white (opaque, unlike an opacity:
# crossing lines do not blend); enough to still show which colour it is.
LINE_MIN_STRENGTH = 0.35
LEGEND_LINE_WIDTH_PX = 3.0
# Plotly's named patterns and two more (dash-dot-dot, long dash-dot-dot), each clear on a thin
# line: as many as the heads' colours. The pattern shifts by one each time the colours start
# over (past the eighth head), so no two of up to 8 × 8 heads share both.
LINE_DASHES = (
    "solid",
    "dash",
    "dot",
    "dashdot",
    "longdash",
    "longdashdot",
    "9px,3px,3px,3px,3px,3px",
    "15px,4px,3px,4px,3px,4px",
)
LINE_ROW_PX = 22  # vertical room per token
LINE_LABEL_FONT_PX = 14
LINE_COLUMN_GAP_PX = 220  # between the query column and the key column


def weight_bin(weight: float, bins: int = LINE_BINS, threshold: float = LINE_THRESHOLD) -> int:
    """Which weight step a line of ``weight`` falls in: 0 … bins - 1, evenly over [threshold, 1]."""
    share = (weight - threshold) / (1.0 - threshold)
    return int(min(bins - 1, max(0, np.floor(share * bins))))


def line_name(head: int, step: int, text: Words) -> str:
    """The trace of one head's lines in one weight step: ``"head 2 · 3/5"``."""
    return f"{text['fig.head']} {head + 1} · {step + 1}/{LINE_BINS}"


def line_dash(head: int) -> str:
    """The dash pattern of head ``head`` (0-based): its second cue beside its colour."""
    return LINE_DASHES[(head + head // len(HEAD_COLORS)) % len(LINE_DASHES)]


def step_share(step: int) -> float:
    """0 for the lightest weight step, 1 for the heaviest."""
    return step / (LINE_BINS - 1)


def line_width(step: int) -> float:
    """The width of a line in weight step ``step``, before the figure's scale."""
    return LINE_MIN_WIDTH_PX + (LINE_MAX_WIDTH_PX - LINE_MIN_WIDTH_PX) * step_share(step)


def line_color(head: int, step: int) -> str:
    """Head ``head``'s colour, mixed with white for the lighter weight steps: opaque, so
    lines that cross never blend; the heaviest step is the head's own colour."""
    strength = LINE_MIN_STRENGTH + (1 - LINE_MIN_STRENGTH) * step_share(step)
    channels = (int(head_color(head)[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - channel) * strength):02x}" for channel in channels)


@dataclass(frozen=True)
class LineChoice:
    """The lines a figure draws: (head, query, key, weight) of at least the threshold, among
    the window's queries and keys, the strongest ``max_lines`` of them; and how many it leaves
    out: lines to keys outside the window, and weaker lines past the cap."""

    lines: list[tuple[int, int, int, float]]
    outside: int
    cut: int
    strongest: float = 0.0  # the largest weight of the queries into the window's keys, drawn or not


def choose_lines(
    weights: np.ndarray,
    heads: Sequence[int],
    queries: Sequence[int],
    keys: range,
    threshold: float = LINE_THRESHOLD,
    max_lines: int = MAX_LINES,
) -> LineChoice:
    """Every line (head, query, key ≤ query, weight ≥ threshold) of ``queries`` into ``keys``,
    the strongest ``max_lines`` kept (ties: the earlier head, query, key first)."""
    found, outside, strongest = [], 0, 0.0
    for head in heads:
        for query in queries:
            row = np.asarray(weights[head, query, : query + 1], dtype=np.float64)
            shown = row[keys.start : keys.stop]
            strongest = max(strongest, float(shown.max())) if shown.size else strongest
            strong = np.flatnonzero(row >= threshold)
            inside = strong[(strong >= keys.start) & (strong < keys.stop)]
            outside += len(strong) - len(inside)
            found += [(head, query, int(key), float(row[key])) for key in inside]
    kept = sorted(found, key=lambda line: -line[3])[:max_lines] if len(found) > max_lines else found
    return LineChoice(kept, outside, len(found) - len(kept), strongest)


def _step_trace(
    lines: list[tuple[int, int, float]],
    head: int,
    step: int,
    text: Words,
    scale: float,
    origin: tuple[int, int] = (0, 0),
) -> dict:
    """One head's lines in one weight step as one scatter trace: segments separated by None,
    each point's customdata its line's weight. origin: the first query and key shown."""
    x, y, custom = [], [], []
    for query, key, weight in lines:
        x += [0.0, 1.0, None]
        y += [query - origin[0], key - origin[1], None]
        custom += [weight, weight, None]
    return dict(
        type="scatter",
        mode="lines",
        x=x,
        y=y,
        customdata=custom,
        name=line_name(head, step, text),
        line=dict(color=line_color(head, step), width=line_width(step) * scale, dash=line_dash(head)),
        legendgroup=f"head{head}",
        showlegend=False,
        meta=trace_meta(head),
        hovertemplate=f"{plotly_safe(text['ex.weight'])}: %{{customdata:.3f}}<extra>{plotly_safe(text['fig.head'])} {head + 1}</extra>",
    )


def _legend_entry(head: int, text: Words, scale: float) -> dict:
    """The head's entry in the legend: its colour and its dash pattern, no data."""
    return dict(
        type="scatter",
        mode="lines",
        x=[None],
        y=[None],
        name=f"{plotly_safe(text['fig.head'])} {head + 1}",
        line=dict(color=head_color(head), width=LEGEND_LINE_WIDTH_PX * scale, dash=line_dash(head)),
        legendgroup=f"head{head}",
        showlegend=True,
        hoverinfo="skip",
    )


def _line_traces(
    choice: LineChoice, heads: Sequence[int], threshold: float, text: Words, scale: float, origin: tuple[int, int]
) -> list[dict]:
    """Every head's lines, the lightest step of every head first and the heaviest last, so a
    heavy line is never hidden under a light one; then the heads' legend entries, in order."""
    segments: dict[int, list[list]] = {head: [[] for _ in range(LINE_BINS)] for head in heads}
    for head, query, key, weight in choice.lines:
        segments[head][weight_bin(weight, LINE_BINS, threshold)].append((query, key, weight))
    traces = [
        _step_trace(segments[head][step], head, step, text, scale, origin)
        for step in range(LINE_BINS)
        for head in heads
        if segments[head][step]
    ]
    return traces + [_legend_entry(head, text, scale) for head in heads]


def _token_columns(
    queries: list[str],
    keys: list[str],
    token: int | None,
    text: Words,
    font_px: float,
    scale: float,
    origin: tuple[int, int],
) -> list[dict]:
    """The tokens as two columns of labelled markers: queries left (the chosen one dark,
    the others dimmed), keys right; ``origin``: the positions of the first query and key."""
    columns = []
    for column, side, name, labels, first in (
        (0.0, "middle left", text["ex.queries"], queries, origin[0]),
        (1.0, "middle right", text["ex.keys"], keys, origin[1]),
    ):
        count = len(labels)
        dim = ["#bbbbbb" if token is not None and first + i != token else TITLE_COLOR for i in range(count)]
        columns.append(
            dict(
                type="scatter",
                mode="markers+text",
                x=[column] * count,
                y=list(range(count)),
                text=[plotly_safe(short_label(label)) for label in labels],
                textposition=side,
                cliponaxis=False,
                textfont=dict(size=font_px, color=dim if column == 0.0 else TITLE_COLOR),
                marker=dict(size=6 * scale, color="#888"),
                name=plotly_safe(name),
                showlegend=False,
                customdata=[plotly_safe(position_label(first + i, label)) for i, label in enumerate(labels)],
                hovertemplate=f"{plotly_safe(name)}: %{{customdata}}<extra></extra>",
            )
        )
    return columns


LEGEND_SAMPLE_PX = 48  # a legend entry's line sample: long enough to show its dash pattern
LEGEND_ENTRY_PAD_PX = LEGEND_SAMPLE_PX + 14  # the sample and its gaps, beside the entry's name


def _legend_rows(heads: int, width: float, text: Words, scale: float) -> int:
    """How many rows the heads' legend takes inside the figure's width."""
    entry = text_px(f"{text['fig.head']} {heads}", FONT_SIZE * scale) + LEGEND_ENTRY_PAD_PX * scale
    per_row = max(1, int(width // entry))
    return -(-heads // per_row)


def _lines_layout(labels: list[str], T: int, text: Words, font_px: float, scale: float, heads: int = 1) -> dict:
    """Room for the widest label on each side of the lines, a row per token (``T`` rows); the
    heads' legend inside the figure, above the column headings (never clipped by the chart's
    edge)."""
    widest = max(
        max(text_px(short_label(label), font_px) for label in labels),
        text_px(text["ex.queries"], FONT_SIZE * scale),
        text_px(text["ex.keys"], FONT_SIZE * scale),
    )
    label_px = widest + LABEL_PAD_PX * 3
    width = 2 * label_px + LINE_COLUMN_GAP_PX * scale
    legend_px = _legend_rows(heads, width + 2 * MARGIN_PX, text, scale) * FONT_SIZE * scale * LINE_HEIGHT * 1.4
    top = TITLE_FONT_SIZE * scale * LINE_HEIGHT * 2 + MARGIN_PX + legend_px
    headings = [
        dict(
            text=f"<b>{plotly_safe(name)}</b>",
            x=x,
            y=1.0,
            xref="x",
            yref="paper",
            yanchor="bottom",
            xanchor=anchor,
            showarrow=False,
            font=dict(size=FONT_SIZE * scale),
        )
        for x, anchor, name in ((0.0, "right", text["ex.queries"]), (1.0, "left", text["ex.keys"]))
    ]
    return dict(
        height=round(top + T * LINE_ROW_PX * scale + MARGIN_PX * 2),
        width=round(width + 2 * MARGIN_PX),
        margin=dict(l=round(label_px + MARGIN_PX), r=round(label_px + MARGIN_PX), t=round(top), b=MARGIN_PX),
        xaxis=dict(range=[-0.02, 1.02], visible=False, fixedrange=True),
        yaxis=dict(range=[T - 0.5, -0.5], visible=False, fixedrange=True),
        annotations=headings,
        legend=dict(
            orientation="h",
            x=0.5,
            xanchor="center",
            y=1.0,
            yanchor="top",
            yref="container",
            font=dict(size=FONT_SIZE * scale),
            itemwidth=round(LEGEND_SAMPLE_PX * scale),
        ),
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        plot_bgcolor=BACKGROUND,
        hoverlabel=dict(font=dict(size=FONT_SIZE * scale)),
        showlegend=True,
    )


def lines_figure(
    weights: np.ndarray,
    labels: list[str],
    heads: Sequence[int],
    text: Words,
    token: int | None = None,
    threshold: float = LINE_THRESHOLD,
    scale: float = 1.0,
    window: Window | None = None,
    max_lines: int = MAX_LINES,
) -> go.Figure:
    """BertViz's head view: queries in the left column, keys in the right, a line from each
    query to each key it gives at least ``threshold`` of its weight, darker and thicker the
    larger the weight, in the head's colour and dash pattern. weights: (h, T, T) of one
    block; heads: the heads drawn (0-based); token: draw only this query's lines.

    One scatter trace per (head, weight step), segments separated by None; each point's
    customdata is its line's weight. window: a long text's window (``gpt_core.window``):
    only its queries and keys are drawn. At most ``max_lines`` lines, the strongest; the
    layout's meta says how many were left out (``LINES_OUTSIDE``: to keys outside the
    window; ``LINES_CUT``: weaker than the ones drawn).
    """
    check_rank(weights, labels, 3)
    font_px = LINE_LABEL_FONT_PX * scale
    window = window or Window(len(labels), 0, 0, len(labels))
    origin = window.origin
    queries = list(window.queries) if token is None else [token]
    choice = choose_lines(weights, heads, queries, window.keys, threshold, max_lines)
    traces = _line_traces(choice, heads, threshold, text, scale, origin)
    query_labels, key_labels = [labels[i] for i in window.queries], [labels[i] for i in window.keys]
    traces += _token_columns(query_labels, key_labels, token, text, font_px, scale, origin)
    layout = _lines_layout(query_labels + key_labels, window.size, text, font_px, scale, heads=len(heads))
    layout["meta"] = {
        LINES_OUTSIDE: choice.outside,
        LINES_CUT: choice.cut,
        LINES_DRAWN: len(choice.lines),
        LINES_STRONGEST: choice.strongest,
    }
    return build_figure(traces, layout)
