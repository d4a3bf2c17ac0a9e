"""A room's answers on the teacher's screen: one horizontal bar per option, its length the
number of students who chose it (a multiselect counts each option a student picked), the
option's words beside it. The right options are marked (colour and a ✓) only once the step
is revealed: before, every bar has the same colour, so the screen gives nothing away."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import plotly.graph_objects as go

from .labels import plotly_safe, shorten
from .style import BACKGROUND, FONT_FAMILY, FONT_SIZE, GRID_COLOR, TITLE_FONT_SIZE, build_figure
from .words import Words

BAR_COLOR = "#4c78a8"  # every bar before the reveal
RIGHT_COLOR = "#2ca02c"
WRONG_COLOR = "#c7c7c7"  # after the reveal: the others step back
BAR_PX = 44  # a bar and its gap, large enough to read from the back of a room
FRAME_PX = 86  # the title above, the axis below
LABEL_CHARS = 28
LABEL_STANDOFF_PX = 18  # between an option's words and the axis, where a zero count is written
RIGHT_MARK = "✓"


def answer_counts(options: int, by_option: Mapping[int, int]) -> list[int]:
    """How many students chose each of ``options`` options (an index past them is dropped:
    the teacher's options are the ones drawn)."""
    return [int(by_option.get(i, 0)) for i in range(options)]


def answers_figure(
    labels: Sequence[str], by_option: Mapping[int, int], text: Words, right: Collection[int] | None = None
) -> go.Figure:
    """The bars of ``labels`` (the options' words, in order) with ``by_option`` counts;
    ``right``: the right options' indices once revealed, None before."""
    counts = answer_counts(len(labels), by_option)
    revealed = right is not None
    names = [
        plotly_safe(shorten(label, LABEL_CHARS)) + (f" {RIGHT_MARK}" if revealed and i in right else "")
        for i, label in enumerate(labels)
    ]
    colors = [(RIGHT_COLOR if i in right else WRONG_COLOR) if revealed else BAR_COLOR for i in range(len(labels))]
    bars = dict(
        type="bar",
        name=text["rmfig.title"],
        orientation="h",
        y=names,
        x=counts,
        marker=dict(color=colors),
        text=[str(n) for n in counts],
        textposition="outside",
        cliponaxis=False,
        hovertemplate="%{y}: %{x}<extra></extra>",
    )
    most = max(counts, default=0)
    layout = dict(
        height=FRAME_PX + BAR_PX * max(len(labels), 1),
        margin=dict(l=10, r=30, t=40, b=36),
        plot_bgcolor=BACKGROUND,
        font=dict(size=FONT_SIZE, family=FONT_FAMILY),
        showlegend=False,
        title=dict(text=text["rmfig.title"], font=dict(size=TITLE_FONT_SIZE), yref="container", y=0.98, yanchor="top"),
        xaxis=dict(
            title=dict(text=text["rmfig.count_axis"]),
            gridcolor=GRID_COLOR,
            rangemode="tozero",
            range=[0, max(most, 1) * 1.15],
            dtick=max(1, -(-most // 5)),
            fixedrange=True,
        ),
        # The options' words stand off from the axis, drawn as a line: a bar of 0 writes its 0
        # just after the axis, which must not read as part of the words ("6 × 4 0", not "6 × 40").
        yaxis=dict(
            autorange="reversed",
            automargin=True,
            type="category",
            fixedrange=True,
            ticklabelstandoff=LABEL_STANDOFF_PX,
            showline=True,
            linecolor=GRID_COLOR,
        ),
    )
    return build_figure([bars], layout)
