"""Training figures: a live loss curve, the heads experiment's curves side by side, and
the attention of a model at a saved step of its training."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from gpt_core import HistoryPoint, RunSummary
from gpt_core.experiment import heads_statistics

from .palette import head_color
from .style import (
    BACKGROUND,
    FONT_FAMILY,
    FONT_SIZE,
    GRID_COLOR,
    build_figure,
)
from .words import Words

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


def _layout(title: str, x_title: str, text: Words) -> dict:
    return dict(
        height=CURVE_HEIGHT,
        margin=CURVE_MARGIN,
        font=dict(size=FONT_SIZE, family=FONT_FAMILY),
        title=dict(text=title),
        xaxis=dict(title=dict(text=x_title), zeroline=False, gridcolor=GRID_COLOR),
        yaxis=dict(title=dict(text=text["train.loss"]), zeroline=False, gridcolor=GRID_COLOR),
        legend=dict(orientation="v", x=LEGEND_X, xanchor="left", y=1.0, yanchor="top"),
        plot_bgcolor=BACKGROUND,
        hovermode="x unified",
    )


def _x_title(x: str, text: Words) -> str:
    if x not in X_FIELDS:
        raise ValueError(f"x must be one of {X_FIELDS}, got {x!r}")
    return text["train.step"] if x == "step" else text["train.seconds"]


def loss_curve_figure(history: Sequence[HistoryPoint], text: Words, x: str = "step") -> go.Figure:
    """Train loss at every recorded step and held-out loss where evaluated. x: "step" or "elapsed"."""
    x_title = _x_title(x, text)
    evaluated = [point for point in history if point.test_loss is not None]
    traces = [
        dict(
            type="scatter",
            mode="lines",
            name=text["train.train_loss"],
            x=[getattr(point, x) for point in history],
            y=[point.train_loss for point in history],
            line=dict(color=TRAIN_LOSS_COLOR, width=TRAIN_LOSS_WIDTH),
        ),
        dict(
            type="scatter",
            mode="lines+markers",
            name=text["train.test_loss"],
            x=[getattr(point, x) for point in evaluated],
            y=[point.test_loss for point in evaluated],
            line=dict(color=TEST_LOSS_COLOR, width=TEST_LOSS_WIDTH),
            marker=dict(size=TEST_LOSS_MARKER),
        ),
    ]
    return build_figure(traces, _layout(text["train.curve_title"], x_title, text))


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


def experiment_figure(runs: Sequence[RunSummary], x: str, text: Words) -> go.Figure:
    """Held-out loss of each head count against steps or wall time ("step" or "elapsed"):
    the mean over seeds as a line, the lowest to highest seed as a band around it."""
    x_title = _x_title(x, text)
    traces = []
    for heads in sorted({run.heads for run in runs}):
        group = [run for run in runs if run.heads == heads]
        xs, mean, low, high = _mean_curve(group, x)
        color = HEAD_COUNT_COLORS.get(heads, OTHER_HEADS_COLOR)
        name = text["train.heads_label"].format(heads=heads)
        if len(group) > 1:
            traces.append(
                dict(
                    type="scatter",
                    mode="lines",
                    name=text["train.band"].format(heads=heads),
                    legendgroup=name,
                    x=[*xs, *reversed(xs)],
                    y=[*high, *reversed(low)],
                    fill="toself",
                    fillcolor=_band_color(color),
                    line=dict(width=0),
                    hoverinfo="skip",
                    showlegend=False,
                )
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
            )
        )
    title = text["train.experiment_by_step"] if x == "step" else text["train.experiment_by_time"]
    return build_figure(traces, _layout(title, x_title, text))


def final_loss_figure(runs: Sequence[RunSummary], text: Words) -> go.Figure:
    """Each seed's final held-out loss per head count as a point, and the mean ± sd beside it."""
    traces = []
    stats = heads_statistics(list(runs))
    head_counts = [item.heads for item in stats]
    for position, item in enumerate(stats):
        color = HEAD_COUNT_COLORS.get(item.heads, OTHER_HEADS_COLOR)
        label = text["train.heads_label"].format(heads=item.heads)
        traces.append(
            dict(
                type="scatter",
                mode="markers",
                name=f"{label} · {text['train.test_loss']}",
                x=[position - POINTS_OFFSET] * len(item.losses),
                y=list(item.losses),
                text=[text["train.seed_label"].format(seed=seed) for seed in item.seeds],
                hovertemplate="%{text}: %{y:.4f}<extra>%{fullData.name}</extra>",
                marker=dict(color=color, size=SEED_MARKER, opacity=0.8, line=dict(color="white", width=1)),
            )
        )
        traces.append(
            dict(
                type="scatter",
                mode="markers",
                name=f"{label} · {text['train.mean_sd']}",
                x=[position + POINTS_OFFSET],
                y=[item.mean],
                showlegend=False,
                error_y=dict(type="data", array=[item.sd], visible=True, color=color, thickness=2, width=8),
                marker=dict(color=color, size=MEAN_MARKER, symbol="diamond"),
                hovertemplate=f"{text['train.mean_sd']}: %{{y:.4f}} ± {item.sd:.4f}<extra>%{{fullData.name}}</extra>",
            )
        )
    layout = _layout(text["train.final_title"], text["train.heads_axis"], text)
    layout["xaxis"].update(
        tickvals=list(range(len(head_counts))),
        ticktext=[str(heads) for heads in head_counts],
        range=[-0.6, len(head_counts) - 0.4],
    )
    layout["hovermode"] = "closest"
    layout["showlegend"] = False
    return build_figure(traces, layout)
