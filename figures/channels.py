"""Which of the C = heads × head_dim channels belong to which head, in the heads' colours."""

from __future__ import annotations

import plotly.graph_objects as go

from .palette import head_color
from .style import FONT_FAMILY, FONT_SIZE, build_figure
from .words import Words

CHANNEL_MAP_PX = 160
CHANNEL_ROW_PX = 60  # the key/value heads' bar, under the query heads' one
CHANNEL_TITLE_FONT_SIZE = 16
BAR_LABELS_MAX_HEADS = 8  # above this many heads the bars are too narrow for "head n"
MARGIN = dict(l=10, r=10, t=40, b=40)


def _kv_bars(heads: int, kv_heads: int, head_dim: int, text: Words) -> list[dict]:
    """The keys' and values' channels: h_kv runs of head_dim, each in the colour of the first
    query head that reads it (grouped-query attention)."""
    groups = heads // kv_heads
    bars = []
    for kv in range(kv_heads):
        first, last = kv * head_dim, (kv + 1) * head_dim - 1
        readers = f"{kv * groups + 1}–{(kv + 1) * groups}" if groups > 1 else str(kv + 1)
        name = text["fig.kv_channels"].format(kv=kv + 1, first=first, last=last, heads=readers)
        bars.append(
            dict(
                type="bar", x=[head_dim], y=[text["fig.kv_row"]], orientation="h", name=name, base=[first],
                marker=dict(color=head_color(kv * groups), pattern=dict(shape="/")),
                text=[f"→ {readers}"] if kv_heads <= BAR_LABELS_MAX_HEADS else None, textposition="inside",
                hovertemplate=f"{name}<extra></extra>",
            )  # fmt: skip
        )
    return bars


def channel_map_figure(heads: int, head_dim: int, text: Words, kv_heads: int | None = None) -> go.Figure:
    """One bar of C channels, a coloured run of head_dim channels per head; with fewer
    key/value heads (grouped-query attention) a second bar shows which query heads share each."""
    traces: list[dict] = []
    shared = kv_heads is not None and kv_heads != heads
    for head in range(heads):
        first, last = head * head_dim, (head + 1) * head_dim - 1
        name = text["fig.channels_of_head"].format(head=head + 1, first=first, last=last)
        traces.append(
            dict(
                type="bar", x=[head_dim], y=[text["fig.q_row"] if shared else "C"], orientation="h", name=name,
                marker=dict(color=head_color(head)),
                text=[f"{text['fig.head']} {head + 1}"] if heads <= BAR_LABELS_MAX_HEADS else None,
                textposition="inside", hovertemplate=f"{name}<extra></extra>", base=[first],
            )  # fmt: skip
        )
    title = text["fig.channel_map"].format(C=heads * head_dim, h=heads, d=head_dim)
    if shared:
        traces.extend(_kv_bars(heads, kv_heads, head_dim, text))
        title = text["fig.channel_map_gqa"].format(h=heads, d=head_dim, h_kv=kv_heads, groups=heads // kv_heads)
    layout = dict(
        barmode="overlay",
        height=CHANNEL_MAP_PX + (CHANNEL_ROW_PX if shared else 0),
        margin=MARGIN,
        showlegend=False,
        font=dict(size=FONT_SIZE, family=FONT_FAMILY),
        title=dict(text=title, font=dict(size=CHANNEL_TITLE_FONT_SIZE)),
        # The axis title as a dict (plotly.js 3 draws no title given as text), below the ticks.
        xaxis=dict(range=[0, heads * head_dim], title=dict(text=text["fig.channel_axis"], standoff=4), dtick=head_dim,
                   automargin=True),  # fmt: skip
        yaxis=dict(showticklabels=shared, autorange="reversed"),
    )
    return build_figure(traces, layout)
