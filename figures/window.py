"""The whole of a long text's T × T matrix, small, beside a view that shows a window of it:
each cell a block of tokens holding the block's largest value (``gpt_core.window.block_max``),
the window outlined, and a click that moves the window to the clicked block.

Its size is bounded whatever T is: at most ``OVERVIEW_BLOCKS`` blocks a side.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from gpt_core.window import OVERVIEW_BLOCKS, Blocks, Window, block_max

from .events import MINUS_INF, layer_meta, trace_meta
from .labels import plotly_safe
from .overview import stage_look
from .palette import HIGHLIGHT_COLOR, MASKED_COLOR
from .panels import HIGHLIGHT_WIDTH_PX, wrapped_title
from .stage_colors import Look
from .style import FONT_FAMILY, FONT_SIZE, TITLE_FONT_SIZE, build_figure
from .words import Words

MAP_PX = 240  # the square map, at scale 1: a fifth of a projector's page width
MAP_MARGIN_PX = 44  # left and bottom, for the positions on the axes
MAP_RIGHT_PX = 12


def _axis(which: str, tokens: int, font_px: float, title: str) -> dict:
    axis = dict(
        range=[-0.5, tokens - 0.5],
        showgrid=False,
        zeroline=False,
        ticks="outside",
        tickfont=dict(size=font_px),
        title=dict(text=plotly_safe(title), font=dict(size=font_px), standoff=2),
        fixedrange=True,
        constrain="domain",  # in a wider chart the square map keeps its range, not more tokens
    )
    if which == "y":
        axis.update(range=[tokens - 0.5, -0.5], scaleanchor="x", scaleratio=1)
    return axis


def window_map_figure(
    matrix: np.ndarray,
    window: Window,
    stage: str,
    head: int,
    text: Words,
    scale: float = 1.0,
    blocks: int = OVERVIEW_BLOCKS,
) -> go.Figure:
    """The whole (T, T) ``matrix`` of one head's ``stage`` in blocks, the window outlined.

    Axes are in tokens: block i covers positions i·b to i·b + b − 1 on either axis. A click
    on a block sends its first query and key (``figures/events.py``: origin 0, step b).
    """
    summary = block_max(matrix, blocks)
    look = stage_look(np.asarray(matrix, dtype=np.float32)[None], stage)
    traces = _block_traces(summary, look, stage, head, text)
    return build_figure(traces, _map_layout(summary, window, text, scale))


def _block_traces(summary: Blocks, look: Look, stage: str, head: int, text: Words) -> list[dict]:
    """The blocks' heatmap in the stage's colours, under a layer of the masked blocks (only
    where there are any); each block carries its first query and key for a click."""
    b, n = summary.size, summary.values.shape[0]
    centres = (np.arange(n) * b + (b - 1) / 2).tolist()
    values = summary.values
    masked = np.isneginf(values)
    hover = text["win.block_hover"].format(q="%{customdata[0]}", k="%{customdata[1]}", v="%{z:.4f}")
    starts = np.arange(n, dtype=np.uint16 if n * b < 2**16 else np.uint32) * b
    # [query, key] per block, as a typed array (a nested list is a Python walk on every draw)
    customdata = np.stack(np.meshgrid(starts, starts, indexing="ij"), axis=-1)
    common = dict(x=centres, y=centres, hoverongaps=False, customdata=customdata, xgap=0, ygap=0)
    traces = []
    if masked.any():
        traces.append(
            dict(
                common,
                type="heatmap",
                z=np.where(masked, np.float32(1), np.float32(np.nan)),
                colorscale=[[0.0, MASKED_COLOR], [1.0, MASKED_COLOR]],
                showscale=False,
                hoverinfo="skip",
                meta={**trace_meta(head, step=b), **layer_meta(head, MINUS_INF)},
            )
        )
    color = dict(colorscale=look.colorscale, zmin=look.zmin, zmax=look.zmax)
    if look.zmid is not None:
        color["zmid"] = look.zmid
    traces.append(
        dict(
            common,
            type="heatmap",
            z=np.where(masked, np.float32(np.nan), values),
            showscale=False,
            hovertemplate=f"{hover}<extra></extra>",
            name=plotly_safe(text[f"stage.{stage}"]),
            meta=trace_meta(head, step=b),
            **color,
        )
    )
    return traces


def _window_outline(window: Window) -> dict:
    """The window's square on the map, in tokens."""
    return dict(
        type="rect",
        xref="x",
        yref="y",
        x0=window.first_key - 0.5,
        x1=window.first_key + window.size - 0.5,
        y0=window.first_query - 0.5,
        y1=window.first_query + window.size - 0.5,
        line=dict(color=HIGHLIGHT_COLOR, width=HIGHLIGHT_WIDTH_PX),
        fillcolor="rgba(0,0,0,0)",
    )


def _map_layout(summary: Blocks, window: Window, text: Words, scale: float) -> dict:
    """The square map with room for its axes and its (wrapped) title, the window outlined."""
    b, tokens = summary.size, summary.tokens
    font_px = FONT_SIZE * scale
    side = MAP_PX * scale
    title, lines = wrapped_title(text["win.overview_title"].format(b=b), side + MAP_MARGIN_PX * scale, font_px)
    top = lines * font_px * 1.4 + 20 * scale  # the title's lines, and room above them for the chart's toolbar
    layout = dict(
        width=round(side + (MAP_MARGIN_PX + MAP_RIGHT_PX) * scale),
        height=round(side + top + MAP_MARGIN_PX * scale),
        margin=dict(
            l=round(MAP_MARGIN_PX * scale), r=round(MAP_RIGHT_PX * scale), t=round(top), b=round(MAP_MARGIN_PX * scale)
        ),
        xaxis=_axis("x", tokens, font_px * 0.85, text["fig.key_axis"]),
        yaxis=_axis("y", tokens, font_px * 0.85, text["fig.query_axis"]),
        title=dict(
            text=title,
            x=0.0,
            xref="container",
            xanchor="left",
            y=1.0,
            yref="container",
            yanchor="top",
            pad=dict(t=14 * scale, l=4),
            font=dict(size=min(font_px, TITLE_FONT_SIZE * scale)),
        ),
        shapes=[_window_outline(window)],
        font=dict(size=font_px, family=FONT_FAMILY),
        plot_bgcolor="white",
    )
    return layout
