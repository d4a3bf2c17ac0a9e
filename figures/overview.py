"""All heads at once: one stage for every head as small multiples, in the heads' colours
and one colour range, laid out in pixels for the page (figures/sizing.py, figures/panels.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import plotly.graph_objects as go

from .attention import HEADER_PX, ROW_GAP_PX, check_square, masked_legend_entry, stage_traces
from .labels import plotly_safe
from .palette import SCORE_COLORSCALE, WEIGHT_COLORSCALE, head_color
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
from .sizing import DEFAULT_WIDTH_PX, LINE_HEIGHT, key_ticks, panel_grid, query_ticks, short_label
from .stage_colors import Look, is_weights, score_range
from .style import (
    BACKGROUND,
    COLORBAR_FONT_SIZE,
    COLORBAR_THICKNESS_PX,
    FONT_FAMILY,
    FONT_SIZE,
    TITLE_FONT_SIZE,
    build_figure,
)
from .text import AttentionText

# The overview: small multiples, one per head.
OVERVIEW_MIN_CELL_PX = 3
OVERVIEW_MAX_CELL_PX = 34
OVERVIEW_MIN_PANEL_PX = 125
OVERVIEW_MAX_PANEL_PX = 280
OVERVIEW_COLUMN_CHOICES = (4, 3, 2, 1)
OVERVIEW_GAP_PX = 18
OVERVIEW_COLORBAR_PX = 64  # right margin: the shared colour bar and its numbers
OVERVIEW_COLORBAR_MAX_PX = 260
FOCUSED_BORDER_PX = 5
BORDER_PX = 1.5


def heads_overview_figure(
    matrices: np.ndarray,
    labels: list[str],
    stage: str,
    text: AttentionText,
    focus: int | None = None,
    cols: int | None = None,
    width_px: float | None = None,
    scale: float = 1.0,
) -> go.Figure:
    """Small multiples: one stage for every head. matrices: (h, T, T).

    All heads share one colour range, so they can be compared. The focused head (0-based)
    has a thicker border in its colour. Query labels are beside the first column, key labels
    under the panels with none below. width_px: the width the page gives the chart.
    """
    h, T = matrices.shape[0], len(labels)
    check_square("matrices", matrices, labels)
    width = width_px or DEFAULT_WIDTH_PX
    tick_px, title_px = TICK_FONT_PX * scale, TITLE_FONT_SIZE * scale
    axis_title_px = AXIS_TITLE_FONT_PX * scale
    short = [short_label(label) for label in labels]
    categories = categories_of(labels)
    left = query_label_room(short, tick_px, axis_title_px)
    right = OVERVIEW_COLORBAR_PX * scale
    available = width - left - right
    gap = OVERVIEW_GAP_PX * scale
    choices = [cols] if cols else [c for c in OVERVIEW_COLUMN_CHOICES if c <= h] or [1]
    layout_grid = panel_grid(
        h, T, available, gap, OVERVIEW_MIN_CELL_PX * scale, OVERVIEW_MAX_CELL_PX * scale,
        OVERVIEW_MIN_PANEL_PX * scale, OVERVIEW_MAX_PANEL_PX * scale, column_choices=choices,
    )  # fmt: skip
    panel_px, n_cols = layout_grid.panel_px, layout_grid.cols
    cell = layout_grid.cell_px(T)
    key_labels = key_ticks(short, cell, tick_px)
    query_labels = query_ticks(short, cell, tick_px)
    title_room = title_px * LINE_HEIGHT + 4
    labelled = [head + n_cols >= h for head in range(h)]  # key labels under a panel with none below
    row_labels = [any(labelled[r * n_cols : (r + 1) * n_cols]) for r in range(layout_grid.rows)]
    label_room = key_labels.extent_px + TICK_STANDOFF_PX + axis_title_px * LINE_HEIGHT
    row_tops, top = [], 0.0
    for row in range(layout_grid.rows):
        row_tops.append(top + title_room)
        top += title_room + panel_px + (label_room if row_labels[row] else 0.0) + ROW_GAP_PX
    header = HEADER_PX * scale
    frame = Frame(width, header + top + MARGIN_PX, left, right, header, MARGIN_PX)
    z_limit = 1.0 if is_weights(stage) else score_range(list(matrices))
    look = Look(WEIGHT_COLORSCALE, 0.0, 1.0) if is_weights(stage) else Look(SCORE_COLORSCALE, -z_limit, z_limit, 0.0)
    traces: list[dict] = []
    layout: dict = {}
    annotations, shapes = [], []
    for head in range(h):
        row, col = divmod(head, n_cols)
        panel = frame.panel(head + 1, col * (panel_px + gap), row_tops[row], panel_px)
        colorbar = None
        if head == 0:
            length = min(OVERVIEW_COLORBAR_MAX_PX * scale, frame.plot_height)
            colorbar = dict(
                x=1.0, xref="container", xanchor="right", xpad=MARGIN_PX, y=1.0, yanchor="top", lenmode="pixels",
                len=length, thickness=COLORBAR_THICKNESS_PX, tickfont=dict(size=COLORBAR_FONT_SIZE * scale),
                outlinewidth=0,
            )  # fmt: skip
        traces.extend(
            stage_traces(matrices[head], categories, stage, head, panel, text, replace(look, colorbar=colorbar))
        )
        bottom_left = labelled[head] and col == 0
        layout.update(
            category_axis(panel, "x", panel.x_domain, categories, key_labels if labelled[head] else None, tick_px,
                  text.key_axis if bottom_left else None, axis_title_px)
        )  # fmt: skip
        layout.update(
            category_axis(panel, "y", panel.y_domain, categories, query_labels if col == 0 else None, tick_px,
                  text.query_axis if head == 0 else None, axis_title_px)
        )  # fmt: skip
        annotations.append(
            dict(
                text=f"<b>{plotly_safe(text.head)} {head + 1}</b>",
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
                line=dict(color=head_color(head), width=FOCUSED_BORDER_PX if head == focus else BORDER_PX),
            )  # fmt: skip
        )
    for head in range(h):
        square_cells(layout, head + 1)
    if stage == "masked_scores":
        traces.append(masked_legend_entry(text))
    layout.update(
        height=round(frame.height),
        margin=dict(l=round(frame.left), r=round(frame.right), t=round(frame.top), b=round(frame.bottom)),
        annotations=annotations,
        shapes=shapes,
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        title=dict(
            text=plotly_safe(text.stage_titles[stage]),
            x=0.0,
            xref="paper",
            xanchor="left",
            y=1.0,
            yref="container",
            yanchor="top",
            pad=dict(t=6),
            font=dict(size=title_px),
        ),  # fmt: skip
        legend=dict(
            orientation="h", x=1.0, xanchor="right", y=1.0, yanchor="bottom", font=dict(size=FONT_SIZE * scale)
        ),
        plot_bgcolor=BACKGROUND,
        hoverlabel=dict(font_size=FONT_SIZE * scale),
    )
    return build_figure(traces, layout)
