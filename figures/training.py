"""Training figures: a live loss curve, the heads experiment's curves side by side, and
the attention of a model at a saved step of its training."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from gpt_core import HistoryPoint, RunSummary
from gpt_core.experiment import heads_statistics

from .labels import axis_labels, plotly_safe
from .layout import grid, panel_axes, panel_outline, panel_title
from .palette import WEIGHT_COLORSCALE, head_color
from .style import (
    BACKGROUND,
    COLORBAR_THICKNESS_PX,
    FONT_FAMILY,
    FONT_SIZE,
    GRID_COLOR,
    TICK_FONT_SIZE,
    TITLE_FONT_SIZE,
    build_figure,
)
from .text import TrainingText

CURVE_HEIGHT = 380
CURVE_MARGIN = dict(l=60, r=20, t=50, b=50)
LEGEND_X = 1.02  # just right of the plot: clear of the axis titles
TRAIN_LOSS_COLOR = "#9aa5b1"
TRAIN_LOSS_WIDTH = 1.5
TEST_LOSS_COLOR = "#d62728"
TEST_LOSS_WIDTH = 3
TEST_LOSS_MARKER = 7
EXPERIMENT_MARKER = 6
OTHER_HEADS_COLOR = "#333"
# One colour per head count of the experiment (1, 2, 4, 8 heads), from the head palette.
HEAD_COUNT_COLORS = {1: head_color(0), 2: head_color(1), 4: head_color(2), 8: head_color(3)}
X_FIELDS = ("step", "elapsed")
BAND_OPACITY = 0.18
SEED_MARKER = 10
MEAN_MARKER = 13
POINTS_OFFSET = 0.12  # the seeds' points left of the head count, the mean right of it


def _layout(title: str, x_title: str, text: TrainingText) -> dict:
    return dict(
        height=CURVE_HEIGHT,
        margin=CURVE_MARGIN,
        font=dict(size=FONT_SIZE, family=FONT_FAMILY),
        title=dict(text=title),
        xaxis=dict(title=dict(text=x_title), zeroline=False, gridcolor=GRID_COLOR),
        yaxis=dict(title=dict(text=text.loss), zeroline=False, gridcolor=GRID_COLOR),
        legend=dict(orientation="v", x=LEGEND_X, xanchor="left", y=1.0, yanchor="top"),
        plot_bgcolor=BACKGROUND,
        hovermode="x unified",
    )


def _x_title(x: str, text: TrainingText) -> str:
    if x not in X_FIELDS:
        raise ValueError(f"x must be one of {X_FIELDS}, got {x!r}")
    return text.step if x == "step" else text.seconds


def loss_curve_figure(history: Sequence[HistoryPoint], text: TrainingText, x: str = "step") -> go.Figure:
    """Train loss at every recorded step and held-out loss where evaluated. x: "step" or "elapsed"."""
    x_title = _x_title(x, text)
    evaluated = [point for point in history if point.test_loss is not None]
    traces = [
        dict(
            type="scatter", mode="lines", name=text.train_loss,
            x=[getattr(point, x) for point in history], y=[point.train_loss for point in history],
            line=dict(color=TRAIN_LOSS_COLOR, width=TRAIN_LOSS_WIDTH),
        ),
        dict(
            type="scatter", mode="lines+markers", name=text.test_loss,
            x=[getattr(point, x) for point in evaluated], y=[point.test_loss for point in evaluated],
            line=dict(color=TEST_LOSS_COLOR, width=TEST_LOSS_WIDTH), marker=dict(size=TEST_LOSS_MARKER),
        ),
    ]  # fmt: skip
    return build_figure(traces, _layout(text.curve_title, x_title, text))


def _mean_curve(runs: Sequence[RunSummary], x: str) -> tuple[list[float], list[float], list[float], list[float]]:
    """Over the seeds of one head count, at each evaluation step the seeds share: the mean
    x (the step, or the mean wall time), and the mean, lowest and highest held-out loss."""
    per_run = [{p.step: p for p in run.history if p.test_loss is not None} for run in runs]
    steps = sorted(set.intersection(*(set(points) for points in per_run))) if per_run else []
    xs, mean, low, high = [], [], [], []
    for step in steps:
        points = [points[step] for points in per_run]
        losses = [point.test_loss for point in points]
        xs.append(step if x == "step" else sum(point.elapsed for point in points) / len(points))
        mean.append(sum(losses) / len(losses))
        low.append(min(losses))
        high.append(max(losses))
    return xs, mean, low, high


def _band_color(color: str) -> str:
    """A translucent version of a ``#rrggbb`` colour, for the band under its line."""
    red, green, blue = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red},{green},{blue},{BAND_OPACITY})"


def experiment_figure(runs: Sequence[RunSummary], x: str, text: TrainingText) -> go.Figure:
    """Held-out loss of each head count against steps or wall time ("step" or "elapsed"):
    the mean over seeds as a line, the lowest to highest seed as a band around it."""
    x_title = _x_title(x, text)
    traces = []
    for heads in sorted({run.heads for run in runs}):
        group = [run for run in runs if run.heads == heads]
        xs, mean, low, high = _mean_curve(group, x)
        color = HEAD_COUNT_COLORS.get(heads, OTHER_HEADS_COLOR)
        name = text.heads_label.format(heads=heads)
        if len(group) > 1:
            traces.append(
                dict(
                    type="scatter",
                    mode="lines",
                    name=text.band.format(heads=heads),
                    legendgroup=name,
                    x=[*xs, *reversed(xs)],
                    y=[*high, *reversed(low)],
                    fill="toself",
                    fillcolor=_band_color(color),
                    line=dict(width=0),
                    hoverinfo="skip",
                    showlegend=False,
                )  # fmt: skip
            )
        traces.append(
            dict(
                type="scatter",
                mode="lines+markers",
                name=name,
                legendgroup=name,
                x=xs,
                y=mean,
                line=dict(color=color, width=TEST_LOSS_WIDTH),
                marker=dict(size=EXPERIMENT_MARKER),
            )  # fmt: skip
        )
    title = text.experiment_by_step if x == "step" else text.experiment_by_time
    return build_figure(traces, _layout(title, x_title, text))


def final_loss_figure(runs: Sequence[RunSummary], text: TrainingText) -> go.Figure:
    """Each seed's final held-out loss per head count as a point, and the mean ± sd beside it."""
    traces = []
    stats = heads_statistics(list(runs))
    head_counts = [item.heads for item in stats]
    for position, item in enumerate(stats):
        color = HEAD_COUNT_COLORS.get(item.heads, OTHER_HEADS_COLOR)
        label = text.heads_label.format(heads=item.heads)
        traces.append(
            dict(
                type="scatter",
                mode="markers",
                name=f"{label} · {text.test_loss}",
                x=[position - POINTS_OFFSET] * len(item.losses),
                y=list(item.losses),
                text=[text.seed_label.format(seed=seed) for seed in item.seeds],
                hovertemplate="%{text}: %{y:.4f}<extra>%{fullData.name}</extra>",
                marker=dict(color=color, size=SEED_MARKER, opacity=0.8, line=dict(color="white", width=1)),
            )  # fmt: skip
        )
        traces.append(
            dict(
                type="scatter",
                mode="markers",
                name=f"{label} · {text.mean_sd}",
                x=[position + POINTS_OFFSET],
                y=[item.mean],
                showlegend=False,
                error_y=dict(type="data", array=[item.sd], visible=True, color=color, thickness=2, width=8),
                marker=dict(color=color, size=MEAN_MARKER, symbol="diamond"),
                hovertemplate=f"{text.mean_sd}: %{{y:.4f}} ± {item.sd:.4f}<extra>%{{fullData.name}}</extra>",
            )  # fmt: skip
        )
    layout = _layout(text.final_title, text.heads_axis, text)
    layout["xaxis"].update(
        tickvals=list(range(len(head_counts))), ticktext=[str(heads) for heads in head_counts],
        range=[-0.6, len(head_counts) - 0.4],
    )  # fmt: skip
    layout["hovermode"] = "closest"
    layout["showlegend"] = False
    return build_figure(traces, layout)


# The attention of a model at a saved step: one panel per head, queries as rows, keys as
# columns, each axis labelled "position · token"; labels never overlap: every k-th is shown
# when not all fit, never none. A panel's height is set here, so the query labels are spaced
# for it. Its width follows the page, so the key labels are spaced by Plotly in the browser:
# on a category axis it puts ticks at least 1.2 font sizes apart, one label per
# KEY_LABEL_EVERY ticks keeps a rotated label (1.36 font sizes thick, measured) clear of the next.
SNAPSHOT_COLUMNS = 4  # heads per row, at most
SNAPSHOT_TYPICAL_WIDTH_PX = 877  # the chart's width on a 1366×768 projector, sidebar open (measured)
SNAPSHOT_PANEL_PX_RANGE = (200, 360)  # a panel's height: about its typical width, within this
LABEL_PITCH_PX = round(TICK_FONT_SIZE * 1.45)  # a label's line is 1.36 font sizes (measured): no overlap
KEY_LABEL_EVERY = 2
SNAPSHOT_GAP = 0.03  # between panels of a row, as a fraction of the width
SNAPSHOT_ROW_GAP_PX = 110  # between rows: the key labels of the row above, and a head title
SNAPSHOT_MARGIN = dict(l=90, r=60, t=100, b=40)  # query labels left, colour bar right, titles top
SNAPSHOT_TITLE_PAD_PX = 8  # the figure's title hangs from the top edge, clear of the heads' titles
SNAPSHOT_FOOTER_PX = 90  # below the last row: its key labels and axis title
SNAPSHOT_COLORBAR = dict(len=0.8, y=0.5, x=1.01)
SNAPSHOT_BORDER_PX = 1.5


def snapshot_panel_px(columns: int) -> int:
    """A panel's height: its width on a typical chart, within SNAPSHOT_PANEL_PX_RANGE."""
    plot_width = SNAPSHOT_TYPICAL_WIDTH_PX - SNAPSHOT_MARGIN["l"] - SNAPSHOT_MARGIN["r"]
    width = plot_width * (1.0 - SNAPSHOT_GAP * (columns - 1)) / columns
    low, high = SNAPSHOT_PANEL_PX_RANGE
    return round(min(high, max(low, width)))


def query_label_step(tokens: int, panel_px: float) -> int:
    """Show every k-th of ``tokens`` query labels (k >= 1): they fit down ``panel_px``."""
    return max(1, math.ceil(tokens * LABEL_PITCH_PX / panel_px))


def _snapshot_trace(matrix: np.ndarray, categories: list[str], panel, name: str, text: TrainingText) -> dict:
    """One head's weights as a heatmap; the first head carries the colour bar."""
    where = f"{plotly_safe(text.query)} %{{y}}<br>{plotly_safe(text.key)} %{{x}}<br>"
    return dict(
        type="heatmap", x=categories, y=categories, z=np.asarray(matrix, dtype=np.float32),
        xaxis=panel.xaxis, yaxis=panel.yaxis, colorscale=WEIGHT_COLORSCALE, zmin=0.0, zmax=1.0,
        showscale=panel.index == 1, colorbar=dict(thickness=COLORBAR_THICKNESS_PX, **SNAPSHOT_COLORBAR), name=name,
        hovertemplate=f"{where}{plotly_safe(text.weight)}: %{{z:.3f}}<extra>{plotly_safe(name)}</extra>",
    )  # fmt: skip


def snapshot_figure(weights: np.ndarray, labels: list[str], title: str, text: TrainingText) -> go.Figure:
    """Every head's softmax weights for one prompt, at one saved step. weights: (h, T, T),
    labels: the T tokens' display labels (plain text, escaped here); title: already filled in.
    Every panel labels its keys; the first of each row labels its queries and names them."""
    h, T = weights.shape[0], len(labels)
    if weights.shape[1:] != (T, T):
        raise ValueError(f"weights have shape {weights.shape}, expected (h, {T}, {T}) for tokens {labels}")
    columns = min(h, SNAPSHOT_COLUMNS)
    rows = math.ceil(h / columns)
    panel_px = snapshot_panel_px(columns)
    plot_height = rows * panel_px + (rows - 1) * SNAPSHOT_ROW_GAP_PX + SNAPSHOT_FOOTER_PX
    height = plot_height + SNAPSHOT_MARGIN["t"] + SNAPSHOT_MARGIN["b"]  # so each panel is panel_px tall
    panels = grid(h, columns, SNAPSHOT_GAP, SNAPSHOT_ROW_GAP_PX / plot_height, top=1.0,
                  bottom=SNAPSHOT_FOOTER_PX / plot_height)  # fmt: skip
    categories = axis_labels(labels)
    query_step = query_label_step(T, panel_px)
    traces, layout, annotations, shapes = [], {}, [], []
    for head, panel in enumerate(panels):
        name = f"{text.head} {head + 1}"
        traces.append(_snapshot_trace(weights[head], categories, panel, name, text))
        first_in_row, last_row = head % columns == 0, head >= (rows - 1) * columns
        x, y = panel_axes(panel, T, True, square=False, show_y=first_in_row).values()
        x.update(tickmode="auto", ticklabelstep=KEY_LABEL_EVERY)  # Plotly spaces them for the width
        x.pop("dtick", None)
        y.update(tickmode="linear", tick0=0, dtick=query_step)
        if first_in_row:  # one title per axis and row: side by side they would run together
            y["title"] = dict(text=text.query_axis)
            if last_row:
                x["title"] = dict(text=text.key_axis)
        layout.update({panel.xaxis.replace("x", "xaxis"): x, panel.yaxis.replace("y", "yaxis"): y})
        annotations.append(panel_title(name, panel, head_color(head), bold=True))
        shapes.append(panel_outline(panel, head_color(head), SNAPSHOT_BORDER_PX))
    layout.update(
        height=height, margin=SNAPSHOT_MARGIN, annotations=annotations, shapes=shapes, plot_bgcolor=BACKGROUND,
        font=dict(size=FONT_SIZE, family=FONT_FAMILY), title=dict(text=title, font=dict(size=TITLE_FONT_SIZE), y=1.0, yref="container", yanchor="top",
                   pad=dict(t=SNAPSHOT_TITLE_PAD_PX)),
    )  # fmt: skip
    return build_figure(traces, layout)
