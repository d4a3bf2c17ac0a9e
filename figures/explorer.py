"""The trained-heads explorer's own figures: every block's heads as one grid, BertViz-style
lines from queries to keys, per-head metrics across blocks, and the attention of each
generated character. One head stage by stage is ``head_detail_figure``; all heads of one
block at one training step is ``heads_overview_figure``.

Arrays in, Plotly figures out; every word arrives translated in an ``ExplorerText``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from gpt_core.tokens import display_label

from .attention import VALUE_FONT_PX
from .events import trace_meta
from .labels import plotly_safe
from .overview import BORDER_PX, FOCUSED_BORDER_PX, OVERVIEW_COLORBAR_MAX_PX, OVERVIEW_COLORBAR_PX
from .palette import WEIGHT_COLORSCALE, head_color
from .panels import (
    AXIS_TITLE_FONT_PX,
    MARGIN_PX,
    TICK_FONT_PX,
    TICK_STANDOFF_PX,
    Frame,
    categories_of,
    category_axis,
    query_label_room,
    square_cells,
)
from .sizing import LABEL_PAD_PX, LINE_HEIGHT, key_ticks, query_ticks, short_label, text_px
from .style import (
    BACKGROUND,
    COLORBAR_FONT_SIZE,
    COLORBAR_THICKNESS_PX,
    FONT_FAMILY,
    FONT_SIZE,
    TITLE_FONT_SIZE,
    build_figure,
)

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
GENERATION_ROW_PX = 24
GENERATION_MIN_CELL_FOR_TEXT_PX = 14
WEIGHT_METRICS = ("previous", "first", "self")


@dataclass(frozen=True)
class ExplorerText:
    """Every word of the explorer's figures."""

    block: str  # "block", as in "block 1"
    head: str  # "head", as in "head 2"
    query: str  # hover: the query token
    key: str  # hover: the key token
    query_axis: str
    key_axis: str
    weight: str  # hover: a softmax weight
    grid_title: str  # the grid's title
    queries: str  # the lines view's left column
    keys: str  # ... its right column
    metric_titles: dict  # metric -> its title ("weight on the previous token", …)
    generated: str  # the generation heatmap's row axis
    position: str  # its column axis: the position in the context
    step: str  # a generated character's row, template with {step} and {char}


def panel_name(block: int, head: int, text: ExplorerText) -> str:
    """``"block 1 · head 2"`` (0-based in, 1-based out): a grid panel's title and trace name."""
    return f"{text.block} {block + 1} · {text.head} {head + 1}"


def check_rank(weights: np.ndarray, labels: Sequence[str], rank: int) -> None:
    T = len(labels)
    if weights.ndim != rank or weights.shape[-2:] != (T, T):
        raise ValueError(
            f"weights have shape {weights.shape}, expected {rank} dimensions ending ({T}, {T}) for tokens {list(labels)}"
        )


def grid_figure(
    weights: np.ndarray,
    labels: list[str],
    text: ExplorerText,
    focus: tuple[int, int] | None = None,
    width_px: float = 870,
    scale: float = 1.0,
) -> go.Figure:
    """Every head of every block: weights (blocks, h, T, T), rows = blocks, columns = heads,
    square panels titled "block b · head h" in the head's colour; query labels beside the
    first column, key labels under the bottom row. focus: (block, head), 0-based, drawn
    with a thick border. Each heatmap's ``meta`` holds its head and block, for clicks."""
    check_rank(weights, labels, 4)
    blocks, h, T = weights.shape[0], weights.shape[1], len(labels)
    tick_px, title_px = TICK_FONT_PX * scale, GRID_TITLE_FONT_PX * scale
    axis_title_px = AXIS_TITLE_FONT_PX * scale
    short = [short_label(label) for label in labels]
    categories = categories_of(labels)
    left = query_label_room(short, tick_px, axis_title_px)
    right = OVERVIEW_COLORBAR_PX * scale
    gap = GRID_GAP_PX * scale
    fit = (width_px - left - right - (h - 1) * gap) / h
    panel_px = max(GRID_MIN_PANEL_PX * scale, min(fit, GRID_MAX_PANEL_PX * scale))
    cell = panel_px / T
    key_labels = key_ticks(short, cell, tick_px)
    query_labels = query_ticks(short, cell, tick_px)
    titles = [[panel_name(b, head, text) for head in range(h)] for b in range(blocks)]
    two_lines = any(text_px(title, title_px) > panel_px + gap - LABEL_PAD_PX for row in titles for title in row)
    title_room = (2 if two_lines else 1) * title_px * LINE_HEIGHT + 4
    row_px = title_room + panel_px + GRID_ROW_GAP_PX * scale
    label_room = key_labels.extent_px + TICK_STANDOFF_PX + axis_title_px * LINE_HEIGHT
    header = TITLE_FONT_SIZE * scale * LINE_HEIGHT + MARGIN_PX * 2
    frame = Frame(width_px, header + blocks * row_px + label_room + MARGIN_PX, left, right, header, MARGIN_PX)
    traces: list[dict] = []
    layout: dict = {}
    annotations, shapes = [], []
    for b in range(blocks):
        for head in range(h):
            index = b * h + head + 1
            panel = frame.panel(index, head * (panel_px + gap), b * row_px + title_room, panel_px)
            name = titles[b][head]
            colorbar = None
            if index == 1:
                colorbar = dict(
                    x=1.0, xref="container", xanchor="right", xpad=MARGIN_PX, y=1.0, yanchor="top",
                    lenmode="pixels", len=min(OVERVIEW_COLORBAR_MAX_PX * scale, frame.plot_height),
                    thickness=COLORBAR_THICKNESS_PX, tickfont=dict(size=COLORBAR_FONT_SIZE * scale), outlinewidth=0,
                )  # fmt: skip
            z = np.tril(np.asarray(weights[b, head], dtype=np.float32))
            z = np.where(np.triu(np.ones((T, T), dtype=bool), 1), np.float32(np.nan), z)  # the future: a gap
            traces.append(
                dict(
                    type="heatmap",
                    z=z,
                    x=categories,
                    y=categories,
                    xaxis=panel.xaxis,
                    yaxis=panel.yaxis,
                    colorscale=WEIGHT_COLORSCALE,
                    zmin=0.0,
                    zmax=1.0,
                    showscale=colorbar is not None,
                    colorbar=colorbar,
                    hoverongaps=False,
                    name=name,
                    meta=trace_meta(head, b),
                    hovertemplate=(
                        f"{plotly_safe(text.query)} %{{y}}<br>{plotly_safe(text.key)} %{{x}}<br>"
                        f"{plotly_safe(text.weight)}: %{{z:.4f}}<extra>{plotly_safe(name)}</extra>"
                    ),
                )  # fmt: skip
            )
            bottom, first = b == blocks - 1, head == 0
            layout.update(
                category_axis(panel, "x", panel.x_domain, categories, key_labels if bottom else None, tick_px,
                      text.key_axis if bottom and first else None, axis_title_px)
            )  # fmt: skip
            layout.update(
                category_axis(panel, "y", panel.y_domain, categories, query_labels if first else None, tick_px,
                      text.query_axis if first and b == 0 else None, axis_title_px)
            )  # fmt: skip
            title = (
                f"{plotly_safe(text.block)} {b + 1}<br>{plotly_safe(text.head)} {head + 1}"
                if two_lines
                else plotly_safe(name)
            )
            annotations.append(
                dict(
                    text=f"<b>{title}</b>",
                    x=0.5,
                    y=1.0,
                    xref=f"{panel.xaxis} domain",
                    yref=f"{panel.yaxis} domain",
                    xanchor="center",
                    yanchor="bottom",
                    showarrow=False,
                    font=dict(size=title_px, color=head_color(head)),
                )  # fmt: skip
            )
            shapes.append(
                dict(
                    type="rect",
                    xref=f"{panel.xaxis} domain",
                    yref=f"{panel.yaxis} domain",
                    x0=0,
                    x1=1,
                    y0=0,
                    y1=1,
                    line=dict(color=head_color(head), width=FOCUSED_BORDER_PX if focus == (b, head) else BORDER_PX),
                )  # fmt: skip
            )
            square_cells(layout, index)
    layout.update(
        height=round(frame.height),
        margin=dict(l=round(frame.left), r=round(frame.right), t=round(frame.top), b=round(frame.bottom)),
        annotations=annotations,
        shapes=shapes,
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        title=dict(
            text=plotly_safe(text.grid_title),
            x=0.0,
            xref="paper",
            xanchor="left",
            y=1.0,
            yref="container",
            yanchor="top",
            pad=dict(t=6),
            font=dict(size=TITLE_FONT_SIZE * scale),
        ),  # fmt: skip
        plot_bgcolor=BACKGROUND,
        hoverlabel=dict(font_size=FONT_SIZE * scale),
    )
    return build_figure(traces, layout)


def metric_figure(
    values: np.ndarray, metric: str, text: ExplorerText, limit: float | None = None, scale: float = 1.0
) -> go.Figure:
    """One metric for every head of every block: values (blocks, h), rows = blocks.
    Weights on a place go from 0 to 1; the entropy from 0 to ``limit`` (ln T, a uniform row's
    largest)."""
    blocks, h = values.shape
    weights = metric in WEIGHT_METRICS
    zmax = 1.0 if weights else float(limit or max(float(values.max()), 1e-6))
    cell = min(METRIC_MAX_CELL_PX, max(METRIC_CELL_PX, 600 / max(h, 1))) * scale
    heads = [f"{plotly_safe(text.head)} {i + 1}" for i in range(h)]
    rows = [f"{plotly_safe(text.block)} {b + 1}" for b in range(blocks)]
    trace = dict(
        type="heatmap", z=np.asarray(values, dtype=np.float32), x=heads, y=rows, colorscale=WEIGHT_COLORSCALE if weights else "Viridis",
        zmin=0.0, zmax=zmax, texttemplate="%{z:.2f}", textfont=dict(size=FONT_SIZE * scale),
        name=plotly_safe(text.metric_titles[metric]), colorbar=dict(thickness=COLORBAR_THICKNESS_PX, outlinewidth=0),
        hovertemplate=f"%{{y}} · %{{x}}<br>{plotly_safe(text.metric_titles[metric])}: %{{z:.3f}}<extra></extra>",
    )  # fmt: skip
    top = TITLE_FONT_SIZE * scale * LINE_HEIGHT + MARGIN_PX * 2
    left = text_px(rows[-1], FONT_SIZE * scale) + MARGIN_PX * 2
    layout = dict(
        height=round(top + blocks * cell + FONT_SIZE * scale * LINE_HEIGHT + MARGIN_PX * 2),
        width=round(left + h * cell + 90 * scale),
        margin=dict(l=round(left), r=MARGIN_PX, t=round(top), b=MARGIN_PX),
        title=dict(
            text=plotly_safe(text.metric_titles[metric]),
            x=0.0,
            xref="paper",
            xanchor="left",
            font=dict(size=TITLE_FONT_SIZE * scale),
        ),  # fmt: skip
        xaxis=dict(side="bottom", tickfont=dict(size=FONT_SIZE * scale), fixedrange=True),
        yaxis=dict(autorange="reversed", tickfont=dict(size=FONT_SIZE * scale), fixedrange=True),
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        plot_bgcolor=BACKGROUND,
    )
    return build_figure([trace], layout)


def generation_figure(
    rows: Sequence[np.ndarray], chars: Sequence[str], contexts: Sequence[str], head: int, block: int,
    text: ExplorerText, width_px: float = 870, scale: float = 1.0,
) -> go.Figure:  # fmt: skip
    """For each generated character (a row), the last query's weights over the context it
    read (columns: positions in that context, left-aligned; NaN where the context was
    shorter). rows: one (T_ctx,) array per character; contexts: the text each one read
    (its characters are written in the cells while they fit, and shown on hover)."""
    if not (len(rows) == len(chars) == len(contexts)):
        raise ValueError(f"{len(rows)} rows, {len(chars)} characters and {len(contexts)} contexts: one each")
    n = len(rows)
    width = max((len(row) for row in rows), default=1)
    z = np.full((n, width), np.nan, dtype=np.float32)
    keys = [["" for _ in range(width)] for _ in range(n)]
    for i, (row, context) in enumerate(zip(rows, contexts, strict=True)):
        if len(row) != len(context):
            raise ValueError(f"row {i} has {len(row)} weights for the context {context!r} of {len(context)} characters")
        z[i, : len(row)] = row
        for j, char in enumerate(context):
            keys[i][j] = plotly_safe(display_label(char))
    names = [plotly_safe(text.step.format(step=i + 1, char=display_label(char))) for i, char in enumerate(chars)]
    font_px = TICK_FONT_PX * scale
    left = (
        max((text_px(name, font_px) for name in names), default=0.0) + MARGIN_PX * 3 + FONT_SIZE * scale * LINE_HEIGHT
    )
    cell = (width_px - left - OVERVIEW_COLORBAR_PX * scale) / width
    write = cell >= GENERATION_MIN_CELL_FOR_TEXT_PX * scale
    trace = dict(
        type="heatmap", z=z, x=list(range(width)), y=list(range(n)), text=keys, colorscale=WEIGHT_COLORSCALE,
        zmin=0.0, zmax=1.0, hoverongaps=False, name=f"{plotly_safe(text.block)} {block + 1} · {plotly_safe(text.head)} {head + 1}",
        meta=trace_meta(head, block), colorbar=dict(thickness=COLORBAR_THICKNESS_PX, outlinewidth=0),
        hovertemplate=f"%{{y}}<br>{plotly_safe(text.key)} %{{x}}: %{{text}}<br>{plotly_safe(text.weight)}: %{{z:.3f}}<extra></extra>",
        **(dict(texttemplate="%{text}", textfont=dict(size=VALUE_FONT_PX * scale)) if write else {}),
    )  # fmt: skip
    top = TITLE_FONT_SIZE * scale * LINE_HEIGHT + MARGIN_PX * 2
    layout = dict(
        height=round(top + n * GENERATION_ROW_PX * scale + font_px * LINE_HEIGHT * 2 + MARGIN_PX * 3),
        margin=dict(l=round(left), r=round(OVERVIEW_COLORBAR_PX * scale), t=round(top), b=MARGIN_PX),
        xaxis=dict(
            title=dict(text=plotly_safe(text.position), standoff=4),
            tickfont=dict(size=font_px),
            dtick=1 if width <= 32 else 4,
        ),
        yaxis=dict(
            autorange="reversed",
            tickmode="array",
            tickvals=list(range(n)),
            ticktext=names,
            tickfont=dict(size=font_px),
            title=dict(text=plotly_safe(text.generated), standoff=4),
        ),  # fmt: skip
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        plot_bgcolor=BACKGROUND,
        hoverlabel=dict(font_size=FONT_SIZE * scale),
    )
    return build_figure([trace], layout)
