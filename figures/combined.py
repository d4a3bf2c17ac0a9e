"""Heads and layers combined, and one score by hand: a single T × T heatmap (the mean over
heads, or attention rollout through the layers) with the other heatmaps' token labels, and
the channels of q_i and k_j with their products, whose sum is the raw score."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from gpt_core.window import Window

from .attention import window_title
from .detail_plan import HEADER_PX
from .events import trace_meta
from .labels import plotly_safe
from .overview import OVERVIEW_COLORBAR_PX
from .palette import NEGATIVE_COLOR, POSITIVE_COLOR, WEIGHT_COLORSCALE
from .panels import (
    AXIS_TITLE_FONT_PX,
    MARGIN_PX,
    TICK_FONT_PX,
    AxisLabels,
    Frame,
    Panel,
    figure_title,
    finished_layout,
    panel_axes,
    plan_labels,
    query_label_room,
    short_labels,
    wrapped_title,
)
from .sizing import DEFAULT_SIZE, DEFAULT_WIDTH_PX, ChartSize, panel_grid
from .style import (
    BACKGROUND,
    FONT_FAMILY,
    FONT_SIZE,
    GRID_COLOR,
    TICK_FONT_SIZE,
    TITLE_FONT_SIZE,
    build_figure,
)
from .words import Words

COMBINE_KINDS = ("mean", "rollout")
# The combined heatmap: one square panel, larger than an overview's small multiple.
MIN_CELL_PX = 3
MAX_CELL_PX = 48
MIN_PANEL_PX = 160
MAX_PANEL_PX = 460
COLORBAR_GAP_PX = 16  # between the panel and its colour bar
# The q·k chart: q and k above, their products below, one bar per channel.
QK_PLOT_PX = 190  # each of the two plots
QK_GAP_PX = 70  # between them: the upper plot's channel numbers and the lower one's title
QK_TOP_PX = 96  # the title (up to two lines) and the legend
QK_BOTTOM_PX = 64  # the channel numbers and the axis title
# q and k: green and purple (the ends of PRGn), apart from the products' red and blue.
Q_COLOR = "#1b7837"
K_COLOR = "#762a83"
LEGEND_MARKER_PX = 14


def combined_name(kind: str, text: Words) -> str:
    """The heatmap's trace name: ``"mean over heads"`` or ``"attention rollout"``."""
    return {"mean": text["cbfig.mean"], "rollout": text["cbfig.rollout"]}[kind]


def combined_figure(
    matrix: np.ndarray,
    labels: list[str],
    kind: str,
    text: Words,
    title: str | None = None,
    window: Window | None = None,
    size: ChartSize = DEFAULT_SIZE,
) -> go.Figure:
    """One (T, T) matrix of weights in [0, 1] (rows sum to 1), queries as rows and keys as
    columns, labelled as every other heatmap (``"position · token"``). kind: "mean" (the
    heads averaged) or "rollout" (attention rollout); it names the trace and, by default,
    the title. title: plain text (escaped here). window: a long text's window
    (``gpt_core.window``): only its cells are drawn, labelled with their positions.
    size: the page's width for the chart and the type scale."""
    if kind not in COMBINE_KINDS:
        raise ValueError(f"kind must be one of {COMBINE_KINDS}, got {kind!r}")
    z = np.asarray(matrix, dtype=np.float32)
    T = len(labels)
    if z.shape != (T, T):
        raise ValueError(f"the matrix has shape {z.shape}, expected ({T}, {T}) for tokens {labels}")
    width, scale = size.width_or(DEFAULT_WIDTH_PX), size.scale
    every_label, origin, first = list(labels), (0, 0), 0
    heading_text = title if title is not None else combined_name(kind, text)
    if window is not None and not window.whole:
        z, origin, first = window.cut(z), window.origin, window.first_query
        labels, T = every_label[first:][: window.size], window.size
        heading_text += " · " + window_title(window, text)
    plan = _plan_single(labels, every_label, heading_text, width, scale, window, first)
    trace = _weights_trace(z, plan, kind, text, origin, scale)
    layout = panel_axes(plan.panel, plan.axes, True, True, text["fig.key_axis"], text["fig.query_axis"])
    layout = finished_layout(layout, plan.frame, scale, [plan.panel], title=figure_title(plan.heading, plan.title_px))
    return build_figure([trace], layout)


@dataclass(frozen=True)
class _SinglePlan:
    """Where the one panel goes, its labels, and the (wrapped) heading above it."""

    frame: Frame
    panel: Panel
    axes: AxisLabels
    panel_px: float
    heading: str
    title_px: float


def _plan_single(
    labels: list[str],
    every_label: list[str],
    heading_text: str,
    width: float,
    scale: float,
    window: Window | None,
    first: int,
) -> _SinglePlan:
    """One square panel as large as the page's ``width`` allows between the query labels
    and the colour bar, cells within MIN/MAX_CELL_PX; ``labels``: the rows drawn."""
    T = len(labels)
    left = query_label_room(short_labels(labels), TICK_FONT_PX * scale, AXIS_TITLE_FONT_PX * scale, first)
    right = OVERVIEW_COLORBAR_PX * scale
    grid = panel_grid(
        1,
        T,
        width - left - right,
        0.0,
        MIN_CELL_PX * scale,
        MAX_CELL_PX * scale,
        MIN_PANEL_PX * scale,
        MAX_PANEL_PX * scale,
        column_choices=[1],
    )
    axes = plan_labels(every_label, grid.cell_px(T), scale, window)
    title_px = TITLE_FONT_SIZE * scale
    heading, lines = wrapped_title(heading_text, width - MARGIN_PX * 2, title_px)
    header = HEADER_PX * scale + (lines - 1) * title_px * 1.3
    frame = Frame(width, header + grid.panel_px + axes.key_room + MARGIN_PX, left, right, header, MARGIN_PX)
    panel = frame.panel(1, 0.0, 0.0, grid.panel_px)
    return _SinglePlan(frame, panel, axes, grid.panel_px, heading, title_px)


def _weights_trace(
    z: np.ndarray, plan: _SinglePlan, kind: str, text: Words, origin: tuple[int, int], scale: float
) -> dict:
    """The weights' heatmap in [0, 1], its colour bar beside the panel's top."""
    frame, panel = plan.frame, plan.panel
    name = plotly_safe(combined_name(kind, text))
    trace = dict(
        type="heatmap",
        z=z,
        x=plan.axes.categories,
        y=plan.axes.rows,
        xaxis=panel.xaxis,
        yaxis=panel.yaxis,
        colorscale=WEIGHT_COLORSCALE,
        zmin=0.0,
        zmax=1.0,
        hoverongaps=False,
        name=name,
        meta=trace_meta(0, origin=origin),
        colorbar=dict(
            x=panel.x_domain[1] + COLORBAR_GAP_PX * scale / frame.plot_width,
            xref="paper",
            xanchor="left",
            xpad=0,
            y=panel.y_domain[1],
            yref="paper",
            yanchor="top",
            lenmode="pixels",
            len=min(260 * scale, plan.panel_px),
            thickness=12,
            tickfont=dict(size=12 * scale),
            outlinewidth=0,
        ),
        hovertemplate=(
            f"{plotly_safe(text['fig.query'])} %{{y}}<br>{plotly_safe(text['fig.key'])} %{{x}}<br>"
            f"{name}: %{{z:.4f}}<extra></extra>"
        ),
    )
    return trace


def _legend_square(name: str, color: str) -> dict:
    return dict(
        type="scatter",
        x=[None],
        y=[None],
        mode="markers",
        name=name,
        showlegend=True,
        xaxis="x2",
        yaxis="y2",
        marker=dict(symbol="square", size=LEGEND_MARKER_PX, color=color),
        hoverinfo="skip",
    )


def qk_names(query: str, key: str, text: Words) -> tuple[str, str, str]:
    """The traces' names (escaped): q of the query, k of the key, and their products."""
    return (
        plotly_safe(text["qkfig.q"].format(query=query)),
        plotly_safe(text["qkfig.k"].format(key=key)),
        plotly_safe(text["qkfig.products"]),
    )


def _qk_bars(
    q: np.ndarray,
    k: np.ndarray,
    products: np.ndarray,
    head: int,
    names: tuple[str, str, str],
    channel: str,
    text: Words,
) -> list[dict]:
    """q and k side by side on the upper axes, the products below coloured by sign (their
    legend: two squares, as one trace cannot show two colours in the legend)."""
    q_name, k_name, product_name = names
    channels = list(range(len(q)))
    value_hover = f"{channel} %{{x}}: %{{y:.4f}}<extra>%{{fullData.name}}</extra>"
    colors = [POSITIVE_COLOR if value >= 0 else NEGATIVE_COLOR for value in products]
    return [
        dict(
            type="bar",
            name=q_name,
            x=channels,
            y=q.tolist(),
            marker=dict(color=Q_COLOR),
            hovertemplate=value_hover,
            meta=trace_meta(head),
        ),
        dict(
            type="bar",
            name=k_name,
            x=channels,
            y=k.tolist(),
            marker=dict(color=K_COLOR),
            hovertemplate=value_hover,
            meta=trace_meta(head),
        ),
        dict(
            type="bar",
            name=product_name,
            x=channels,
            y=products.tolist(),
            xaxis="x2",
            yaxis="y2",
            marker=dict(color=colors),
            showlegend=False,
            hovertemplate=value_hover,
            meta=trace_meta(head),
        ),
        _legend_square(plotly_safe(text["qkfig.positive"]), POSITIVE_COLOR),
        _legend_square(plotly_safe(text["qkfig.negative"]), NEGATIVE_COLOR),
    ]


def _channel_axis(d: int, anchor: str, title: str | None, scale: float) -> dict:
    """A channel axis of ``d`` bars, every channel numbered while they fit (then every 4th, 8th)."""
    dtick = 1 if d <= 16 else (4 if d <= 64 else 8)
    axis = dict(
        anchor=anchor,
        tickfont=dict(size=TICK_FONT_SIZE * scale),
        dtick=dtick,
        gridcolor=GRID_COLOR,
        fixedrange=True,
        range=[-0.6, d - 0.4],
        zeroline=False,
    )
    if title is not None:
        axis["title"] = dict(text=title, font=dict(size=FONT_SIZE * scale), standoff=4)
    return axis


def _qk_layout(d: int, title: str, product_name: str, channel: str, scale: float) -> dict:
    """Two plots of ``QK_PLOT_PX`` one over the other: q and k above (the legend over them),
    the products below, titled by an annotation over them, their axis the channels'."""
    plot, gap = QK_PLOT_PX * scale, QK_GAP_PX * scale
    top, bottom = QK_TOP_PX * scale, QK_BOTTOM_PX * scale
    height = top + 2 * plot + gap + bottom
    inner = 2 * plot + gap
    tick = dict(size=TICK_FONT_SIZE * scale)
    lower_top = plot / inner
    return dict(
        height=round(height),
        margin=dict(l=round(70 * scale), r=round(MARGIN_PX * 2), t=round(top), b=round(bottom)),
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        plot_bgcolor=BACKGROUND,
        barmode="group",
        title=figure_title(title, TITLE_FONT_SIZE * scale),
        legend=dict(orientation="h", x=0.0, xanchor="left", y=1.0, yanchor="bottom", font=dict(size=FONT_SIZE * scale)),
        xaxis=_channel_axis(d, "y", None, scale),
        yaxis=dict(
            domain=[1.0 - lower_top, 1.0], tickfont=tick, gridcolor=GRID_COLOR, zerolinecolor="#888", fixedrange=True
        ),
        xaxis2=_channel_axis(d, "y2", channel, scale),
        yaxis2=dict(
            domain=[0.0, lower_top],
            tickfont=tick,
            gridcolor=GRID_COLOR,
            zerolinecolor="#888",
            fixedrange=True,
            anchor="x2",
        ),
        annotations=[
            dict(
                text=product_name,
                x=0.0,
                xref="paper",
                xanchor="left",
                y=lower_top,
                yref="paper",
                yanchor="bottom",
                showarrow=False,
                font=dict(size=FONT_SIZE * scale),
            ),
        ],
        hoverlabel=dict(font=dict(size=FONT_SIZE * scale)),
    )


def qk_figure(
    q: Sequence[float],
    k: Sequence[float],
    products: Sequence[float],
    head: int,
    query: str,
    key: str,
    text: Words,
    scale: float = 1.0,
) -> go.Figure:
    """One head's q_i and k_j channel by channel (grouped bars, above) and their products
    q_i[c] · k_j[c] (below: positive and negative in two colours); the products' sum is the
    raw score. head: 0-based. query, key: the two tokens' labels (plain text, escaped here)."""
    q, k, products = (np.asarray(values, dtype=np.float64) for values in (q, k, products))
    d = len(q)
    if not (len(k) == len(products) == d) or d == 0:
        raise ValueError(
            f"q, k and their products must have the same length d ≥ 1 (got {len(q)}, {len(k)}, {len(products)})"
        )
    names = qk_names(query, key, text)
    channel = plotly_safe(text["qkfig.channel_axis"])
    title = plotly_safe(text["qkfig.title"].format(head=head + 1, query=query, key=key))
    layout = _qk_layout(d, title, names[2], channel, scale)
    return build_figure(_qk_bars(q, k, products, head, names, channel, text), layout)
