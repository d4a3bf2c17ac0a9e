"""The attention of each generated character: one row per generation step, the last
query's weights over the context it read (a long context's last positions only).

Arrays in, Plotly figures out; every word arrives translated, by key (``figures/words.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from gpt_core.tokens import display_label

from .attention import VALUE_FONT_PX
from .events import layout_meta, trace_meta
from .labels import plotly_safe
from .metrics import TICK_GAP_PX
from .overview import OVERVIEW_COLORBAR_PX
from .palette import WEIGHT_COLORSCALE
from .panels import MARGIN_PX, TICK_FONT_PX
from .sizing import DEFAULT_SIZE, DEFAULT_WIDTH_PX, LINE_HEIGHT, ChartSize, text_px
from .style import BACKGROUND, COLORBAR_THICKNESS_PX, FONT_FAMILY, FONT_SIZE, TITLE_FONT_SIZE, build_figure
from .words import Words

# A row per generated character.
GENERATION_ROW_PX = 24
# A few rows (a single next token's row) still get room for the colour bar's numbers and the
# rows' axis title ("generated character"), which would otherwise overlap and be cut.
GENERATION_MIN_ROWS_PX = 180
GENERATION_MIN_CELL_FOR_TEXT_PX = 14

GENERATION_POSITIONS = 64  # a long context: its last this many positions, cells still legible


def generation_window(longest: int, last_positions: int = GENERATION_POSITIONS) -> int:
    """The first position the generation chart draws of contexts up to ``longest`` long."""
    return max(0, longest - last_positions)


def _generation_cells(
    rows: Sequence[np.ndarray], contexts: Sequence[Sequence[str]], first: int, width: int
) -> tuple[np.ndarray, list[list[str]]]:
    """The generation chart's cells from position ``first`` on, ``width`` wide: each row's
    weights left-aligned (NaN past a shorter context) and the key each cell reads (escaped)."""
    z = np.full((len(rows), width), np.nan, dtype=np.float32)
    keys = [["" for _ in range(width)] for _ in rows]
    for i, (row, context) in enumerate(zip(rows, contexts, strict=True)):
        if len(row) != len(context):
            raise ValueError(f"row {i} has {len(row)} weights for the context {context!r} of {len(context)} characters")
        z[i, : max(0, len(row) - first)] = row[first:]
        for j, char in enumerate(context[first:]):
            keys[i][j] = plotly_safe(display_label(char))
    return z, keys


def generation_figure(
    rows: Sequence[np.ndarray],
    chars: Sequence[str],
    contexts: Sequence[Sequence[str]],
    head: int,
    block: int,
    text: Words,
    unit_word: str = "ex.col.block",
    last_positions: int = GENERATION_POSITIONS,
    size: ChartSize = DEFAULT_SIZE,
) -> go.Figure:
    """For each generated character (a row), the last query's weights over the context it
    read (columns: positions in that context, left-aligned; NaN where the context was
    shorter). rows: one (T_ctx,) array per character; contexts: the text each one read, or
    its tokens' labels (written in the cells while they fit, and shown on hover).
    ``unit_word`` names what ``block`` counts: ``"ex.col.layer"`` for a real model.
    last_positions: a long context's last this many positions only (``generation_window``).
    size: the page's width for the chart (default: a projector's) and the type scale."""
    if not (len(rows) == len(chars) == len(contexts)):
        raise ValueError(f"{len(rows)} rows, {len(chars)} characters and {len(contexts)} contexts: one each")
    longest = max((len(row) for row in rows), default=1)
    first = generation_window(longest, last_positions)
    width = longest - first
    z, keys = _generation_cells(rows, contexts, first, width)
    names = [
        plotly_safe(text["ex.step_label"].format(step=i + 1, char=display_label(char))) for i, char in enumerate(chars)
    ]
    scale = size.scale
    left = _names_room(names, scale)
    cell = (size.width_or(DEFAULT_WIDTH_PX) - left - OVERVIEW_COLORBAR_PX * scale) / width
    trace = _generation_trace(z, keys, first, longest, head, block, text, unit_word, cell, scale)
    return build_figure([trace], _generation_layout(names, width, left, text, scale))


def _names_room(names: list[str], scale: float) -> float:
    """The left margin: the widest step's name, and the rows' axis title."""
    font_px = TICK_FONT_PX * scale
    return (
        max((text_px(name, font_px) for name in names), default=0.0) + MARGIN_PX * 3 + FONT_SIZE * scale * LINE_HEIGHT
    )


def _generation_trace(
    z: np.ndarray,
    keys: list[list[str]],
    first: int,
    longest: int,
    head: int,
    block: int,
    text: Words,
    unit_word: str,
    cell: float,
    scale: float,
) -> dict:
    """The weights, each cell's key written in it while cells are wide enough for it."""
    n = len(keys)
    write = cell >= GENERATION_MIN_CELL_FOR_TEXT_PX * scale
    trace = dict(
        type="heatmap",
        z=z,
        x=list(range(first, longest)),
        y=list(range(n)),
        text=keys,
        colorscale=WEIGHT_COLORSCALE,
        zmin=0.0,
        zmax=1.0,
        hoverongaps=False,
        name=f"{plotly_safe(text[unit_word])} {block + 1} · {plotly_safe(text['fig.head'])} {head + 1}",
        meta=trace_meta(head, block),
        colorbar=dict(thickness=COLORBAR_THICKNESS_PX, outlinewidth=0),
        hovertemplate=f"%{{y}}<br>{plotly_safe(text['fig.key'])} %{{x}}: %{{text}}<br>{plotly_safe(text['ex.weight'])}: %{{z:.3f}}<extra></extra>",
        **(dict(texttemplate="%{text}", textfont=dict(size=VALUE_FONT_PX * scale)) if write else {}),
    )
    return trace


def _generation_layout(names: list[str], width: int, left: float, text: Words, scale: float) -> dict:
    """A row per step (at least room for the colour bar), the positions and their title under them."""
    n, font_px = len(names), TICK_FONT_PX * scale
    top = TITLE_FONT_SIZE * scale * LINE_HEIGHT + MARGIN_PX * 2
    # Under the rows: the position tick labels, then the axis title (never over the last row).
    bottom = font_px * LINE_HEIGHT + TICK_GAP_PX + FONT_SIZE * scale * LINE_HEIGHT + MARGIN_PX * 2
    layout = dict(
        meta=layout_meta(named_axes=True),  # rows are generation steps, not token positions
        height=round(top + max(n * GENERATION_ROW_PX, GENERATION_MIN_ROWS_PX) * scale + bottom),
        margin=dict(l=round(left), r=round(OVERVIEW_COLORBAR_PX * scale), t=round(top), b=round(bottom)),
        xaxis=dict(
            title=dict(text=plotly_safe(text["ex.position_axis"]), standoff=TICK_GAP_PX),
            tickfont=dict(size=font_px),
            dtick=1 if width <= 32 else 4,
        ),
        yaxis=dict(
            autorange="reversed",
            tickmode="array",
            tickvals=list(range(n)),
            ticktext=names,
            tickfont=dict(size=font_px),
            title=dict(text=plotly_safe(text["ex.generated_axis"]), standoff=4),
        ),
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        plot_bgcolor=BACKGROUND,
        hoverlabel=dict(font=dict(size=FONT_SIZE * scale)),
    )
    return layout
