"""Placing heatmap panels on one figure: a grid of panels, their axes, titles and outlines.

Queries are rows (top to bottom), keys are columns. Axes are category axes whose values
are ``"position · token"`` (unique, escaped), so repeated tokens keep their own rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .style import TICK_FONT_SIZE, TITLE_COLOR, TITLE_FONT_SIZE

MAX_TICK_LABELS = 24  # above this many tokens an axis shows every n-th label only
UPRIGHT_TICKS_MAX = 8  # up to this many tokens the key labels stay horizontal
AXIS_TITLE_STANDOFF_PX = 4
HIGHLIGHT_WIDTH_PX = 3


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


def grid(count: int, cols: int, h_gap: float, v_gap: float, top: float, bottom: float) -> list[Panel]:
    """``count`` panels in rows of ``cols``, between ``top`` and ``bottom`` (paper units)."""
    rows = math.ceil(count / cols)
    width = (1.0 - h_gap * (cols - 1)) / cols
    height = (top - bottom - v_gap * (rows - 1)) / rows
    panels = []
    for i in range(count):
        row, col = divmod(i, cols)
        x0 = col * (width + h_gap)
        y1 = top - row * (height + v_gap)
        panels.append(Panel(i + 1, (x0, x0 + width), (y1 - height, y1)))
    return panels


def panel_axes(
    panel: Panel,
    count: int,
    show_labels: bool,
    titles: tuple[str, str] | None = None,
    square: bool = True,
    show_y: bool = True,
) -> dict:
    """Layout entries for a panel's two category axes. titles: (key axis, query axis)."""
    step = max(1, math.ceil(count / MAX_TICK_LABELS))
    common = dict(
        type="category", showgrid=False, zeroline=False, ticks="", dtick=step, tickfont=dict(size=TICK_FONT_SIZE)
    )
    x = dict(
        common, domain=list(panel.x_domain), anchor=panel.yaxis, tickangle=-90 if count > UPRIGHT_TICKS_MAX else 0
    )
    y = dict(common, domain=list(panel.y_domain), anchor=panel.xaxis, autorange="reversed")
    x["showticklabels"] = show_labels
    y["showticklabels"] = show_labels and show_y
    if square:  # square cells; the axes shrink inside their domain to keep them so
        x["constrain"] = y["constrain"] = "domain"
        y.update(scaleanchor=panel.xaxis, scaleratio=1)
    if titles is not None:
        x["title"] = dict(text=titles[0], standoff=AXIS_TITLE_STANDOFF_PX)
        y["title"] = dict(text=titles[1], standoff=AXIS_TITLE_STANDOFF_PX)
    return {panel.xaxis.replace("x", "xaxis"): x, panel.yaxis.replace("y", "yaxis"): y}


def panel_title(text: str, panel: Panel, color: str = TITLE_COLOR, bold: bool = False) -> dict:
    """An annotation centred above the panel."""
    return dict(
        text=f"<b>{text}</b>" if bold else text, x=panel.center_x, y=panel.y_domain[1],
        xref="paper", yref="paper", xanchor="center", yanchor="bottom", showarrow=False,
        font=dict(size=TITLE_FONT_SIZE, color=color),
    )  # fmt: skip


def cell_outline(panel: Panel, query: int, key: int, color: str) -> dict:
    """A rectangle around cell (query, key) of the panel."""
    return dict(
        type="rect", xref=panel.xaxis, yref=panel.yaxis, x0=key - 0.5, x1=key + 0.5,
        y0=query - 0.5, y1=query + 0.5, line=dict(color=color, width=HIGHLIGHT_WIDTH_PX),
    )  # fmt: skip


def panel_outline(panel: Panel, color: str, width: float) -> dict:
    """A rectangle around the whole panel, in paper coordinates."""
    return dict(
        type="rect", xref="paper", yref="paper", x0=panel.x_domain[0], x1=panel.x_domain[1],
        y0=panel.y_domain[0], y1=panel.y_domain[1], line=dict(color=color, width=width),
    )  # fmt: skip
