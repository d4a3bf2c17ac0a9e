"""Heatmaps of the attention stages: one head in detail, and all heads as small multiples.

Queries are rows (top to bottom), keys are columns. Each panel's axes are category axes
whose values are ``"position · token"`` (unique, escaped), so repeated tokens keep their
own rows and a hovered cell names its query and key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy as np
import plotly.graph_objects as go

from gpt_core import DETAIL_STAGES

from .events import layout_meta, trace_meta
from .labels import plotly_safe
from .layout import Panel, cell_outline
from .palette import DROPPED_COLOR, HIGHLIGHT_COLOR, MASKED_COLOR, head_color
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
    wrapped_title,
)
from .sizing import (
    DEFAULT_WIDTH_PX,
    LABEL_PAD_PX,
    LINE_HEIGHT,
    PanelGrid,
    key_ticks,
    panel_grid,
    query_ticks,
    short_label,
    text_px,
)
from .stage_colors import (
    Look,
    colorbar_notes,
    dropped_cells,
    stage_looks,
    value_format,
    values_fit,
)
from .style import (
    BACKGROUND,
    COLORBAR_FONT_SIZE,
    COLORBAR_THICKNESS_PX,
    FONT_FAMILY,
    FONT_SIZE,
    TITLE_COLOR,
    TITLE_FONT_SIZE,
    build_figure,
)
from .text import AttentionText

# Type, in pixels at scale 1 (presentation mode passes a larger scale).
VALUE_FONT_PX = 11
HEAD_TITLE_EXTRA_PX = 4  # the head's title is a little larger than the stage titles
# The detail view: one panel per stage, all in one row while cells keep MIN_CELL_PX.
DETAIL_MIN_CELL_PX = 8
DETAIL_MAX_CELL_PX = 48
DETAIL_MIN_PANEL_PX = 150
DETAIL_MAX_PANEL_PX = 440
DETAIL_GAP_PX = 26  # between panels of a row (more when the key labels reach over)
HEADER_PX = 40  # the head's title and the legend
COLORBAR_SHARE = 0.8  # of its panel's width: the numbers at its ends stay clear of the next one
ROW_GAP_PX = 16
COLORBAR_BLOCK_PX = 58  # a colour bar under its panel, its numbers and its one-line note
LEGEND_MARKER_PX = 16


def trace_name(stage: str, head: int, text: AttentionText) -> str:
    """``"softmax weights · head 2"``: stage and 1-based head, for tests and screen readers."""
    return f"{text.stage_titles[stage]} · {text.head} {head + 1}"


def stage_traces(
    matrix: np.ndarray,
    categories: list[str],
    stage: str,
    head: int,
    panel: Panel,
    text: AttentionText,
    look: Look,
    dropped: np.ndarray | None = None,
) -> list[dict]:
    """The heatmap of one stage of one head, with the −∞ layer under it when masked and, after
    dropout, the dropped cells' layer. ``meta.head`` tells a click which head it was."""
    z = np.asarray(matrix, dtype=np.float32)
    masked = np.isneginf(z)
    name = trace_name(stage, head, text)
    value_label = plotly_safe(text.stage_titles[stage])
    where = f"{text.query} %{{y}}<br>{text.key} %{{x}}<br>"
    common = dict(
        x=categories, y=categories, xaxis=panel.xaxis, yaxis=panel.yaxis, hoverongaps=False, meta=trace_meta(head),
    )  # fmt: skip
    write = {}
    if look.values_font_px:
        write = dict(textfont=dict(size=look.values_font_px))
    traces: list[dict] = []
    if masked.any():
        # Drawn first, under the values: only the −∞ cells are set, in a colour no scale has.
        traces.append(
            dict(
                common,
                type="heatmap",
                z=np.where(masked, np.float32(1.0), np.float32(np.nan)),
                colorscale=[[0.0, MASKED_COLOR], [1.0, MASKED_COLOR]],
                showscale=False,
                name=f"{text.minus_inf} · {text.head} {head + 1}",
                hovertemplate=f"{where}{value_label}: −∞ ({plotly_safe(text.masked_reason)})<extra></extra>",
                **(
                    dict(write, texttemplate="−∞", textfont=dict(size=look.values_font_px, color="white"))
                    if write
                    else {}
                ),
            )  # fmt: skip
        )
    values = np.where(masked, np.float32(np.nan), z)
    if dropped is not None and dropped.any():
        traces.append(
            dict(
                common,
                type="heatmap",
                z=np.where(dropped, np.float32(0.0), np.float32(np.nan)),
                colorscale=[[0.0, DROPPED_COLOR], [1.0, DROPPED_COLOR]],
                showscale=False,
                name=f"{text.dropped} · {text.head} {head + 1}",
                hovertemplate=f"{where}{value_label}: 0 ({plotly_safe(text.dropped)})<extra></extra>",
                **(dict(write, texttemplate="0") if write else {}),
            )  # fmt: skip
        )
        values = np.where(dropped, np.float32(np.nan), values)
    color = dict(colorscale=look.colorscale, zmin=look.zmin, zmax=look.zmax)
    if look.zmid is not None:
        color["zmid"] = look.zmid
    if write:
        write["texttemplate"] = f"%{{z:{value_format(stage)}}}"
    traces.append(
        dict(
            common,
            type="heatmap",
            z=values,
            showscale=look.colorbar is not None,
            colorbar=look.colorbar,
            name=name,
            hovertemplate=f"{where}{value_label}: %{{z:.4f}}<extra>{plotly_safe(name)}</extra>",
            **color,
            **write,
        )  # fmt: skip
    )
    return traces


def _legend_square(name: str, color: str) -> dict:
    """A legend entry for a colour no heatmap names (heatmaps have no legend entries)."""
    return dict(
        type="scatter", x=[None], y=[None], mode="markers", name=name, showlegend=True,
        marker=dict(symbol="square", size=LEGEND_MARKER_PX, color=color, line=dict(color="#888", width=1)),
        hoverinfo="skip",
    )  # fmt: skip


def masked_legend_entry(text: AttentionText) -> dict:
    return _legend_square(text.legend_masked, MASKED_COLOR)


def check_square(name: str, matrix: np.ndarray, labels: list[str]) -> None:
    T = len(labels)
    if matrix.shape[-2:] != (T, T):
        raise ValueError(f"{name} has shape {matrix.shape}, expected (…, {T}, {T}) for tokens {labels}")


def _highlight_shapes(panels: list[Panel], highlight: tuple[int, int] | None) -> list[dict]:
    if highlight is None:
        return []
    return [cell_outline(panel, *highlight, HIGHLIGHT_COLOR) for panel in panels]


def head_detail_figure(
    stages: Mapping[str, np.ndarray],
    labels: list[str],
    head: int,
    text: AttentionText,
    highlight: tuple[int, int] | None = None,
    scaled: bool = True,
    width_px: float | None = None,
    scale: float = 1.0,
    show_values: bool = True,
) -> go.Figure:
    """All stages of one head, side by side while their cells stay legible, else in rows.

    stages: stage name -> (T, T) array for this head (the keys of ``DETAIL_STAGES`` that are
    given, in that order). labels: T display labels. head: 0-based. highlight: (query, key) cell
    outlined in every stage. scaled: False titles the scaled stage as "not scaled".
    width_px: the width the page gives the chart (default: a 1366 px projector's). scale:
    type size (presentation mode is larger). show_values: write the values in the cells
    while they fit.
    """
    names = [stage for stage in DETAIL_STAGES if stage in stages]
    T = len(labels)
    for stage in names:
        check_square(stage, stages[stage], labels)
    width = width_px or DEFAULT_WIDTH_PX
    tick_px, title_px = TICK_FONT_PX * scale, TITLE_FONT_SIZE * scale
    axis_title_px = AXIS_TITLE_FONT_PX * scale
    short = [short_label(label) for label in labels]
    categories = categories_of(labels)

    # Room for the query labels on the left, then the panels' size from what is left.
    left = query_label_room(short, tick_px, axis_title_px)
    available = width - left - MARGIN_PX
    gap = DETAIL_GAP_PX * scale
    for _ in range(2):  # the gap depends on the key labels, which depend on the cell size
        layout_grid = panel_grid(
            len(names), T, available, gap, DETAIL_MIN_CELL_PX * scale, DETAIL_MAX_CELL_PX * scale,
            DETAIL_MIN_PANEL_PX * scale, DETAIL_MAX_PANEL_PX * scale,
        )  # fmt: skip
        legible = T * DETAIL_MIN_CELL_PX * scale
        if layout_grid.panel_px < legible:  # one stage a row and still too narrow: wider than the page
            layout_grid = PanelGrid(1, len(names), legible)
            width = left + legible + MARGIN_PX
        cell = layout_grid.cell_px(T)
        key_labels = key_ticks(short, cell, tick_px)
        overhang = 0.0
        if key_labels.angle == 0:
            first, last = key_labels.positions[0], key_labels.positions[-1]
            half = [max(text_px(str(i), tick_px), text_px(short[i], tick_px)) / 2 for i in (first, last)]
            overhang = max(0.0, half[1] - (T - last - 0.5) * cell) + max(0.0, half[0] - (first + 0.5) * cell)
        needed_gap = overhang + LABEL_PAD_PX * 2
        if needed_gap <= gap:
            break
        gap = needed_gap
    query_labels = query_ticks(short, cell, tick_px)
    panel_px = layout_grid.panel_px

    titles = {
        stage: (text.not_scaled if stage == "scaled_scores" and not scaled else text.stage_titles[stage])
        for stage in names
    }
    wrapped = {stage: wrapped_title(titles[stage], panel_px + gap - LABEL_PAD_PX, title_px) for stage in names}
    title_room = max(lines for _, lines in wrapped.values()) * title_px * LINE_HEIGHT + 4
    row_px = (
        title_room + panel_px + key_labels.extent_px + TICK_STANDOFF_PX + axis_title_px * LINE_HEIGHT
        + COLORBAR_BLOCK_PX * scale + ROW_GAP_PX
    )  # fmt: skip
    header = HEADER_PX * scale
    frame = Frame(width, header + layout_grid.rows * row_px + MARGIN_PX, left, MARGIN_PX, header, MARGIN_PX)

    looks = stage_looks(stages, names)
    notes = colorbar_notes(names, text)
    dropped = dropped_cells(stages)
    values_px = VALUE_FONT_PX * scale
    traces: list[dict] = []
    layout: dict = {}
    annotations, panels = [], []
    for index, stage in enumerate(names):
        row, col = divmod(index, layout_grid.cols)
        top = row * row_px + title_room
        panel = frame.panel(index + 1, col * (panel_px + gap), top, panel_px)
        panels.append(panel)
        below = top + panel_px + key_labels.extent_px + TICK_STANDOFF_PX + axis_title_px * LINE_HEIGHT
        look = replace(
            looks[stage],
            colorbar=dict(
                orientation="h", x=panel.center_x, xanchor="center",
                y=frame.y_paper(below), yanchor="top", lenmode="pixels", len=panel_px * COLORBAR_SHARE,
                thickness=COLORBAR_THICKNESS_PX,
                ypad=0, xpad=0, tickfont=dict(size=COLORBAR_FONT_SIZE * scale), outlinewidth=0,
                title=dict(text=plotly_safe(notes[stage]), side="bottom", font=dict(size=COLORBAR_FONT_SIZE * scale)),
            ),
            values_font_px=values_px if show_values and values_fit(stages[stage], stage, cell, values_px) else None,
        )  # fmt: skip
        traces.extend(
            stage_traces(stages[stage], categories, stage, head, panel, text, look,
                          dropped if stage == "dropped_weights" else None)
        )  # fmt: skip
        first_col = col == 0
        layout.update(
            category_axis(panel, "x", panel.x_domain, categories, key_labels, tick_px,
                  text.key_axis if first_col else None, axis_title_px)
        )  # fmt: skip
        layout.update(
            category_axis(panel, "y", panel.y_domain, categories, query_labels if first_col else None, tick_px,
                  text.query_axis if first_col else None, axis_title_px)
        )  # fmt: skip
        title_text, _ = wrapped[stage]
        annotations.append(
            dict(
                text=title_text,
                x=0.5,
                y=1.0,
                xref=f"{panel.xaxis} domain",
                yref=f"{panel.yaxis} domain",
                xanchor="center",
                yanchor="bottom",
                showarrow=False,
                font=dict(size=title_px, color=TITLE_COLOR),
            )  # fmt: skip
        )
    for panel in panels:
        square_cells(layout, panel.index)
    legend = [masked_legend_entry(text)]
    if dropped is not None and dropped.any():
        legend.append(_legend_square(text.dropped, DROPPED_COLOR))
    traces.extend(legend)
    head_title = dict(
        text=f"<b>{plotly_safe(text.head)} {head + 1}</b>", x=0.0, xref="paper", xanchor="left",
        y=1.0, yref="container", yanchor="top", pad=dict(t=6),
        font=dict(color=head_color(head), size=(TITLE_FONT_SIZE + HEAD_TITLE_EXTRA_PX) * scale),
    )  # fmt: skip
    layout.update(
        height=round(frame.height),
        margin=dict(l=round(frame.left), r=round(frame.right), t=round(frame.top), b=round(frame.bottom)),
        annotations=annotations,
        shapes=_highlight_shapes(panels, highlight),
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        title=head_title,
        legend=dict(
            orientation="h", x=1.0, xanchor="right", y=1.0, yanchor="bottom", font=dict(size=FONT_SIZE * scale)
        ),
        plot_bgcolor=BACKGROUND,
        hoverlabel=dict(font_size=FONT_SIZE * scale),
        # A hovered cell is outlined in every stage (figures/events.py); the width the layout
        # needs is more than the page's when cells would fall below their minimum.
        meta=layout_meta(sync_hover=True, min_width_px=width),
    )
    return build_figure(traces, layout)
