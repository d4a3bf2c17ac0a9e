"""Training figures: a live loss curve, and the heads experiment's curves side by side."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from ui.strings import t

from .attention import FONT_FAMILY, FONT_SIZE, _figure
from .palette import head_color

CURVE_HEIGHT = 380
# One colour per head count of the experiment (1, 2, 4, 8 heads), from the head palette.
HEAD_COUNT_COLORS = {1: head_color(0), 2: head_color(1), 4: head_color(2), 8: head_color(3)}


def _layout(title: str, x_title: str, lang: str) -> dict:
    return dict(
        height=CURVE_HEIGHT,
        margin=dict(l=60, r=20, t=50, b=50),
        font=dict(size=FONT_SIZE, family=FONT_FAMILY),
        title=dict(text=title),
        xaxis=dict(title=dict(text=x_title), zeroline=False, gridcolor="#eee"),
        yaxis=dict(title=dict(text=t("train.loss", lang)), zeroline=False, gridcolor="#eee"),
        legend=dict(orientation="v", x=1.02, xanchor="left", y=1.0, yanchor="top"),  # clear of axis titles
        plot_bgcolor="white",
        hovermode="x unified",
    )


def loss_curve_figure(history: Sequence[dict], lang: str = "en", x: str = "step") -> go.Figure:
    """Train loss at every recorded step and held-out loss where evaluated.

    history: records {step, elapsed, train_loss, test_loss?}; x: "step" or "elapsed".
    """
    evaluated = [record for record in history if "test_loss" in record]
    traces = [
        dict(
            type="scatter", mode="lines", name=t("train.train_loss", lang),
            x=[record[x] for record in history], y=[record["train_loss"] for record in history],
            line=dict(color="#9aa5b1", width=1.5),
        ),
        dict(
            type="scatter", mode="lines+markers", name=t("train.test_loss", lang),
            x=[record[x] for record in evaluated], y=[record["test_loss"] for record in evaluated],
            line=dict(color="#d62728", width=3), marker=dict(size=7),
        ),
    ]  # fmt: skip
    x_title = t("train.step", lang) if x == "step" else t("train.seconds", lang)
    return _figure(traces, _layout(t("train.curve_title", lang), x_title, lang))


def experiment_figure(runs: Sequence[dict], x: str, lang: str = "en") -> go.Figure:
    """Held-out loss of each head count against steps or wall time.

    runs: {heads, history} with history records as in ``loss_curve_figure``.
    """
    traces = []
    for run in runs:
        evaluated = [record for record in run["history"] if "test_loss" in record]
        traces.append(
            dict(
                type="scatter",
                mode="lines+markers",
                name=t("train.heads_label", lang, heads=run["heads"]),
                x=[record[x] for record in evaluated],
                y=[record["test_loss"] for record in evaluated],
                line=dict(color=HEAD_COUNT_COLORS.get(run["heads"], "#333"), width=3),
                marker=dict(size=6),
            )  # fmt: skip
        )
    x_title = t("train.step", lang) if x == "step" else t("train.seconds", lang)
    title = t("train.experiment_by_step" if x == "step" else "train.experiment_by_time", lang)
    return _figure(traces, _layout(title, x_title, lang))
