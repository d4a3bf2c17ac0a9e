"""Panels planned in pixels: a figure's frame, its category axes with chosen tick labels,
square cells, and titles that fit. Shared by the attention and the explorer figures, which
size their panels for the page (figures/sizing.py) and place them here."""

from __future__ import annotations

from dataclasses import dataclass

from gpt_core.tokens import position_label

from .labels import plotly_safe
from .layout import Panel
from .sizing import LABEL_PAD_PX, LINE_HEIGHT, AxisTicks, text_px

TICK_FONT_PX = 13  # type, in pixels at scale 1 (presentation mode passes a larger scale)
AXIS_TITLE_FONT_PX = 14
TICK_STANDOFF_PX = 5  # between a label and its panel (the focused border is 5 px wide)
MARGIN_PX = 8


def query_label_room(short_labels: list[str], tick_px: float, axis_title_px: float) -> float:
    """The left margin for "position · token" labels beside the rows and the axis title."""
    widest = max(text_px(position_label(i, label), tick_px) for i, label in enumerate(short_labels))
    return widest + LABEL_PAD_PX + TICK_STANDOFF_PX + axis_title_px * LINE_HEIGHT + MARGIN_PX


def categories_of(labels: list[str]) -> list[str]:
    """The axes' categories: ``"3 · a"``, whole and escaped. The position keeps repeated
    tokens apart (a category axis merges equal names); hover shows the whole label, the
    axes show chosen ones, shortened (figures.sizing)."""
    return [plotly_safe(position_label(position, label)) for position, label in enumerate(labels)]


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
    font_px: float,
    title: str | None = None,
    title_font_px: float = AXIS_TITLE_FONT_PX,
) -> dict:
    """One category axis of a panel: the chosen tick labels only (never all when they do
    not fit, never none when ``ticks`` is given)."""
    axis = dict(
        type="category", showgrid=False, zeroline=False, ticks="", domain=list(domain), range=None,
        tickfont=dict(size=font_px), fixedrange=False, ticklabelstandoff=TICK_STANDOFF_PX,
    )  # fmt: skip
    if ticks is None:
        axis["showticklabels"] = False
    else:
        axis.update(
            tickmode="array", tickvals=[categories[i] for i in ticks.positions], ticktext=list(ticks.texts),
            showticklabels=True,
        )  # fmt: skip
        if which == "x" and ticks.angle:
            axis["tickangle"] = ticks.angle  # else Plotly's "auto": it turns them if they still meet
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


def square_cells(layout: dict, index: int) -> None:
    """Square cells: in a page wider than planned the panel keeps its size, centred."""
    suffix = "" if index == 1 else str(index)
    layout[f"xaxis{suffix}"].update(constrain="domain", constraintoward="center")
    layout[f"yaxis{suffix}"].update(constrain="domain", scaleanchor=f"x{suffix}", scaleratio=1, constraintoward="top")
