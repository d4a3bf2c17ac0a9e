"""The next token's odds as bars: for each of the likeliest tokens, its probability before
the cut (grey, faded) and, for the tokens top-k and top-p keep, its renormalised probability
(in colour), so the cut and the renormalisation can both be seen.

Arrays in, a Plotly figure out; every word arrives translated, by key (``figures/words.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from gpt_core.tokens import display_label

from .events import layout_meta
from .labels import plotly_safe, shorten
from .palette import head_color
from .panels import MARGIN_PX, TICK_FONT_PX
from .sizing import LINE_HEIGHT, text_px
from .style import BACKGROUND, FONT_FAMILY, FONT_SIZE, GRID_COLOR, TITLE_FONT_SIZE, build_figure
from .words import Words

CUT_COLOR = "#9e9e9e"  # a token's probability before the cut: faded grey
CUT_OPACITY = 0.55
KEPT_COLOR = head_color(0)  # the kept tokens' renormalised probability
ODDS_ROW_PX = 34  # one token: its two bars side by side
ODDS_VALUE_FONT_PX = 13
VALUE_ROOM_PX = 56  # right of the longest bar: its value ("100.0%")


def odds_labels(labels: Sequence[str]) -> list[str]:
    """Unique, escaped categories: the rank and the token's visible label ("1 · ␣"; a label
    already visible stays as it is)."""
    return [plotly_safe(f"{rank + 1} · {shorten(display_label(label))}") for rank, label in enumerate(labels)]


def odds_figure(
    labels: Sequence[str],
    before: np.ndarray,
    after: np.ndarray,
    kept: int,
    text: Words,
    title: str = "",
    scale: float = 1.0,
) -> go.Figure:
    """Horizontal bars, the likeliest token on top. labels: each token's text or visible
    label (whitespace is drawn visibly, ``gpt_core.display_label``), likeliest first; before/after: their probabilities before
    the cut and after it (renormalised; ignored for the tokens past ``kept``, which are cut)."""
    before = np.asarray(before, dtype=float)
    after = np.asarray(after, dtype=float)
    if not (len(labels) == len(before) == len(after)):
        raise ValueError(f"{len(labels)} labels, {len(before)} and {len(after)} probabilities: one each")
    rows = odds_labels(labels)
    kept_values = [float(after[i]) if i < kept else None for i in range(len(rows))]
    traces = _odds_traces(rows, before, kept_values, text, scale)
    return build_figure(traces, _odds_layout(rows, text, title, scale))


def _bar(name: str, rows: list[str], values: list, texts: list[str], marker: dict, value_font: dict) -> dict:
    """One series of horizontal bars, each with its value written outside its end."""
    return dict(
        type="bar",
        orientation="h",
        name=name,
        y=rows,
        x=values,
        marker=marker,
        text=texts,
        textposition="outside",
        textfont=value_font,
        cliponaxis=False,
        hovertemplate=f"%{{y}}<br>{name}: %{{x:.4f}}<extra></extra>",
    )


def _odds_traces(rows: list[str], before: np.ndarray, kept_values: list, text: Words, scale: float) -> list[dict]:
    """The probabilities before the cut (faded grey), then the kept tokens' renormalised ones."""
    before_name, after_name = plotly_safe(text["odds.before"]), plotly_safe(text["odds.after"])
    value_px = ODDS_VALUE_FONT_PX * scale
    return [
        _bar(
            before_name,
            rows,
            before.tolist(),
            [f"{v:.1%}" for v in before],
            dict(color=CUT_COLOR, opacity=CUT_OPACITY),
            dict(size=value_px, color="#555"),
        ),
        _bar(
            after_name,
            rows,
            kept_values,
            [f"{v:.1%}" if v is not None else "" for v in kept_values],
            dict(color=KEPT_COLOR),
            dict(size=value_px, color=KEPT_COLOR),
        ),
    ]


def _odds_layout(rows: list[str], text: Words, title: str, scale: float) -> dict:
    """Room for the tokens' labels on the left, the legend (and title) above, the axis below."""
    tick_px = TICK_FONT_PX * scale
    left = max((text_px(row, tick_px) for row in rows), default=0.0) + MARGIN_PX * 2
    legend = FONT_SIZE * scale * LINE_HEIGHT + MARGIN_PX  # above the bars
    top = (TITLE_FONT_SIZE * scale * LINE_HEIGHT if title else 0) + legend + MARGIN_PX * 2
    bottom = tick_px * LINE_HEIGHT + FONT_SIZE * scale * LINE_HEIGHT + MARGIN_PX * 3
    layout = dict(
        meta=layout_meta(named_axes=True),
        barmode="group",
        bargap=0.2,
        height=round(top + max(len(rows), 1) * ODDS_ROW_PX * scale + bottom),
        margin=dict(l=round(left), r=round(VALUE_ROOM_PX * scale), t=round(top), b=round(bottom)),
        xaxis=dict(
            title=dict(text=plotly_safe(text["odds.prob_axis"])),
            range=[0, 1.0],
            tickformat=".0%",
            tickfont=dict(size=tick_px),
            gridcolor=GRID_COLOR,
            zeroline=False,
        ),
        yaxis=dict(type="category", autorange="reversed", tickfont=dict(size=tick_px), automargin=True),
        legend=dict(orientation="h", x=0, xanchor="left", y=1, yanchor="bottom", font=dict(size=FONT_SIZE * scale)),
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        plot_bgcolor=BACKGROUND,
        hoverlabel=dict(font=dict(size=FONT_SIZE * scale)),
    )
    if title:
        layout["title"] = dict(text=plotly_safe(title), font=dict(size=TITLE_FONT_SIZE * scale), x=0, xanchor="left")
    return layout
