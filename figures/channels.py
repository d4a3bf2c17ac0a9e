"""Which of the C = heads × head_dim channels belong to which head, in the heads' colours."""

from __future__ import annotations

import plotly.graph_objects as go

from .labels import plotly_safe
from .palette import HEAD_COLORS, colors_repeat, head_color
from .sizing import LABEL_PAD_PX, text_px
from .style import FONT_FAMILY, FONT_SIZE, build_figure
from .words import Words

CHANNEL_MAP_PX = 160
CHANNEL_ROW_PX = 60  # the key/value heads' bar, under the query heads' one
CHANNEL_TITLE_FONT_SIZE = 16
BAR_LABELS_MAX_HEADS = 8  # above this many heads the bars are too narrow for "head n"
MARGIN = dict(l=10, r=10, t=40, b=40)
NOTE_ROW_PX = 22  # a line under the axis: how the heads' colours repeat past the eighth
STRIPE_MIX = 0.45  # a hatched bar's stripes: its colour this far towards the ground of its text
WHITE, DARK = "#ffffff", "#000000"


def _luminance(color: str) -> float:
    channels = [int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def text_on(color: str) -> str:
    """White or black, whichever contrasts more with ``color`` (at least 4.58:1 either way)."""
    luminance = _luminance(color)
    return WHITE if 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 else DARK


def _mixed(color: str, towards: str, share: float) -> str:
    pairs = ((int(color[i : i + 2], 16), int(towards[i : i + 2], 16)) for i in (1, 3, 5))
    return "#" + "".join(f"{round(a + (b - a) * share):02x}" for a, b in pairs)


def hatched(color: str) -> dict:
    """A hatched bar in ``color`` whose stripes keep its text legible: darker stripes under
    white text, lighter ones under black text."""
    away = DARK if text_on(color) == WHITE else WHITE
    return dict(
        color=color, pattern=dict(shape="/", fillmode="replace", bgcolor=color, fgcolor=_mixed(color, away, STRIPE_MIX))
    )


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
                type="bar",
                x=[head_dim],
                y=[text["fig.kv_row"]],
                orientation="h",
                name=name,
                base=[first],
                marker=hatched(head_color(kv * groups)),
                insidetextfont=dict(color=text_on(head_color(kv * groups))),
                text=[f"→ {readers}"] if kv_heads <= BAR_LABELS_MAX_HEADS else None,
                textposition="inside",
                hovertemplate=f"{name}<extra></extra>",
            )
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
                type="bar",
                x=[head_dim],
                y=[text["fig.q_row"] if shared else "C"],
                orientation="h",
                name=name,
                marker=dict(color=head_color(head)),
                insidetextfont=dict(color=text_on(head_color(head))),
                text=[f"{text['fig.head']} {head + 1}"] if heads <= BAR_LABELS_MAX_HEADS else None,
                textposition="inside",
                hovertemplate=f"{name}<extra></extra>",
                base=[first],
            )
        )
    title = text["fig.channel_map"].format(C=heads * head_dim, h=heads, d=head_dim)
    if shared:
        traces.extend(_kv_bars(heads, kv_heads, head_dim, text))
        title = text["fig.channel_map_gqa"].format(h=heads, d=head_dim, h_kv=kv_heads, groups=heads // kv_heads)
    axis_title = plotly_safe(text["fig.channel_axis"])
    if colors_repeat(heads):
        n = len(HEAD_COLORS)
        axis_title += "<br>" + plotly_safe(text["fig.head_colors_repeat"].format(n=n, n_next=n + 1, n_next2=n + 2))
    rows = (text["fig.q_row"], text["fig.kv_row"]) if shared else ()
    left = max((text_px(row, FONT_SIZE) + LABEL_PAD_PX for row in rows), default=0)  # the rows' names, whole
    layout = dict(
        barmode="overlay",
        height=CHANNEL_MAP_PX + (CHANNEL_ROW_PX if shared else 0) + (NOTE_ROW_PX if colors_repeat(heads) else 0),
        margin={**MARGIN, "l": MARGIN["l"] + round(left)},
        showlegend=False,
        font=dict(size=FONT_SIZE, family=FONT_FAMILY),
        title=dict(text=plotly_safe(title), font=dict(size=CHANNEL_TITLE_FONT_SIZE)),
        # The axis title as a dict (plotly.js 3 draws no title given as text), below the ticks.
        xaxis=dict(
            range=[0, heads * head_dim], title=dict(text=axis_title, standoff=4), dtick=head_dim, automargin=True
        ),
        yaxis=dict(showticklabels=shared, autorange="reversed", tickfont=dict(size=FONT_SIZE), ticklabelstandoff=0),
    )
    return build_figure(traces, layout)
