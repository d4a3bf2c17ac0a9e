"""Which of the C = heads × head_dim channels belong to which head, in the heads' colours."""

from __future__ import annotations

import plotly.graph_objects as go

from .palette import head_color
from .style import FONT_FAMILY, FONT_SIZE, build_figure
from .words import Words

CHANNEL_MAP_PX = 160
CHANNEL_TITLE_FONT_SIZE = 16
BAR_LABELS_MAX_HEADS = 8  # above this many heads the bars are too narrow for "head n"
MARGIN = dict(l=10, r=10, t=40, b=40)


def channel_map_figure(heads: int, head_dim: int, text: Words) -> go.Figure:
    """One bar of C channels, a coloured run of head_dim channels per head."""
    traces: list[dict] = []
    for head in range(heads):
        first, last = head * head_dim, (head + 1) * head_dim - 1
        name = text["fig.channels_of_head"].format(head=head + 1, first=first, last=last)
        traces.append(
            dict(
                type="bar", x=[head_dim], y=["C"], orientation="h", name=name, marker=dict(color=head_color(head)),
                text=[f"{text['fig.head']} {head + 1}"] if heads <= BAR_LABELS_MAX_HEADS else None,
                textposition="inside", hovertemplate=f"{name}<extra></extra>", base=[first],
            )  # fmt: skip
        )
    title = text["fig.channel_map"].format(C=heads * head_dim, h=heads, d=head_dim)
    layout = dict(
        barmode="overlay",
        height=CHANNEL_MAP_PX,
        margin=MARGIN,
        showlegend=False,
        font=dict(size=FONT_SIZE, family=FONT_FAMILY),
        title=dict(text=title, font=dict(size=CHANNEL_TITLE_FONT_SIZE)),
        xaxis=dict(range=[0, heads * head_dim], title=text["fig.channel_axis"], dtick=head_dim),
        yaxis=dict(showticklabels=False),
    )
    return build_figure(traces, layout)
