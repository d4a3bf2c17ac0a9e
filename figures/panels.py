"""The one layout system of the figures: panels planned in pixels, then drawn.

A figure of heatmap panels is a plan plus traces. The plan (``Frame``, ``Panel``,
``AxisLabels``) is laid out once in pixels for the page's width: the frame and its margins,
each panel's place, the tick labels that fit, the room for titles. The drawing helpers below
turn a plan into layout entries (axes, panel titles and borders, the shared colour bar, the
figure's title, the finished layout); each figure builder then adds only its traces and
words. Queries are rows (top to bottom), keys are columns; axes are category axes whose
values are ``"position · token"`` (unique, escaped), so repeated tokens keep their own rows.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from gpt_core.tokens import position_label
from gpt_core.window import Window

from .labels import plotly_safe
from .sizing import LABEL_PAD_PX, LINE_HEIGHT, AxisTicks, key_ticks, query_ticks, short_label, text_px
from .style import (
    BACKGROUND,
    COLORBAR_FONT_SIZE,
    COLORBAR_THICKNESS_PX,
    FONT_FAMILY,
    FONT_SIZE,
    TITLE_COLOR,
)

TICK_FONT_PX = 13  # type, in pixels at scale 1 (presentation mode passes a larger scale)
# Smaller labels, down to this size, when that names every token (a few words each get theirs).
MIN_TICK_FONT_PX = 11
AXIS_TITLE_FONT_PX = 14
FLAT_FALLBACK_ANGLES = [0, 30]  # Plotly's choice for flat key labels that meet after all
TICK_STANDOFF_PX = 5  # between a label and its panel (the focused border is 5 px wide)
MARGIN_PX = 8
HIGHLIGHT_WIDTH_PX = 3
COLORBAR_MAX_PX = 260  # a colour bar shared by every panel, at the right edge
TITLE_PAD_PX = 6  # the figure's title hangs at least this far from the top edge
# ... and at least this share of its type size: a CJK font's line box reaches further above
# its glyphs than a Latin one's (a 27 px 头 1 rose 3 px above the chart's top at 6 px)
TITLE_PAD_SHARE = 0.35
CATEGORIES_KEPT = 256  # texts (and windows) whose categories and short labels are remembered (≤ 30 KB each)


@dataclass(frozen=True)
class Panel:
    """Where one heatmap goes: axis ids (1-based) and domains in paper coordinates."""

    index: int
    x_domain: tuple[float, float]
    y_domain: tuple[float, float]

    @property
    def xaxis(self) -> str:
        return "x" if self.index == 1 else f"x{self.index}"

    @property
    def yaxis(self) -> str:
        return "y" if self.index == 1 else f"y{self.index}"

    @property
    def width(self) -> float:
        return self.x_domain[1] - self.x_domain[0]

    @property
    def center_x(self) -> float:
        return sum(self.x_domain) / 2


@dataclass(frozen=True)
class AxisLabels:
    """The tokens as a plan's axes show them: categories, the key and query labels chosen
    for the cell size, and the type sizes."""

    categories: list[str]  # the keys' (and, unless query_categories, the queries')
    short: list[str]
    keys: AxisTicks
    queries: AxisTicks
    tick_px: float
    axis_title_px: float
    query_categories: list[str] | None = None  # a window whose queries are not its keys

    @property
    def rows(self) -> list[str]:
        """The queries' categories."""
        return self.categories if self.query_categories is None else self.query_categories

    @property
    def key_room(self) -> float:
        """Below a panel that labels its keys: the labels, their standoff, the axis title."""
        return self.keys.extent_px + TICK_STANDOFF_PX + self.axis_title_px * LINE_HEIGHT


def short_labels(labels: Sequence[str]) -> list[str]:
    return list(_short(tuple(labels)))


@functools.lru_cache(maxsize=CATEGORIES_KEPT)
def _short(labels: tuple[str, ...]) -> tuple[str, ...]:
    """``short_labels``', remembered by the labels: plans ask for the same ones many times."""
    return tuple(short_label(label) for label in labels)


def plan_labels(labels: Sequence[str], cell_px: float, scale: float, window: Window | None = None) -> AxisLabels:
    """The labels that fit cells of ``cell_px`` at type ``scale``: of all T tokens, or of a
    window's queries and keys (``labels`` are then all T)."""
    tick_px, smallest = TICK_FONT_PX * scale, MIN_TICK_FONT_PX * scale
    if window is None or window.whole:
        short = short_labels(labels)
        return AxisLabels(
            categories_of(list(labels)),
            short,
            key_ticks(short, cell_px, tick_px, smallest),
            query_ticks(short, cell_px, tick_px, smallest),
            tick_px,
            AXIS_TITLE_FONT_PX * scale,
        )
    keys, queries = list(labels)[window.first_key :][: window.size], list(labels)[window.first_query :][: window.size]
    short_keys = short_labels(keys)
    return AxisLabels(
        categories_of(keys, window.first_key),
        short_keys,
        key_ticks(short_keys, cell_px, tick_px, smallest, window.first_key),
        query_ticks(short_labels(queries), cell_px, tick_px, smallest, window.first_query),
        tick_px,
        AXIS_TITLE_FONT_PX * scale,
        categories_of(queries, window.first_query),
    )


def query_label_room(short_labels: list[str], tick_px: float, axis_title_px: float, first: int = 0) -> float:
    """The left margin for "position · token" labels beside the rows and the axis title
    (``first``: the position of the first row, in a window over a long text)."""
    widest = max(text_px(position_label(first + i, label), tick_px) for i, label in enumerate(short_labels))
    return widest + LABEL_PAD_PX + TICK_STANDOFF_PX + axis_title_px * LINE_HEIGHT + MARGIN_PX


def categories_of(labels: list[str], first: int = 0) -> list[str]:
    """The axes' categories: ``"3 · a"``, whole and escaped. The position keeps repeated
    tokens apart (a category axis merges equal names); hover shows the whole label, the
    axes show chosen ones, shortened (figures.sizing). first: the position of ``labels[0]``."""
    return list(_categories(tuple(labels), first))


@functools.lru_cache(maxsize=CATEGORIES_KEPT)
def _categories(labels: tuple[str, ...], first: int) -> tuple[str, ...]:
    """``categories_of``'s, remembered by the labels: plans ask for the same ones many times."""
    return tuple(plotly_safe(position_label(first + position, label)) for position, label in enumerate(labels))


def wrapped_title(title: str, width_px: float, font_px: float) -> tuple[str, int]:
    """A title broken onto two lines when one is too wide for its panel (at a space, else
    in the middle). Returns the Plotly text (escaped) and its line count."""
    if text_px(title, font_px) <= width_px or len(title) < 2:
        return plotly_safe(title), 1
    middle = len(title) // 2
    spaces = [i for i, char in enumerate(title) if char == " "]
    cut = min(spaces, key=lambda i: abs(i - middle)) if spaces else middle
    first, second = title[:cut].rstrip(), title[cut:].lstrip()
    return f"{plotly_safe(first)}<br>{plotly_safe(second)}", 2


def category_axis(
    panel: Panel,
    which: str,
    domain: tuple[float, float],
    categories: list[str],
    ticks: AxisTicks | None,
    title: str | None = None,
    title_font_px: float = AXIS_TITLE_FONT_PX,
) -> dict:
    """One category axis of a panel: the chosen tick labels only (never all when they do
    not fit, never none when ``ticks`` is given), at their planned size."""
    axis = dict(
        type="category",
        showgrid=False,
        zeroline=False,
        ticks="",
        domain=list(domain),
        range=None,
        fixedrange=False,
        ticklabelstandoff=TICK_STANDOFF_PX,
    )
    if ticks is None:
        axis["showticklabels"] = False
    else:
        axis.update(
            tickmode="array",
            tickvals=[categories[i] for i in ticks.positions],
            ticktext=list(ticks.texts),
            showticklabels=True,
            tickfont=dict(size=ticks.font_px),
        )
        if which == "x" and ticks.angle:
            axis["tickangle"] = ticks.angle
        elif which == "x":  # flat; should they still meet, Plotly may tilt them a little, never
            axis["autotickangles"] = FLAT_FALLBACK_ANGLES  # turn them on their side ("␣" would read "]")
    if title:
        axis["title"] = dict(text=title, standoff=4, font=dict(size=title_font_px))
    if which == "x":
        axis.update(anchor=panel.yaxis)
    else:
        axis.update(anchor=panel.xaxis, autorange="reversed")
    axis.pop("range")
    return {("xaxis" if which == "x" else "yaxis") + ("" if panel.index == 1 else str(panel.index)): axis}


@dataclass(frozen=True)
class Frame:
    """A figure laid out in pixels: its size and margins, and the panels' places."""

    width: float  # the width the layout was planned for (the browser's may differ)
    height: float
    left: float
    right: float
    top: float
    bottom: float

    @property
    def plot_width(self) -> float:
        return self.width - self.left - self.right

    @property
    def plot_height(self) -> float:
        return self.height - self.top - self.bottom

    def panel(self, index: int, x_px: float, y_px: float, size_px: float) -> Panel:
        """A panel at (x_px, y_px) from the plot area's top left corner."""
        x0, y0 = x_px / self.plot_width, 1.0 - (y_px + size_px) / self.plot_height
        return Panel(index, (x0, min(1.0, x0 + size_px / self.plot_width)), (y0, y0 + size_px / self.plot_height))

    def y_paper(self, y_px: float) -> float:
        return 1.0 - y_px / self.plot_height


def panel_axes(
    panel: Panel,
    labels: AxisLabels,
    keys: bool,
    queries: bool,
    key_title: str | None = None,
    query_title: str | None = None,
) -> dict:
    """Both category axes of a panel: key labels below it and query labels beside it where
    asked, each axis title where given."""
    layout = category_axis(
        panel, "x", panel.x_domain, labels.categories, labels.keys if keys else None, key_title, labels.axis_title_px
    )
    layout.update(
        category_axis(
            panel,
            "y",
            panel.y_domain,
            labels.rows,
            labels.queries if queries else None,
            query_title,
            labels.axis_title_px,
        )
    )
    return layout


def panel_title(text: str, panel: Panel, font_px: float, color: str = TITLE_COLOR, bold: bool = False) -> dict:
    """An annotation centred above the panel (``text`` already escaped)."""
    return dict(
        text=f"<b>{text}</b>" if bold else text,
        x=0.5,
        y=1.0,
        xref=f"{panel.xaxis} domain",
        yref=f"{panel.yaxis} domain",
        xanchor="center",
        yanchor="bottom",
        showarrow=False,
        font=dict(size=font_px, color=color),
    )


def panel_border(panel: Panel, color: str, width: float) -> dict:
    """A rectangle around the whole panel."""
    return dict(
        type="rect",
        xref=f"{panel.xaxis} domain",
        yref=f"{panel.yaxis} domain",
        x0=0,
        x1=1,
        y0=0,
        y1=1,
        line=dict(color=color, width=width),
    )


def cell_outline(panel: Panel, query: int, key: int, color: str) -> dict:
    """A rectangle around cell (query, key) of the panel."""
    return dict(
        type="rect",
        xref=panel.xaxis,
        yref=panel.yaxis,
        x0=key - 0.5,
        x1=key + 0.5,
        y0=query - 0.5,
        y1=query + 0.5,
        line=dict(color=color, width=HIGHLIGHT_WIDTH_PX),
    )


def row_outline(panel: Panel, query: int, first_key: int, last_key: int, color: str) -> dict:
    """A rectangle around row ``query``'s cells from key ``first_key`` to ``last_key`` of the panel."""
    return dict(
        type="rect",
        xref=panel.xaxis,
        yref=panel.yaxis,
        x0=first_key - 0.5,
        x1=last_key + 0.5,
        y0=query - 0.5,
        y1=query + 0.5,
        line=dict(color=color, width=HIGHLIGHT_WIDTH_PX),
    )


def shared_colorbar(frame: Frame, scale: float) -> dict:
    """One colour bar for every panel, in the right margin, from the top."""
    return dict(
        x=1.0,
        xref="container",
        xanchor="right",
        xpad=MARGIN_PX,
        y=1.0,
        yanchor="top",
        lenmode="pixels",
        len=min(COLORBAR_MAX_PX * scale, frame.plot_height),
        thickness=COLORBAR_THICKNESS_PX,
        tickfont=dict(size=COLORBAR_FONT_SIZE * scale),
        outlinewidth=0,
    )


def figure_title(text: str, font_px: float, color: str | None = None) -> dict:
    """The figure's title at its top left (``text`` already escaped). A title of several
    lines (``wrapped_title``) hangs a line lower for each line after the first: Plotly
    anchors such a title's top above its first line (two lines at 18 px rose 15 px above
    the chart's edge)."""
    font = dict(size=font_px) if color is None else dict(size=font_px, color=color)
    pad = max(TITLE_PAD_PX, TITLE_PAD_SHARE * font_px) + text.count("<br>") * font_px * LINE_HEIGHT
    return dict(
        text=text,
        x=0.0,
        xref="paper",
        xanchor="left",
        y=1.0,
        yref="container",
        yanchor="top",
        pad=dict(t=pad),
        font=font,
    )


def top_legend(scale: float) -> dict:
    return dict(orientation="h", x=1.0, xanchor="right", y=1.0, yanchor="bottom", font=dict(size=FONT_SIZE * scale))


def finished_layout(layout: dict, frame: Frame, scale: float, panels: Sequence[Panel] = (), **entries) -> dict:
    """The layout of a planned figure: its axes (``layout``) with square cells for
    ``panels``, its size and margins from the frame, the type, and ``entries``."""
    for panel in panels:
        square_cells(layout, panel.index)
    layout.update(
        height=round(frame.height),
        margin=dict(l=round(frame.left), r=round(frame.right), t=round(frame.top), b=round(frame.bottom)),
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        plot_bgcolor=BACKGROUND,
        hoverlabel=dict(font=dict(size=FONT_SIZE * scale)),
        **entries,
    )
    return layout


def square_cells(layout: dict, index: int) -> None:
    """Square cells: in a page wider than planned the panel keeps its size, centred."""
    suffix = "" if index == 1 else str(index)
    layout[f"xaxis{suffix}"].update(constrain="domain", constraintoward="center")
    layout[f"yaxis{suffix}"].update(constrain="domain", scaleanchor=f"x{suffix}", scaleratio=1, constraintoward="top")
