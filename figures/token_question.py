"""The token question's figure: one horizontal bar pair per key token (``"position · token"``,
escaped), the class's choices as a share of those who answered (the count written beside)
and, once revealed, the head's real softmax weights in the head's colour, on the same axis.
On a student's phone the student's own choice is marked on its token."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from .labels import axis_labels
from .palette import head_color
from .style import BACKGROUND, FONT_FAMILY, FONT_SIZE, GRID_COLOR, TITLE_FONT_SIZE, build_figure
from .words import Words

ROW_PX = 30  # a key's pair of bars
FRAME_PX = 110  # the title and legend above, the axis below
YOURS_MARK = "◀"
# The class's bars: a warm grey, apart from every head's colour (blues among them) beside it.
CLASS_COLOR = "#bab0ac"


def class_shares(counts: Sequence[int]) -> list[float]:
    """Each key's share of the students who answered (0 for all when nobody did)."""
    answered = sum(counts)
    return [n / answered if answered else 0.0 for n in counts]


def token_question_figure(
    labels: Sequence[str],
    text: Words,
    counts: Sequence[int] | None = None,
    weights: Sequence[float] | None = None,
    chosen: int | None = None,
    head: int = 0,
) -> go.Figure:
    """Keys ``labels`` (their tokens' display labels, in order); ``counts``: how many students
    chose each (None: no class); ``weights``: the query's real softmax row (None: not yet
    revealed); ``chosen``: the student's own choice (marked); ``head``: 0-based, its colour."""
    names = axis_labels(list(labels))
    if chosen is not None and 0 <= chosen < len(names):
        names[chosen] = f"{names[chosen]} {YOURS_MARK} {text['tqfig.yours']}"
    traces = []
    if counts is not None:
        traces.append(
            dict(
                type="bar",
                orientation="h",
                name=text["tqfig.class"],
                y=names,
                x=class_shares(counts),
                marker=dict(color=CLASS_COLOR),
                text=[str(int(n)) for n in counts],
                textposition="outside",
                cliponaxis=False,
                hovertemplate="%{y}: %{text}<extra></extra>",
            )
        )
    if weights is not None:
        traces.append(
            dict(
                type="bar",
                orientation="h",
                name=text["tqfig.weights"].format(head=head + 1),
                y=names,
                x=[float(w) for w in weights],
                marker=dict(color=head_color(head)),
                text=[f"{float(w):.2f}" for w in weights],
                textposition="outside",
                cliponaxis=False,
                hovertemplate="%{y}: %{x:.3f}<extra></extra>",
            )
        )
    return build_figure(traces, _layout(len(names), len(traces), text, counts is not None))


def _layout(keys: int, traces: int, text: Words, with_class: bool) -> dict:
    """The figure's frame: tall enough for ``keys`` rows of ``traces`` bars each; its axis
    names the class's share only where the class is drawn."""
    layout = dict(
        height=FRAME_PX + ROW_PX * max(keys, 1) * max(traces, 1),
        margin=dict(l=10, r=40, t=80, b=40),
        plot_bgcolor=BACKGROUND,
        font=dict(size=FONT_SIZE, family=FONT_FAMILY),
        barmode="group",
        showlegend=True,
        legend=dict(orientation="h", yref="container", y=0.9, yanchor="top", x=0),
        title=dict(text=text["tqfig.title"], font=dict(size=TITLE_FONT_SIZE), yref="container", y=0.97, yanchor="top"),
        xaxis=dict(
            title=dict(text=text["tqfig.share_axis" if with_class else "tqfig.weight_axis"]),
            gridcolor=GRID_COLOR,
            range=[0, 1.15],
            fixedrange=True,
        ),
        yaxis=dict(autorange="reversed", automargin=True, type="category", fixedrange=True),
    )
    return layout
