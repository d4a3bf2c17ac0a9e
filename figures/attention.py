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
from gpt_core.window import Window

from .detail_plan import DetailPlan, plan_detail
from .events import DROPPED, HEAD, MINUS_INF, layer_meta, layout_meta, trace_meta
from .labels import plotly_safe
from .palette import DROPPED_COLOR, HIGHLIGHT_COLOR, MASKED_COLOR, head_color
from .panels import (
    Panel,
    cell_outline,
    figure_title,
    finished_layout,
    panel_axes,
    panel_title,
    top_legend,
)
from .sizing import DEFAULT_SIZE, ChartSize
from .stage_colors import (
    Look,
    colorbar_notes,
    dropped_cells,
    stage_looks,
    value_format,
    values_cell_px,
    values_fit,
)
from .style import (
    COLORBAR_FONT_SIZE,
    COLORBAR_THICKNESS_PX,
    TITLE_FONT_SIZE,
    build_figure,
)
from .words import Words

# Type, in pixels at scale 1 (presentation mode passes a larger scale).
VALUE_FONT_PX = 11
HEAD_TITLE_EXTRA_PX = 4  # the head's title is a little larger than the stage titles
COLORBAR_SHARE = 0.8  # of its panel's width: the numbers at its ends stay clear of the next one
LEGEND_MARKER_PX = 16


def window_title(window: Window, text: Words) -> str:
    """``"queries 376–423 and keys 0–47 of 512"``: what a window over a long text shows."""
    return text["win.title"].format(
        q0=window.first_query,
        q1=window.first_query + window.size - 1,
        k0=window.first_key,
        k1=window.first_key + window.size - 1,
        T=window.tokens,
    )


def trace_name(stage: str, head: int, text: Words) -> str:
    """``"softmax weights · head 2"``: stage and 1-based head, for tests and screen readers."""
    return f"{text[f'stage.{stage}']} · {text['fig.head']} {head + 1}"


def _where(text: Words) -> str:
    return f"{text['fig.query']} %{{y}}<br>{text['fig.key']} %{{x}}<br>"


def _cells_layer(
    common: dict, cells: np.ndarray, fill: float, color: str, name: str, hover: str, written: dict, layer: str
) -> dict:
    """Only ``cells`` set (to ``fill``), in one colour no scale has: the −∞ cells, drawn
    under the values, or the cells dropout set to 0; its meta says which (figures/events.py)."""
    return dict(
        common,
        type="heatmap",
        z=np.where(cells, np.float32(fill), np.float32(np.nan)),
        colorscale=[[0.0, color], [1.0, color]],
        showscale=False,
        name=name,
        hovertemplate=hover,
        meta={**common["meta"], **layer_meta(common["meta"][HEAD], layer)},
        **written,
    )


def _masked_layer(
    common: dict, masked: np.ndarray, value_label: str, head: int, text: Words, write: dict, look: Look
) -> dict:
    written = dict(write, texttemplate="−∞", textfont=dict(size=look.values_font_px, color="white")) if write else {}
    hover = f"{_where(text)}{value_label}: −∞ ({plotly_safe(text['fig.masked_reason'])})<extra></extra>"
    name = f"{text['fig.minus_inf']} · {text['fig.head']} {head + 1}"
    return _cells_layer(common, masked, 1.0, MASKED_COLOR, name, hover, written, MINUS_INF)


def _dropped_layer(common: dict, dropped: np.ndarray, value_label: str, head: int, text: Words, write: dict) -> dict:
    hover = f"{_where(text)}{value_label}: 0 ({plotly_safe(text['fig.dropped'])})<extra></extra>"
    name = f"{text['fig.dropped']} · {text['fig.head']} {head + 1}"
    written = dict(write, texttemplate="0") if write else {}
    return _cells_layer(common, dropped, 0.0, DROPPED_COLOR, name, hover, written, DROPPED)


def stage_traces(
    matrix: np.ndarray,
    categories: list[str],
    stage: str,
    head: int,
    panel: Panel,
    text: Words,
    look: Look,
    dropped: np.ndarray | None = None,
    rows: list[str] | None = None,
    origin: tuple[int, int] = (0, 0),
) -> list[dict]:
    """The heatmap of one stage of one head, with the −∞ layer under it when masked and, after
    dropout, the dropped cells' layer. ``meta.head`` tells a click which head it was.
    rows: the queries' categories where they are not the keys' (``categories``); origin: the
    first cell's (query, key) in the whole matrix, for a window over a long text."""
    z = np.asarray(matrix, dtype=np.float32)
    masked = np.isneginf(z)
    name = trace_name(stage, head, text)
    value_label = plotly_safe(text[f"stage.{stage}"])
    common = dict(
        x=categories,
        y=categories if rows is None else rows,
        xaxis=panel.xaxis,
        yaxis=panel.yaxis,
        hoverongaps=False,
        meta=trace_meta(head, origin=origin),
    )
    write = dict(textfont=dict(size=look.values_font_px)) if look.values_font_px else {}
    traces = [_masked_layer(common, masked, value_label, head, text, write, look)] if masked.any() else []
    values = np.where(masked, np.float32(np.nan), z)
    if dropped is not None and dropped.any():
        traces.append(_dropped_layer(common, dropped, value_label, head, text, write))
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
            hovertemplate=f"{_where(text)}{value_label}: %{{z:.4f}}<extra>{plotly_safe(name)}</extra>",
            **color,
            **write,
        )
    )
    return traces


def _legend_square(name: str, color: str) -> dict:
    """A legend entry for a colour no heatmap names (heatmaps have no legend entries)."""
    return dict(
        type="scatter",
        x=[None],
        y=[None],
        mode="markers",
        name=name,
        showlegend=True,
        marker=dict(symbol="square", size=LEGEND_MARKER_PX, color=color, line=dict(color="#888", width=1)),
        hoverinfo="skip",
    )


def masked_legend_entry(text: Words) -> dict:
    return _legend_square(text["fig.legend_masked"], MASKED_COLOR)


def check_square(name: str, matrix: np.ndarray, labels: list[str]) -> None:
    T = len(labels)
    if matrix.shape[-2:] != (T, T):
        raise ValueError(f"{name} has shape {matrix.shape}, expected (…, {T}, {T}) for tokens {labels}")


def _highlight_shapes(panels: list[Panel], highlight: tuple[int, int] | None) -> list[dict]:
    if highlight is None:
        return []
    return [cell_outline(panel, *highlight, HIGHLIGHT_COLOR) for panel in panels]


def _stage_colorbar(plan: DetailPlan, index: int, note: str, scale: float) -> dict:
    """A stage's colour bar under its panel, with its one-line note."""
    return dict(
        orientation="h",
        x=plan.panels[index].center_x,
        xanchor="center",
        y=plan.colorbar_tops[index],
        yanchor="top",
        lenmode="pixels",
        len=plan.panel_px * COLORBAR_SHARE,
        thickness=COLORBAR_THICKNESS_PX,
        ypad=0,
        xpad=0,
        tickfont=dict(size=COLORBAR_FONT_SIZE * scale),
        outlinewidth=0,
        title=dict(text=plotly_safe(note), side="bottom", font=dict(size=COLORBAR_FONT_SIZE * scale)),
    )


def _detail_titles(names: list[str], text: Words, scaled: bool) -> dict[str, str]:
    return {
        stage: (text["stage.not_scaled"] if stage == "scaled_scores" and not scaled else text[f"stage.{stage}"])
        for stage in names
    }


def _stage_panels(
    stages: Mapping[str, np.ndarray],
    names: list[str],
    plan: DetailPlan,
    head: int,
    text: Words,
    scale: float,
    show_values: bool,
    origin: tuple[int, int],
) -> tuple[list[dict], dict, list[dict]]:
    """Each stage drawn in its panel of the plan (its layers, axes, title and colour bar, its
    values written where they fit), and the legend's keys the stages need: the traces, the
    axes' layout and the titles."""
    values_px = VALUE_FONT_PX * scale
    looks, notes, dropped = stage_looks(stages, names), colorbar_notes(names, text), dropped_cells(stages)
    cell = plan.panel_px / len(plan.labels.rows)
    traces, layout, annotations = [], {}, []
    for index, (stage, panel) in enumerate(zip(names, plan.panels, strict=True)):
        written = show_values and values_fit(stages[stage], stage, cell, values_px)
        look = replace(
            looks[stage],
            colorbar=_stage_colorbar(plan, index, notes[stage], scale),
            values_font_px=values_px if written else None,
        )
        traces += stage_traces(
            stages[stage],
            plan.labels.categories,
            stage,
            head,
            panel,
            text,
            look,
            dropped if stage == "dropped_weights" else None,
            plan.labels.rows,
            origin,
        )
        first_col = index % plan.cols == 0
        layout.update(
            panel_axes(
                panel,
                plan.labels,
                True,
                first_col,
                text["fig.key_axis"] if first_col else None,
                text["fig.query_axis"] if first_col else None,
            )
        )
        annotations.append(panel_title(plan.titles[stage][0], panel, TITLE_FONT_SIZE * scale))
    if any(np.isneginf(stages[stage]).any() for stage in names):  # no −∞ shown, no key for it
        traces.append(masked_legend_entry(text))
    if dropped is not None and dropped.any():
        traces.append(_legend_square(text["fig.dropped"], DROPPED_COLOR))
    return traces, layout, annotations


def _windowed_stages(
    stages: Mapping[str, np.ndarray], highlight: tuple[int, int] | None, window: Window | None, text: Words
) -> tuple[Mapping[str, np.ndarray], tuple[int, int], tuple[int, int] | None, str]:
    """The stages cut to a long text's window (``window`` None or whole: as they are), the
    window's origin, the highlighted cell within it, and the heading's words for it."""
    if window is None or window.whole:
        return stages, (0, 0), highlight, ""
    stages = {stage: window.cut(np.asarray(matrix)) for stage, matrix in stages.items()}
    return stages, window.origin, window.local(highlight), " · " + plotly_safe(window_title(window, text))


def _head_title(head: int, heading: str, text: Words, scale: float) -> dict:
    """ "Head h" in the head's colour, a little larger than the stages' titles."""
    return figure_title(
        f"<b>{plotly_safe(text['fig.head'])} {head + 1}</b>{heading}",
        (TITLE_FONT_SIZE + HEAD_TITLE_EXTRA_PX) * scale,
        head_color(head),
    )


def head_detail_figure(
    stages: Mapping[str, np.ndarray],
    labels: list[str],
    head: int,
    text: Words,
    highlight: tuple[int, int] | None = None,
    scaled: bool = True,
    show_values: bool = True,
    room_for_values: bool = False,
    window: Window | None = None,
    size: ChartSize = DEFAULT_SIZE,
) -> go.Figure:
    """All stages of one head, side by side while their cells stay legible, else in rows.

    stages: stage name -> (T, T) array for this head (the keys of ``DETAIL_STAGES`` that are
    given, in that order). labels: T display labels. head: 0-based. highlight: (query, key) cell
    outlined in every stage. scaled: False titles the scaled stage as "not scaled".
    size: the page's width for the chart (default: a 1366 px projector's), the type scale
    (presentation mode is larger) and the most height (``ChartSize``). show_values: write the values in the cells
    while they fit. room_for_values: with show_values, cells large enough for the values
    while a panel can hold T of them (a few tokens: the stages may take two rows).
    size.max_height_px: at most this tall while cells allow (``plan_detail``).
    window: a long text's window (``gpt_core.window``): only its queries and keys are drawn,
    labelled with their positions in the whole text; a click names the whole matrix's cell.
    """
    names = [stage for stage in DETAIL_STAGES if stage in stages]
    for stage in names:
        check_square(stage, stages[stage], labels)
    stages, origin, highlight, heading = _windowed_stages(stages, highlight, window, text)
    scale = size.scale
    values_px = VALUE_FONT_PX * scale
    value_cell = max(values_cell_px(stages[stage], stage, values_px) for stage in names) if room_for_values else 0.0
    plan = plan_detail(
        names,
        labels,
        _detail_titles(names, text, scaled),
        size,
        value_cell if show_values else 0.0,
        window,
    )
    traces, layout, annotations = _stage_panels(stages, names, plan, head, text, scale, show_values, origin)
    title = _head_title(head, heading, text, scale)
    layout = finished_layout(
        layout,
        plan.frame,
        scale,
        plan.panels,
        annotations=annotations,
        shapes=_highlight_shapes(plan.panels, highlight),
        title=title,
        legend=top_legend(scale),
        # A hovered cell is outlined in every stage (figures/events.py); the width the layout
        # needs is more than the page's when cells would fall below their minimum.
        meta=layout_meta(sync_hover=True, min_width_px=plan.width),
    )
    return build_figure(traces, layout)
