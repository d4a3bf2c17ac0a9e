"""Heatmaps of the attention stages: one head in detail, and all heads as small multiples.

Queries are rows (top to bottom), keys are columns. Each panel's axes are category axes
whose values are ``"position · token"`` (unique, escaped), so repeated tokens keep their
own rows and a hovered cell names its query and key.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from gpt_core import DETAIL_STAGES

from .labels import axis_labels, plotly_safe
from .layout import Panel, cell_outline, grid, panel_axes, panel_outline, panel_title
from .palette import HIGHLIGHT_COLOR, MASKED_COLOR, SCORE_COLORSCALE, WEIGHT_COLORSCALE, head_color
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

DETAIL_PANEL_PX = 250  # height of one stage in the detail view
DETAIL_GAP = 0.06  # between stages, as a fraction of the width
DETAIL_MARGIN_LEFT_PX = 70  # room for the query labels and axis title
HEAD_TITLE_EXTRA_PX = 4  # the head's title is a little larger than the stage titles
THUMBNAIL_PX = 210  # height of one head in the overview
THUMBNAIL_GAP = 0.03  # between heads, as a fraction of the width
THUMBNAIL_GAP_PX = 36  # between rows of heads: the title
THUMBNAIL_GAP_LABELS_PX = 80  # ... and the tick labels of the row above
OVERVIEW_COLUMNS = 4  # heads per row, at most
OVERVIEW_LABELS_MAX_TOKENS = 12  # above this many tokens the small multiples drop their labels
OVERVIEW_MARGIN_LABELS_PX = 60  # left margin when labels are shown
OVERVIEW_MARGIN_PX = 10
OVERVIEW_MARGIN_RIGHT_PX = 60  # room for the colour bar
OVERVIEW_COLORBAR = dict(len=0.8, y=0.5, x=1.01)
FOCUSED_BORDER_PX = 5
BORDER_PX = 1.5
FOOTER_OVERVIEW_PX = 60
HEADER_PX = 70  # room above the panels for titles and the legend
FOOTER_PX = 100  # room below for tick labels and colour bars
MARGIN_PX = 10
LEGEND_MARKER_PX = 16


def score_range(matrices: Sequence[np.ndarray]) -> float:
    """The largest |finite value| over ``matrices``, for a colour scale centred on 0."""
    largest = 0.0
    for matrix in matrices:
        finite = matrix[np.isfinite(matrix)]
        if finite.size:
            largest = max(largest, float(np.abs(finite).max()))
    return largest or 1.0


def _is_weights(stage: str) -> bool:
    return stage in ("weights", "dropped_weights")


def trace_name(stage: str, head: int, text: AttentionText) -> str:
    """``"softmax weights · head 2"``: stage and 1-based head, for tests and screen readers."""
    return f"{text.stage_titles[stage]} · {text.head} {head + 1}"


def _stage_traces(
    matrix: np.ndarray,
    categories: list[str],
    stage: str,
    head: int,
    panel: Panel,
    text: AttentionText,
    z_limit: float,
    colorbar: dict | None,
) -> list[dict]:
    """The heatmap of one stage of one head, plus the −∞ layer under it when masked."""
    z = np.asarray(matrix, dtype=np.float32)
    masked = np.isneginf(z)
    name = trace_name(stage, head, text)
    value_label = plotly_safe(text.stage_titles[stage])
    where = f"{text.query} %{{y}}<br>{text.key} %{{x}}<br>"
    common = dict(x=categories, y=categories, xaxis=panel.xaxis, yaxis=panel.yaxis, hoverongaps=False)
    traces: list[dict] = []
    if masked.any():
        # Drawn first, under the values: only the −∞ cells are set, in a colour no scale has.
        traces.append(
            dict(
                common, type="heatmap", z=np.where(masked, np.float32(1.0), np.float32(np.nan)),
                colorscale=[[0.0, MASKED_COLOR], [1.0, MASKED_COLOR]], showscale=False,
                name=f"{text.minus_inf} · {text.head} {head + 1}",
                hovertemplate=f"{where}{value_label}: −∞ ({plotly_safe(text.masked_reason)})<extra></extra>",
            )  # fmt: skip
        )
    if _is_weights(stage):
        color = dict(colorscale=WEIGHT_COLORSCALE, zmin=0.0, zmax=1.0)
    else:
        color = dict(colorscale=SCORE_COLORSCALE, zmin=-z_limit, zmax=z_limit, zmid=0.0)
    traces.append(
        dict(
            common, type="heatmap", z=np.where(masked, np.float32(np.nan), z),
            showscale=colorbar is not None, colorbar=colorbar, name=name,
            hovertemplate=f"{where}{value_label}: %{{z:.4f}}<extra>{plotly_safe(name)}</extra>", **color,
        )  # fmt: skip
    )
    return traces


def _masked_legend_entry(text: AttentionText) -> dict:
    """A legend entry for the −∞ colour (heatmaps have none of their own)."""
    return dict(
        type="scatter", x=[None], y=[None], mode="markers", name=text.legend_masked, showlegend=True,
        marker=dict(symbol="square", size=LEGEND_MARKER_PX, color=MASKED_COLOR), hoverinfo="skip",
    )  # fmt: skip


def _check_square(name: str, matrix: np.ndarray, labels: list[str]) -> None:
    T = len(labels)
    if matrix.shape[-2:] != (T, T):
        raise ValueError(f"{name} has shape {matrix.shape}, expected (…, {T}, {T}) for tokens {labels}")


def head_detail_figure(
    stages: Mapping[str, np.ndarray],
    labels: list[str],
    head: int,
    text: AttentionText,
    highlight: tuple[int, int] | None = None,
    scaled: bool = True,
) -> go.Figure:
    """All stages of one head side by side.

    stages: stage name -> (T, T) array for this head (the keys of ``DETAIL_STAGES`` that are
    given, in that order). labels: T display labels. head: 0-based. highlight: (query, key) cell
    outlined in every stage. scaled: False titles the scaled stage as "not scaled".
    """
    names = [stage for stage in DETAIL_STAGES if stage in stages]
    T = len(labels)
    for stage in names:
        _check_square(stage, stages[stage], labels)
    categories = axis_labels(labels)
    height = DETAIL_PANEL_PX + HEADER_PX + FOOTER_PX
    panels = grid(len(names), len(names), DETAIL_GAP, 0.0, top=1.0 - HEADER_PX / height, bottom=FOOTER_PX / height)
    traces: list[dict] = []
    layout: dict = {}
    annotations, shapes = [], []
    for stage, panel in zip(names, panels, strict=True):
        colorbar = dict(
            orientation="h", x=panel.center_x, xanchor="center", y=0.0, yanchor="top", len=panel.width,
            thickness=COLORBAR_THICKNESS_PX, ypad=0, tickfont=dict(size=COLORBAR_FONT_SIZE),
        )  # fmt: skip
        z_limit = 1.0 if _is_weights(stage) else score_range([stages[stage]])
        traces.extend(_stage_traces(stages[stage], categories, stage, head, panel, text, z_limit, colorbar))
        titles = (text.key_axis, text.query_axis) if panel.index == 1 else None
        layout.update(panel_axes(panel, T, show_labels=True, titles=titles))
        title = text.not_scaled if stage == "scaled_scores" and not scaled else text.stage_titles[stage]
        annotations.append(panel_title(title, panel))
        if highlight is not None:
            shapes.append(cell_outline(panel, *highlight, HIGHLIGHT_COLOR))
    traces.append(_masked_legend_entry(text))
    head_title = dict(text=f"<b>{text.head} {head + 1}</b>", font=dict(color=head_color(head), size=TITLE_FONT_SIZE + HEAD_TITLE_EXTRA_PX))
    layout.update(
        height=height,
        margin=dict(l=DETAIL_MARGIN_LEFT_PX, r=MARGIN_PX, t=HEADER_PX // 2, b=MARGIN_PX),
        annotations=annotations,
        shapes=shapes,
        font=dict(size=FONT_SIZE, family=FONT_FAMILY),
        title=head_title,
        legend=dict(orientation="h", x=0.0, xanchor="left", y=1.0, yanchor="bottom"),  # the tool bar is on the right
        plot_bgcolor=BACKGROUND,
        hoverlabel=dict(font_size=FONT_SIZE),
        meta=dict(syncHover=True),  # assets/sync_hover.html shows a hovered cell in every stage
    )
    return build_figure(traces, layout)


def heads_overview_figure(
    matrices: np.ndarray,
    labels: list[str],
    stage: str,
    text: AttentionText,
    focus: int | None = None,
    cols: int | None = None,
) -> go.Figure:
    """Small multiples: one stage for every head. matrices: (h, T, T).

    All heads share one colour range, so they can be compared. The focused head (0-based)
    has a thicker border in its colour.
    """
    h, T = matrices.shape[0], len(labels)
    _check_square("matrices", matrices, labels)
    cols = cols or min(h, OVERVIEW_COLUMNS)
    rows = math.ceil(h / cols)
    show_labels = T <= OVERVIEW_LABELS_MAX_TOKENS and cols <= OVERVIEW_COLUMNS
    row_gap = THUMBNAIL_GAP_LABELS_PX if show_labels else THUMBNAIL_GAP_PX  # room for tick labels
    height = rows * THUMBNAIL_PX + (rows - 1) * row_gap + HEADER_PX + FOOTER_OVERVIEW_PX
    panels = grid(
        h, cols, THUMBNAIL_GAP, row_gap / height, top=1.0 - HEADER_PX / height, bottom=FOOTER_OVERVIEW_PX / height
    )
    categories = axis_labels(labels)
    z_limit = 1.0 if _is_weights(stage) else score_range(list(matrices))
    traces: list[dict] = []
    layout: dict = {}
    annotations, shapes = [], []
    for head, panel in enumerate(panels):
        colorbar = dict(thickness=COLORBAR_THICKNESS_PX, **OVERVIEW_COLORBAR) if head == 0 else None
        traces.extend(_stage_traces(matrices[head], categories, stage, head, panel, text, z_limit, colorbar))
        layout.update(panel_axes(panel, T, show_labels, square=False, show_y=head % cols == 0))
        annotations.append(panel_title(f"{text.head} {head + 1}", panel, head_color(head), bold=True))
        shapes.append(panel_outline(panel, head_color(head), FOCUSED_BORDER_PX if head == focus else BORDER_PX))
    if stage == "masked_scores":
        traces.append(_masked_legend_entry(text))
    layout.update(
        height=height,
        margin=dict(
            l=OVERVIEW_MARGIN_LABELS_PX if show_labels else OVERVIEW_MARGIN_PX, r=OVERVIEW_MARGIN_RIGHT_PX,
            t=HEADER_PX // 2, b=MARGIN_PX,
        ),  # fmt: skip
        annotations=annotations,
        shapes=shapes,
        font=dict(size=FONT_SIZE, family=FONT_FAMILY),
        title=dict(text=text.stage_titles[stage], font=dict(size=TITLE_FONT_SIZE)),
        legend=dict(orientation="h", x=1.0, xanchor="right", y=1.0, yanchor="bottom"),
        plot_bgcolor=BACKGROUND,
    )
    return build_figure(traces, layout)
