"""Two set-ups compared: B − A, cell by cell, as a diverging heatmap centred on 0.

Both set-ups must have the same shape ``(h, T, T)``: the same tokens and the same number of
heads. Where the head counts differ, the page passes each set-up's mean over its heads,
``(1, T, T)``, with ``of_means=True`` (one panel); where the tokens differ there is nothing
to subtract, and this builder refuses (ValueError), so the page says so in words.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from gpt_core.window import Window

from .attention import masked_legend_entry, window_title
from .events import MINUS_INF as MINUS_INF_LAYER
from .events import layer_meta, trace_meta
from .labels import plotly_safe
from .overview import BORDER_PX, FOCUSED_BORDER_PX, OverviewPlan, plan_overview
from .palette import HIGHLIGHT_COLOR, MASKED_COLOR, SCORE_COLORSCALE, head_color
from .panels import (
    cell_outline,
    figure_title,
    finished_layout,
    panel_axes,
    panel_border,
    panel_title,
    shared_colorbar,
    top_legend,
)
from .sizing import DEFAULT_SIZE, ChartSize
from .style import TITLE_FONT_SIZE, build_figure
from .words import Words

COMPARE_WIDTH_PX = 800.0  # the chart's width where the page gives none


def difference(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``b − a`` (float32) and the cells where either is not finite (−∞: a masked cell),
    which have no difference (NaN there). Raises ValueError when the shapes differ."""
    a, b = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    if a.shape != b.shape:
        raise ValueError(f"cannot subtract set-ups of shapes {a.shape} and {b.shape}")
    masked = ~(np.isfinite(a) & np.isfinite(b))
    with np.errstate(invalid="ignore"):
        diff = np.where(masked, np.float32(np.nan), b - a)
    return diff.astype(np.float32), masked


def difference_range(diff: np.ndarray) -> float:
    """The largest |B − A| (1 when there is none): the colour scale runs from − it to + it."""
    finite = diff[np.isfinite(diff)]
    largest = float(np.abs(finite).max()) if finite.size else 0.0
    return largest or 1.0


def _panel_heatmaps(
    diff: np.ndarray,
    masked: np.ndarray,
    head: int,
    name: str,
    common: dict,
    limit: float,
    colorbar: dict | None,
    text: Words,
    origin: tuple[int, int] = (0, 0),
) -> list[dict]:
    """One panel's heatmaps: the cells masked in either set-up (a layer of their own, drawn
    first, only where there are any), then B − A on the shared scale (``colorbar``: the
    first panel's, None on the others). ``common``: the panel's axes and categories."""
    value_label = plotly_safe(text["cmp.fig.b_minus_a"])
    trace_label = f"{value_label} · {name}"
    where = f"{plotly_safe(text['fig.query'])} %{{y}}<br>{plotly_safe(text['fig.key'])} %{{x}}<br>"
    traces = []
    if masked.any():
        traces.append(
            dict(
                common,
                type="heatmap",
                z=np.where(masked, np.float32(1.0), np.float32(np.nan)),
                colorscale=[[0.0, MASKED_COLOR], [1.0, MASKED_COLOR]],
                showscale=False,
                name=f"{plotly_safe(text['fig.minus_inf'])} · {name}",
                meta={**trace_meta(head, origin=origin), **layer_meta(head, MINUS_INF_LAYER)},
                hovertemplate=f"{where}{plotly_safe(text['fig.masked_reason'])}<extra></extra>",
            )
        )
    traces.append(
        dict(
            common,
            type="heatmap",
            z=diff,
            colorscale=SCORE_COLORSCALE,
            zmin=-limit,
            zmax=limit,
            zmid=0.0,
            showscale=head == 0,
            colorbar=colorbar,
            name=trace_label,
            meta=trace_meta(head, origin=origin),
            hovertemplate=f"{where}{value_label}: %{{z:+.4f}}<extra>{trace_label}</extra>",
        )
    )
    return traces


def _head_panels(
    plan: OverviewPlan,
    diff: np.ndarray,
    masked: np.ndarray,
    text: Words,
    of_means: bool,
    focus: int | None,
    highlight: tuple[int, int] | None,
    limit: float,
    origin: tuple[int, int],
    scale: float,
) -> tuple[list[dict], dict, list[dict], list[dict]]:
    """Each head's panel: its heatmaps, axes, title, border (thicker on ``focus``) and the
    ``highlight`` cell's outline; returned as traces, layout axes, annotations and shapes."""
    traces, layout, annotations, shapes = [], {}, [], []
    for head, panel in enumerate(plan.panels):
        name = plotly_safe(text["cmp.fig.mean_panel"]) if of_means else f"{plotly_safe(text['fig.head'])} {head + 1}"
        common = dict(
            x=plan.labels.categories, y=plan.labels.rows, xaxis=panel.xaxis, yaxis=panel.yaxis, hoverongaps=False
        )
        colorbar = shared_colorbar(plan.frame, scale) if head == 0 else None
        traces += _panel_heatmaps(diff[head], masked[head], head, name, common, limit, colorbar, text, origin)
        first_col = head % plan.cols == 0
        layout.update(
            panel_axes(
                panel,
                plan.labels,
                plan.labelled[head],
                first_col,
                text["fig.key_axis"] if plan.labelled[head] and first_col else None,
                text["fig.query_axis"] if head == 0 else None,
            )
        )
        color = "#222" if of_means else head_color(head)
        annotations.append(panel_title(name, panel, TITLE_FONT_SIZE * scale, color, bold=True))
        shapes.append(panel_border(panel, color, FOCUSED_BORDER_PX if head == focus else BORDER_PX))
        if highlight is not None:
            shapes.append(cell_outline(panel, *highlight, HIGHLIGHT_COLOR))
    return traces, layout, annotations, shapes


def _difference_title(text: Words, stage: str, of_means: bool, window: Window | None) -> str:
    """The chart's title: the stage compared (of the heads' means), and the window shown."""
    key = "cmp.fig.mean_title" if of_means else "cmp.fig.title"
    title = text[key].format(stage=text[f"stage.{stage}"])
    if window is not None and not window.whole:
        title += " · " + window_title(window, text)
    return title


def difference_figure(
    a: np.ndarray,
    b: np.ndarray,
    labels: list[str],
    stage: str,
    text: Words,
    highlight: tuple[int, int] | None = None,
    focus: int | None = None,
    of_means: bool = False,
    window: Window | None = None,
    size: ChartSize = DEFAULT_SIZE,
) -> go.Figure:
    """B − A for one stage, one panel per head (``of_means``: one panel, the heads' means),
    in a diverging colour scale centred on 0 (red: B larger, blue: A larger), cells masked
    in either set-up in the masked colour. ``highlight``: the chosen (query, key) cell,
    outlined in every panel. a, b: (h, T, T) with T = len(labels). window: a long text's
    window (``gpt_core.window``): only its cells are drawn, in the colour range of all.
    size: the page's width for the chart (default 800 px) and the type scale."""
    diff, masked = difference(a, b)
    if diff.ndim != 3 or diff.shape[1:] != (len(labels), len(labels)):
        raise ValueError(f"set-ups of shape {diff.shape} do not match the {len(labels)} tokens {labels}")
    scale = size.scale
    plan = plan_overview(diff.shape[0], labels, ChartSize(size.width_or(COMPARE_WIDTH_PX), scale), window)
    limit = difference_range(diff)
    origin = (0, 0)
    if window is not None and not window.whole:
        diff, masked, origin, highlight = window.cut(diff), window.cut(masked), window.origin, window.local(highlight)
    traces, layout, annotations, shapes = _head_panels(
        plan, diff, masked, text, of_means, focus, highlight, limit, origin, scale
    )
    if masked.any():
        traces.append(masked_legend_entry(text))
    title = _difference_title(text, stage, of_means, window)
    layout = finished_layout(
        layout,
        plan.frame,
        scale,
        plan.panels,
        annotations=annotations,
        shapes=shapes,
        legend=top_legend(scale),
        title=figure_title(plotly_safe(title), TITLE_FONT_SIZE * scale),
    )
    return build_figure(traces, layout)
