"""The lesson's own figures (the attention stages are drawn by figures.attention, as in the
playground): parameters per head count, why √head_dim, and one output computed two ways."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from gpt_core.lesson import ScalingRow

from .labels import axis_labels, two_lines
from .palette import SCORE_COLORSCALE, head_color
from .style import BACKGROUND, FONT_FAMILY, FONT_SIZE, GRID_COLOR, TITLE_FONT_SIZE, build_figure
from .words import Words

FIGURE_HEIGHT = 380
MARGIN = dict(l=70, r=20, t=100, b=60)  # the title, then the legend, above the plot
LAYERS = ("query_layer", "key_layer", "value_layer", "output_layer")
LAYER_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#7f7f7f")
UNSCALED_COLOR = "#d62728"
SCALED_COLOR = "#1f77b4"
LINE_WIDTH = 3
MARKER_PX = 9
# An axis title under half a figure: longer ones go on two lines (a projector's larger type
# made the two halves' titles run into each other)
HALF_TITLE_CHARS = 16


def _layout(title: str, x_title: str, y_title: str, **extra) -> dict:
    return dict(
        height=FIGURE_HEIGHT,
        margin=MARGIN,
        plot_bgcolor=BACKGROUND,
        font=dict(size=FONT_SIZE, family=FONT_FAMILY),
        title=dict(text=title, font=dict(size=TITLE_FONT_SIZE), yref="container", y=0.98, yanchor="top"),
        xaxis=dict(title=dict(text=x_title), gridcolor=GRID_COLOR, automargin=True),
        yaxis=dict(title=dict(text=y_title), gridcolor=GRID_COLOR, automargin=True),  # titles clear of tick labels
        legend=dict(orientation="h", x=0.0, y=1.02, yanchor="bottom"),
        **extra,
    )


def parameter_figure(counts: Mapping[int, Mapping[str, int]], text: Words) -> go.Figure:
    """Stacked bars: the parameters of each layer, for each head count (the same height)."""
    heads = sorted(counts)
    x = [text["lsfig.heads_label"].format(heads=h) for h in heads]
    traces = [
        dict(
            type="bar",
            name=text[f"lsfig.{layer}"],
            x=x,
            y=[counts[h][layer] for h in heads],
            marker=dict(color=color),
            hovertemplate="%{x}: %{y:,}<extra>%{fullData.name}</extra>",
        )
        for layer, color in zip(LAYERS, LAYER_COLORS, strict=True)
    ]
    totals = [
        dict(x=label, y=counts[h]["total"], text=f"{counts[h]['total']:,}", showarrow=False, yanchor="bottom")
        for label, h in zip(x, heads, strict=True)
    ]
    return build_figure(
        traces,
        _layout(
            text["lsfig.parameters_title"],
            text["lsfig.heads_axis"],
            text["lsfig.parameters_axis"],
            barmode="stack",
            annotations=totals,
        ),
    )


def scaling_figure(rows: Sequence[ScalingRow], text: Words) -> go.Figure:
    """The mean largest softmax weight of a row against head_dim, with and without ÷ √head_dim."""
    dims = [row.head_dim for row in rows]
    lines = [
        (text["lsfig.unscaled"], [row.max_weight for row in rows], UNSCALED_COLOR),
        (text["lsfig.scaled"], [row.scaled_max_weight for row in rows], SCALED_COLOR),
    ]
    traces = [
        dict(
            type="scatter",
            mode="lines+markers",
            name=name,
            x=dims,
            y=values,
            line=dict(color=color, width=LINE_WIDTH),
            marker=dict(size=MARKER_PX),
            hovertemplate="head_dim %{x}: %{y:.3f}<extra>%{fullData.name}</extra>",
        )
        for name, values, color in lines
    ]
    layout = _layout(text["lsfig.scaling_title"], text["lsfig.head_dim_axis"], text["lsfig.max_weight_axis"])
    layout["xaxis"].update(type="log", tickvals=dims)
    layout["yaxis"].update(range=[0, 1.02])
    return build_figure(traces, layout)


def softmax_bars_figure(unscaled: np.ndarray, scaled: np.ndarray, labels: list[str], text: Words) -> go.Figure:
    """One row's softmax weights, without and with scaling, side by side per key."""
    keys = axis_labels(labels)
    traces = [
        dict(
            type="bar",
            name=name,
            x=keys,
            y=np.asarray(values, dtype=float).tolist(),
            marker=dict(color=color),
            hovertemplate="%{x}: %{y:.4f}<extra>%{fullData.name}</extra>",
        )
        for name, values, color in (
            (text["lsfig.unscaled"], unscaled, UNSCALED_COLOR),
            (text["lsfig.scaled"], scaled, SCALED_COLOR),
        )
    ]
    layout = _layout(text["lsfig.row_title"], text["fig.key_axis"], text["lsfig.weight_axis"], barmode="group")
    layout["yaxis"].update(range=[0, 1.02])
    layout["xaxis"].update(type="category")
    return build_figure(traces, layout)


def row_scores_figure(scores: np.ndarray, labels: list[str], text: Words) -> go.Figure:
    """One row's raw scores (before the softmax, not divided), a bar per key: how far apart
    they lie, before the question of what the softmax makes of them."""
    trace = dict(
        type="bar",
        name=text["lsfig.unscaled"],
        x=axis_labels(labels),
        y=np.asarray(scores, dtype=float).tolist(),
        marker=dict(color=UNSCALED_COLOR),
        hovertemplate="%{x}: %{y:.2f}<extra></extra>",
    )
    layout = _layout(text["lsfig.scores_title"], text["fig.key_axis"], text["lsfig.score_axis"], showlegend=False)
    layout["xaxis"].update(type="category")
    return build_figure([trace], layout)


def _head_marks(columns: int, heads: int, axis: str = "") -> list[dict]:
    """A coloured run under each head's channels."""
    width = columns // heads
    return [
        dict(
            type="rect",
            xref=f"x{axis}",
            yref="paper",
            x0=h * width - 0.5,
            x1=(h + 1) * width - 0.5,
            y0=-0.02,
            y1=0.0,
            fillcolor=head_color(h),
            line=dict(width=0),
        )
        for h in range(heads)
    ]


def output_figure(batched: np.ndarray, labels: list[str], heads: int, text: Words) -> go.Figure:
    """The layer's output (T, C), computed by the layer itself, its heads' channels marked."""
    limit = float(np.abs(batched).max() or 1e-9)
    trace = dict(
        type="heatmap",
        z=np.asarray(batched, dtype=float).tolist(),
        y=axis_labels(labels),
        x=list(range(batched.shape[1])),
        zmin=-limit,
        zmax=limit,
        colorscale=SCORE_COLORSCALE,
        hovertemplate=f"%{{y}} · {text['lsfig.channel']} %{{x}}: %{{z:.4f}}<extra></extra>",
    )
    layout = _layout(text["lsfig.output_title"], text["lsfig.channel"], text["fig.query_axis"])
    layout["yaxis"].update(autorange="reversed", type="category")
    layout.update(shapes=_head_marks(batched.shape[1], heads))
    return build_figure([trace], layout)


def two_ways_figure(batched: np.ndarray, by_head: np.ndarray, labels: list[str], heads: int, text: Words) -> go.Figure:
    """The same output (T, C) computed by the batched layer and head by head, as two heatmaps
    with one colour range; the channels' head is marked under each."""
    rows = axis_labels(labels)
    limit = float(max(np.abs(batched).max(), np.abs(by_head).max(), 1e-9))
    traces = []
    for index, (matrix, name) in enumerate(((batched, text["lsfig.batched"]), (by_head, text["lsfig.by_head"]))):
        axis = "" if index == 0 else "2"
        traces.append(
            dict(
                type="heatmap",
                name=name,
                z=np.asarray(matrix, dtype=float).tolist(),
                y=rows,
                x=list(range(matrix.shape[1])),
                xaxis=f"x{axis}",
                yaxis=f"y{axis}",
                zmin=-limit,
                zmax=limit,
                colorscale=SCORE_COLORSCALE,
                showscale=index == 1,
                hovertemplate=f"{name}<br>%{{y}} · {text['lsfig.channel']} %{{x}}: %{{z:.6f}}<extra></extra>",
            )
        )
    layout = _layout(text["lsfig.two_ways_title"], text["lsfig.channel"], text["fig.query_axis"])
    layout.update(
        xaxis=dict(
            domain=[0, 0.47], title=dict(text=two_lines(text["lsfig.batched"], HALF_TITLE_CHARS)), automargin=True
        ),
        xaxis2=dict(
            domain=[0.53, 1], title=dict(text=two_lines(text["lsfig.by_head"], HALF_TITLE_CHARS)), automargin=True
        ),
        yaxis=dict(autorange="reversed", type="category", automargin=True),
        yaxis2=dict(autorange="reversed", type="category", anchor="x2", showticklabels=False),
        shapes=[*_head_marks(batched.shape[1], heads), *_head_marks(batched.shape[1], heads, "2")],
    )
    return build_figure(traces, layout)


QKV_NAMES = ("Q", "K", "V")
# Narrower than this (a phone's column), Q, K and V go one above the other, each as wide as
# the page: side by side, 16 channels would get columns of 4 px.
QKV_STACK_BELOW_PX = 600
QKV_ROW_PX = 24  # a token's row, stacked
QKV_STACK_GAP_PX = 76  # under a stacked panel: its channel ticks and its title


def _qkv_axes(index: int, name: str, text: Words, tokens: int, stacked: bool) -> tuple[dict, dict, float | None]:
    """Panel ``index``'s x and y axes: side by side (a third of the width each, the tokens
    named once) or stacked (the whole width, each named); stacked, the plot's height too."""
    title = dict(text=f"{name} · {text['lsfig.channel']}")
    axis = "" if index == 0 else str(index + 1)
    y = dict(autorange="reversed", type="category", anchor=f"x{axis}", automargin=True, showticklabels=True)
    if not stacked:
        left = index * 0.345
        y["showticklabels"] = index == 0
        return dict(domain=[left, left + 0.31], title=title, automargin=True), y, None
    panel = tokens * QKV_ROW_PX
    height = 3 * panel + 2 * QKV_STACK_GAP_PX
    top = height - index * (panel + QKV_STACK_GAP_PX)
    y["domain"] = [(top - panel) / height, top / height]
    return dict(domain=[0, 1], title=title, anchor=f"y{axis}", automargin=True), y, height


def qkv_figure(
    queries: np.ndarray,
    keys: np.ndarray,
    values: np.ndarray,
    labels: list[str],
    text: Words,
    width_px: float | None = None,
) -> go.Figure:
    """One head's Q, K and V (each (T, d): a row per token, a column per channel) side by side,
    in one colour range: what the head computes from before its scores. width_px: the page's
    width; under QKV_STACK_BELOW_PX they go one above the other."""
    rows = axis_labels(labels)
    limit = float(max(np.abs(m).max() for m in (queries, keys, values)) or 1e-9)
    stacked = width_px is not None and width_px < QKV_STACK_BELOW_PX
    traces, layout_axes, plot_height = [], {}, None
    for index, (matrix, name) in enumerate(zip((queries, keys, values), QKV_NAMES, strict=True)):
        axis = "" if index == 0 else str(index + 1)
        traces.append(
            dict(
                type="heatmap",
                name=name,
                z=np.asarray(matrix, dtype=float).tolist(),
                y=rows,
                x=list(range(matrix.shape[1])),
                xaxis=f"x{axis}",
                yaxis=f"y{axis}",
                zmin=-limit,
                zmax=limit,
                colorscale=SCORE_COLORSCALE,
                showscale=index == 2,
                hovertemplate=f"{name}<br>%{{y}} · {text['lsfig.channel']} %{{x}}: %{{z:.4f}}<extra></extra>",
            )
        )
        layout_axes[f"xaxis{axis}"], layout_axes[f"yaxis{axis}"], plot_height = _qkv_axes(
            index, name, text, len(rows), stacked
        )
    layout = _layout(text["lsfig.qkv_title"], text["lsfig.channel"], text["fig.query_axis"])
    layout.update(**layout_axes)
    layout["yaxis"]["title"] = dict(text=text["lsfig.token_axis"])  # automargin: clear of the tick labels
    if plot_height is not None:  # the colour bar beside V, the panels' height for their rows
        layout["height"] = round(plot_height + MARGIN["t"] + MARGIN["b"])
        traces[2]["colorbar"] = dict(len=1 / 3, y=0, yanchor="bottom", thickness=14)
    return build_figure(traces, layout)
