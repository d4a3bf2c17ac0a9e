"""Training figures: a live loss curve, and the heads experiment's curves side by side."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from gpt_core import HistoryPoint, RunSummary

from .palette import head_color
from .style import BACKGROUND, FONT_FAMILY, FONT_SIZE, GRID_COLOR, build_figure
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


def experiment_figure(runs: Sequence[RunSummary], x: str, text: TrainingText) -> go.Figure:
    """Held-out loss of each head count against steps or wall time ("step" or "elapsed")."""
    x_title = _x_title(x, text)
    traces = []
    for run in runs:
        evaluated = [point for point in run.history if point.test_loss is not None]
        traces.append(
            dict(
                type="scatter", mode="lines+markers", name=text.heads_label.format(heads=run.heads),
                x=[getattr(point, x) for point in evaluated], y=[point.test_loss for point in evaluated],
                line=dict(color=HEAD_COUNT_COLORS.get(run.heads, OTHER_HEADS_COLOR), width=TEST_LOSS_WIDTH),
                marker=dict(size=EXPERIMENT_MARKER),
            )  # fmt: skip
        )
    title = text.experiment_by_step if x == "step" else text.experiment_by_time
    return build_figure(traces, _layout(title, x_title, text))
