"""Heatmaps of the attention stages: one head in detail, and all heads as small multiples.

Queries are rows (top to bottom), keys are columns. Each panel's axes are category axes
whose values are ``"position · token"`` (unique, escaped), so repeated tokens keep their
own rows and a hovered cell names its query and key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from gpt_core import DETAIL_STAGES
from gpt_core.tokens import position_label

from .labels import plotly_safe
from .layout import Panel, cell_outline
from .palette import DROPPED_COLOR, HIGHLIGHT_COLOR, MASKED_COLOR, SCORE_COLORSCALE, WEIGHT_COLORSCALE, head_color
from .sizing import (
    DEFAULT_WIDTH_PX,
    LABEL_PAD_PX,
    LINE_HEIGHT,
    AxisTicks,
    PanelGrid,
    key_ticks,
    panel_grid,
    query_ticks,
    short_label,
    text_px,
    value_fits,
)
from .style import (
    BACKGROUND,
    COLORBAR_FONT_SIZE,
    COLORBAR_THICKNESS_PX,
    FONT_FAMILY,
    FONT_SIZE,
    TITLE_COLOR,
    TITLE_FONT_SIZE,
    build_figure,
)
from .text import AttentionText

# Type, in pixels at scale 1 (presentation mode passes a larger scale).
TICK_FONT_PX = 13
VALUE_FONT_PX = 11
AXIS_TITLE_FONT_PX = 14
TICK_STANDOFF_PX = 5  # between a label and its panel (the focused border is 5 px wide)
HEAD_TITLE_EXTRA_PX = 4  # the head's title is a little larger than the stage titles
# The detail view: one panel per stage, all in one row while cells keep MIN_CELL_PX.
DETAIL_MIN_CELL_PX = 8
DETAIL_MAX_CELL_PX = 48
DETAIL_MIN_PANEL_PX = 150
DETAIL_MAX_PANEL_PX = 440
DETAIL_GAP_PX = 26  # between panels of a row (more when the key labels reach over)
HEADER_PX = 40  # the head's title and the legend
COLORBAR_SHARE = 0.8  # of its panel's width: the numbers at its ends stay clear of the next one
ROW_GAP_PX = 16
COLORBAR_BLOCK_PX = 58  # a colour bar under its panel, its numbers and its one-line note
# The overview: small multiples, one per head.
OVERVIEW_MIN_CELL_PX = 3
OVERVIEW_MAX_CELL_PX = 34
OVERVIEW_MIN_PANEL_PX = 125
OVERVIEW_MAX_PANEL_PX = 280
OVERVIEW_COLUMN_CHOICES = (4, 3, 2, 1)
OVERVIEW_GAP_PX = 18
OVERVIEW_COLORBAR_PX = 64  # right margin: the shared colour bar and its numbers
OVERVIEW_COLORBAR_MAX_PX = 260
FOCUSED_BORDER_PX = 5
BORDER_PX = 1.5
MARGIN_PX = 8
LEGEND_MARKER_PX = 16
VALUE_DECIMALS = {"weights": 2, "dropped_weights": 2}  # scores: SCORE_VALUE_DECIMALS
SCORE_VALUE_DECIMALS = 1


def score_range(matrices: Sequence[np.ndarray]) -> float:
    """The largest |finite value| over ``matrices``, for a colour scale centred on 0."""
    largest = 0.0
    for matrix in matrices:
        finite = matrix[np.isfinite(matrix)]
        if finite.size:
            largest = max(largest, float(np.abs(finite).max()))
    return largest or 1.0


def _is_weights(stage: str) -> bool:
    return stage in ("weights", "dropped_weights")


def trace_name(stage: str, head: int, text: AttentionText) -> str:
    """``"softmax weights · head 2"``: stage and 1-based head, for tests and screen readers."""
    return f"{text.stage_titles[stage]} · {text.head} {head + 1}"


def categories_of(labels: list[str]) -> list[str]:
    """The axes' categories: ``"3 · a"``, whole and escaped. The position keeps repeated
    tokens apart (a category axis merges equal names); hover shows the whole label, the
    axes show chosen ones, shortened (figures.sizing)."""
    return [plotly_safe(position_label(position, label)) for position, label in enumerate(labels)]


def _value_format(stage: str) -> str:
    return f".{VALUE_DECIMALS.get(stage, SCORE_VALUE_DECIMALS)}f"


def values_fit(matrix: np.ndarray, stage: str, cell_px: float, font_px: float) -> bool:
    """Whether the values of ``matrix`` written as the cells show them fit in a cell."""
    finite = matrix[np.isfinite(matrix)]
    if finite.size == 0:
        return True
    fmt = _value_format(stage)
    extremes = [format(float(finite.min()), fmt), format(float(finite.max()), fmt), "−∞"]
    return value_fits(extremes, cell_px, font_px)


@dataclass(frozen=True)
class _Look:
    """How one panel's values are coloured and written."""

    colorscale: list
    zmin: float
    zmax: float
    zmid: float | None = None
    colorbar: dict | None = None
    values_font_px: float | None = None  # write each value in its cell, at this size


def _stage_traces(
    matrix: np.ndarray, categories: list[str], stage: str, head: int, panel: Panel, text: AttentionText, look: _Look,
    dropped: np.ndarray | None = None,
) -> list[dict]:
    """The heatmap of one stage of one head, with the −∞ layer under it when masked and, after
    dropout, the dropped cells' layer. ``meta.head`` tells a click which head it was."""
    z = np.asarray(matrix, dtype=np.float32)
    masked = np.isneginf(z)
    name = trace_name(stage, head, text)
    value_label = plotly_safe(text.stage_titles[stage])
    where = f"{text.query} %{{y}}<br>{text.key} %{{x}}<br>"
    common = dict(
        x=categories, y=categories, xaxis=panel.xaxis, yaxis=panel.yaxis, hoverongaps=False, meta=dict(head=head),
    )  # fmt: skip
    write = {}
    if look.values_font_px:
        write = dict(textfont=dict(size=look.values_font_px))
    traces: list[dict] = []
    if masked.any():
        # Drawn first, under the values: only the −∞ cells are set, in a colour no scale has.
        traces.append(
            dict(
                common, type="heatmap", z=np.where(masked, np.float32(1.0), np.float32(np.nan)),
                colorscale=[[0.0, MASKED_COLOR], [1.0, MASKED_COLOR]], showscale=False,
                name=f"{text.minus_inf} · {text.head} {head + 1}",
                hovertemplate=f"{where}{value_label}: −∞ ({plotly_safe(text.masked_reason)})<extra></extra>",
                **(dict(write, texttemplate="−∞", textfont=dict(size=look.values_font_px, color="white"))
                   if write else {}),
            )  # fmt: skip
        )
    values = np.where(masked, np.float32(np.nan), z)
    if dropped is not None and dropped.any():
        traces.append(
            dict(
                common, type="heatmap", z=np.where(dropped, np.float32(0.0), np.float32(np.nan)),
                colorscale=[[0.0, DROPPED_COLOR], [1.0, DROPPED_COLOR]], showscale=False,
                name=f"{text.dropped} · {text.head} {head + 1}",
                hovertemplate=f"{where}{value_label}: 0 ({plotly_safe(text.dropped)})<extra></extra>",
                **(dict(write, texttemplate="0") if write else {}),
            )  # fmt: skip
        )
        values = np.where(dropped, np.float32(np.nan), values)
    color = dict(colorscale=look.colorscale, zmin=look.zmin, zmax=look.zmax)
    if look.zmid is not None:
        color["zmid"] = look.zmid
    if write:
        write["texttemplate"] = f"%{{z:{_value_format(stage)}}}"
    traces.append(
        dict(
            common, type="heatmap", z=values, showscale=look.colorbar is not None, colorbar=look.colorbar,
            name=name, hovertemplate=f"{where}{value_label}: %{{z:.4f}}<extra>{plotly_safe(name)}</extra>",
            **color, **write,
        )  # fmt: skip
    )
    return traces


def _legend_square(name: str, color: str) -> dict:
    """A legend entry for a colour no heatmap names (heatmaps have no legend entries)."""
    return dict(
        type="scatter", x=[None], y=[None], mode="markers", name=name, showlegend=True,
        marker=dict(symbol="square", size=LEGEND_MARKER_PX, color=color, line=dict(color="#888", width=1)),
        hoverinfo="skip",
    )  # fmt: skip


def _masked_legend_entry(text: AttentionText) -> dict:
    return _legend_square(text.legend_masked, MASKED_COLOR)


def _check_square(name: str, matrix: np.ndarray, labels: list[str]) -> None:
    T = len(labels)
    if matrix.shape[-2:] != (T, T):
        raise ValueError(f"{name} has shape {matrix.shape}, expected (…, {T}, {T}) for tokens {labels}")


def _looks(stages: Mapping[str, np.ndarray], names: list[str], text: AttentionText) -> dict[str, _Look]:
    """Colours that tell the truth: the scaled and the masked scores share one range (a
    kept cell keeps its colour when masked); the raw scores have their own; the weights go
    from 0 to 1; after dropout, from 0 to the largest kept value."""
    shared = score_range([stages[stage] for stage in ("scaled_scores", "masked_scores") if stage in stages])
    looks = {}
    for stage in names:
        if stage == "weights":
            looks[stage] = _Look(WEIGHT_COLORSCALE, 0.0, 1.0)
        elif stage == "dropped_weights":
            largest = float(np.nanmax(np.where(np.isfinite(stages[stage]), stages[stage], 0.0)))
            looks[stage] = _Look(WEIGHT_COLORSCALE, 0.0, max(largest, 1.0))
        elif stage == "scores":
            limit = score_range([stages[stage]])
            looks[stage] = _Look(SCORE_COLORSCALE, -limit, limit, 0.0)
        else:
            looks[stage] = _Look(SCORE_COLORSCALE, -shared, shared, 0.0)
    return looks


def colorbar_notes(names: list[str], text: AttentionText) -> dict[str, str]:
    """The line under each colour bar, saying what its range is."""
    notes = {"scores": text.range_own, "weights": text.range_weights, "dropped_weights": text.range_dropped}
    shared = [stage for stage in ("scaled_scores", "masked_scores") if stage in names]
    for stage in shared:
        notes[stage] = text.range_shared if len(shared) > 1 else text.range_own
    return {stage: notes[stage] for stage in names}


def dropped_cells(stages: Mapping[str, np.ndarray]) -> np.ndarray | None:
    """Cells dropout set to zero: a weight above 0 that became exactly 0."""
    if "dropped_weights" not in stages or "weights" not in stages:
        return None
    weights = np.nan_to_num(stages["weights"], nan=0.0)
    return (weights > 0) & (stages["dropped_weights"] == 0)


def _wrapped(title: str, width_px: float, font_px: float) -> tuple[str, int]:
    """A title broken onto two lines when one is too wide for its panel (at a space, else
    in the middle). Returns the Plotly text (escaped) and its line count."""
    if text_px(title, font_px) <= width_px or len(title) < 2:
        return plotly_safe(title), 1
    middle = len(title) // 2
    spaces = [i for i, char in enumerate(title) if char == " "]
    cut = min(spaces, key=lambda i: abs(i - middle)) if spaces else middle
    first, second = title[:cut].rstrip(), title[cut:].lstrip()
    return f"{plotly_safe(first)}<br>{plotly_safe(second)}", 2


def _axis(panel: Panel, which: str, domain: tuple[float, float], categories: list[str], ticks: AxisTicks | None,
          font_px: float, title: str | None = None, title_font_px: float = AXIS_TITLE_FONT_PX) -> dict:
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
class _Frame:
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


def _highlight_shapes(panels: list[Panel], highlight: tuple[int, int] | None) -> list[dict]:
    if highlight is None:
        return []
    return [cell_outline(panel, *highlight, HIGHLIGHT_COLOR) for panel in panels]


def head_detail_figure(
    stages: Mapping[str, np.ndarray],
    labels: list[str],
    head: int,
    text: AttentionText,
    highlight: tuple[int, int] | None = None,
    scaled: bool = True,
    width_px: float | None = None,
    scale: float = 1.0,
    show_values: bool = True,
) -> go.Figure:
    """All stages of one head, side by side while their cells stay legible, else in rows.

    stages: stage name -> (T, T) array for this head (the keys of ``DETAIL_STAGES`` that are
    given, in that order). labels: T display labels. head: 0-based. highlight: (query, key) cell
    outlined in every stage. scaled: False titles the scaled stage as "not scaled".
    width_px: the width the page gives the chart (default: a 1366 px projector's). scale:
    type size (presentation mode is larger). show_values: write the values in the cells
    while they fit.
    """
    names = [stage for stage in DETAIL_STAGES if stage in stages]
    T = len(labels)
    for stage in names:
        _check_square(stage, stages[stage], labels)
    width = width_px or DEFAULT_WIDTH_PX
    tick_px, title_px = TICK_FONT_PX * scale, TITLE_FONT_SIZE * scale
    axis_title_px = AXIS_TITLE_FONT_PX * scale
    short = [short_label(label) for label in labels]
    categories = categories_of(labels)

    # Room for the query labels on the left, then the panels' size from what is left.
    y_room = max(text_px(position_label(i, label), tick_px) for i, label in enumerate(short)) + LABEL_PAD_PX + TICK_STANDOFF_PX
    left = y_room + axis_title_px * LINE_HEIGHT + MARGIN_PX
    available = width - left - MARGIN_PX
    gap = DETAIL_GAP_PX * scale
    for _ in range(2):  # the gap depends on the key labels, which depend on the cell size
        layout_grid = panel_grid(
            len(names), T, available, gap, DETAIL_MIN_CELL_PX * scale, DETAIL_MAX_CELL_PX * scale,
            DETAIL_MIN_PANEL_PX * scale, DETAIL_MAX_PANEL_PX * scale,
        )  # fmt: skip
        legible = T * DETAIL_MIN_CELL_PX * scale
        if layout_grid.panel_px < legible:  # one stage a row and still too narrow: wider than the page
            layout_grid = PanelGrid(1, len(names), legible)
            width = left + legible + MARGIN_PX
        cell = layout_grid.cell_px(T)
        key_labels = key_ticks(short, cell, tick_px)
        overhang = 0.0
        if key_labels.angle == 0:
            first, last = key_labels.positions[0], key_labels.positions[-1]
            half = [max(text_px(str(i), tick_px), text_px(short[i], tick_px)) / 2 for i in (first, last)]
            overhang = max(0.0, half[1] - (T - last - 0.5) * cell) + max(0.0, half[0] - (first + 0.5) * cell)
        needed_gap = overhang + LABEL_PAD_PX * 2
        if needed_gap <= gap:
            break
        gap = needed_gap
    query_labels = query_ticks(short, cell, tick_px)
    panel_px = layout_grid.panel_px

    titles = {
        stage: (text.not_scaled if stage == "scaled_scores" and not scaled else text.stage_titles[stage])
        for stage in names
    }
    wrapped = {stage: _wrapped(titles[stage], panel_px + gap - LABEL_PAD_PX, title_px) for stage in names}
    title_room = max(lines for _, lines in wrapped.values()) * title_px * LINE_HEIGHT + 4
    row_px = (
        title_room + panel_px + key_labels.extent_px + TICK_STANDOFF_PX + axis_title_px * LINE_HEIGHT
        + COLORBAR_BLOCK_PX * scale + ROW_GAP_PX
    )  # fmt: skip
    header = HEADER_PX * scale
    frame = _Frame(width, header + layout_grid.rows * row_px + MARGIN_PX, left, MARGIN_PX, header, MARGIN_PX)

    looks = _looks(stages, names, text)
    notes = colorbar_notes(names, text)
    dropped = dropped_cells(stages)
    values_px = VALUE_FONT_PX * scale
    traces: list[dict] = []
    layout: dict = {}
    annotations, panels = [], []
    for index, stage in enumerate(names):
        row, col = divmod(index, layout_grid.cols)
        top = row * row_px + title_room
        panel = frame.panel(index + 1, col * (panel_px + gap), top, panel_px)
        panels.append(panel)
        below = top + panel_px + key_labels.extent_px + TICK_STANDOFF_PX + axis_title_px * LINE_HEIGHT
        look = _looks_with(
            looks[stage],
            colorbar=dict(
                orientation="h", x=panel.center_x, xanchor="center",
                y=frame.y_paper(below), yanchor="top", lenmode="pixels", len=panel_px * COLORBAR_SHARE,
                thickness=COLORBAR_THICKNESS_PX,
                ypad=0, xpad=0, tickfont=dict(size=COLORBAR_FONT_SIZE * scale), outlinewidth=0,
                title=dict(text=plotly_safe(notes[stage]), side="bottom", font=dict(size=COLORBAR_FONT_SIZE * scale)),
            ),
            values_font_px=values_px if show_values and values_fit(stages[stage], stage, cell, values_px) else None,
        )  # fmt: skip
        traces.extend(
            _stage_traces(stages[stage], categories, stage, head, panel, text, look,
                          dropped if stage == "dropped_weights" else None)
        )  # fmt: skip
        first_col = col == 0
        layout.update(
            _axis(panel, "x", panel.x_domain, categories, key_labels, tick_px,
                  text.key_axis if first_col else None, axis_title_px)
        )  # fmt: skip
        layout.update(
            _axis(panel, "y", panel.y_domain, categories, query_labels if first_col else None, tick_px,
                  text.query_axis if first_col else None, axis_title_px)
        )  # fmt: skip
        title_text, _ = wrapped[stage]
        annotations.append(
            dict(
                text=title_text, x=0.5, y=1.0, xref=f"{panel.xaxis} domain", yref=f"{panel.yaxis} domain",
                xanchor="center", yanchor="bottom", showarrow=False,
                font=dict(size=title_px, color=TITLE_COLOR),
            )  # fmt: skip
        )
    for panel in panels:
        _square(layout, panel.index)
    legend = [_masked_legend_entry(text)]
    if dropped is not None and dropped.any():
        legend.append(_legend_square(text.dropped, DROPPED_COLOR))
    traces.extend(legend)
    head_title = dict(
        text=f"<b>{plotly_safe(text.head)} {head + 1}</b>", x=0.0, xref="paper", xanchor="left",
        y=1.0, yref="container", yanchor="top", pad=dict(t=6),
        font=dict(color=head_color(head), size=(TITLE_FONT_SIZE + HEAD_TITLE_EXTRA_PX) * scale),
    )  # fmt: skip
    layout.update(
        height=round(frame.height),
        margin=dict(l=round(frame.left), r=round(frame.right), t=round(frame.top), b=round(frame.bottom)),
        annotations=annotations,
        shapes=_highlight_shapes(panels, highlight),
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        title=head_title,
        legend=dict(orientation="h", x=1.0, xanchor="right", y=1.0, yanchor="bottom", font=dict(size=FONT_SIZE * scale)),
        plot_bgcolor=BACKGROUND,
        hoverlabel=dict(font_size=FONT_SIZE * scale),
        # assets/sync_hover.html shows a hovered cell in every stage; minWidthPx: the width the
        # layout needs (more than the page's when cells would fall below their minimum).
        meta=dict(syncHover=True, minWidthPx=round(width)),
    )
    return build_figure(traces, layout)


def _square(layout: dict, index: int) -> None:
    """Square cells: in a page wider than planned the panel keeps its size, centred."""
    suffix = "" if index == 1 else str(index)
    layout[f"xaxis{suffix}"].update(constrain="domain", constraintoward="center")
    layout[f"yaxis{suffix}"].update(constrain="domain", scaleanchor=f"x{suffix}", scaleratio=1, constraintoward="top")


def _looks_with(look: _Look, **changes) -> _Look:
    return _Look(**{**look.__dict__, **changes})


def heads_overview_figure(
    matrices: np.ndarray,
    labels: list[str],
    stage: str,
    text: AttentionText,
    focus: int | None = None,
    cols: int | None = None,
    width_px: float | None = None,
    scale: float = 1.0,
) -> go.Figure:
    """Small multiples: one stage for every head. matrices: (h, T, T).

    All heads share one colour range, so they can be compared. The focused head (0-based)
    has a thicker border in its colour. Query labels are beside the first column, key labels
    under the panels with none below. width_px: the width the page gives the chart.
    """
    h, T = matrices.shape[0], len(labels)
    _check_square("matrices", matrices, labels)
    width = width_px or DEFAULT_WIDTH_PX
    tick_px, title_px = TICK_FONT_PX * scale, TITLE_FONT_SIZE * scale
    axis_title_px = AXIS_TITLE_FONT_PX * scale
    short = [short_label(label) for label in labels]
    categories = categories_of(labels)
    y_room = max(text_px(position_label(i, label), tick_px) for i, label in enumerate(short)) + LABEL_PAD_PX + TICK_STANDOFF_PX
    left = y_room + axis_title_px * LINE_HEIGHT + MARGIN_PX
    right = OVERVIEW_COLORBAR_PX * scale
    available = width - left - right
    gap = OVERVIEW_GAP_PX * scale
    choices = [cols] if cols else [c for c in OVERVIEW_COLUMN_CHOICES if c <= h] or [1]
    layout_grid = panel_grid(
        h, T, available, gap, OVERVIEW_MIN_CELL_PX * scale, OVERVIEW_MAX_CELL_PX * scale,
        OVERVIEW_MIN_PANEL_PX * scale, OVERVIEW_MAX_PANEL_PX * scale, column_choices=choices,
    )  # fmt: skip
    panel_px, n_cols = layout_grid.panel_px, layout_grid.cols
    cell = layout_grid.cell_px(T)
    key_labels = key_ticks(short, cell, tick_px)
    query_labels = query_ticks(short, cell, tick_px)
    title_room = title_px * LINE_HEIGHT + 4
    labelled = [head + n_cols >= h for head in range(h)]  # key labels under a panel with none below
    row_labels = [any(labelled[r * n_cols : (r + 1) * n_cols]) for r in range(layout_grid.rows)]
    label_room = key_labels.extent_px + TICK_STANDOFF_PX + axis_title_px * LINE_HEIGHT
    row_tops, top = [], 0.0
    for row in range(layout_grid.rows):
        row_tops.append(top + title_room)
        top += title_room + panel_px + (label_room if row_labels[row] else 0.0) + ROW_GAP_PX
    header = HEADER_PX * scale
    frame = _Frame(width, header + top + MARGIN_PX, left, right, header, MARGIN_PX)
    z_limit = 1.0 if _is_weights(stage) else score_range(list(matrices))
    look = _Look(WEIGHT_COLORSCALE, 0.0, 1.0) if _is_weights(stage) else _Look(SCORE_COLORSCALE, -z_limit, z_limit, 0.0)
    traces: list[dict] = []
    layout: dict = {}
    annotations, shapes = [], []
    for head in range(h):
        row, col = divmod(head, n_cols)
        panel = frame.panel(head + 1, col * (panel_px + gap), row_tops[row], panel_px)
        colorbar = None
        if head == 0:
            length = min(OVERVIEW_COLORBAR_MAX_PX * scale, frame.plot_height)
            colorbar = dict(
                x=1.0, xref="container", xanchor="right", xpad=MARGIN_PX, y=1.0, yanchor="top", lenmode="pixels",
                len=length, thickness=COLORBAR_THICKNESS_PX, tickfont=dict(size=COLORBAR_FONT_SIZE * scale),
                outlinewidth=0,
            )  # fmt: skip
        traces.extend(_stage_traces(matrices[head], categories, stage, head, panel, text, _looks_with(look, colorbar=colorbar)))
        bottom_left = labelled[head] and col == 0
        layout.update(
            _axis(panel, "x", panel.x_domain, categories, key_labels if labelled[head] else None, tick_px,
                  text.key_axis if bottom_left else None, axis_title_px)
        )  # fmt: skip
        layout.update(
            _axis(panel, "y", panel.y_domain, categories, query_labels if col == 0 else None, tick_px,
                  text.query_axis if head == 0 else None, axis_title_px)
        )  # fmt: skip
        annotations.append(
            dict(
                text=f"<b>{plotly_safe(text.head)} {head + 1}</b>", x=0.5, y=1.0, xref=f"{panel.xaxis} domain",
                yref=f"{panel.yaxis} domain", xanchor="center", yanchor="bottom", showarrow=False,
                font=dict(size=title_px, color=head_color(head)),
            )  # fmt: skip
        )
        shapes.append(
            dict(
                type="rect", xref=f"{panel.xaxis} domain", yref=f"{panel.yaxis} domain", x0=0, x1=1, y0=0, y1=1,
                line=dict(color=head_color(head), width=FOCUSED_BORDER_PX if head == focus else BORDER_PX),
            )  # fmt: skip
        )
    for head in range(h):
        _square(layout, head + 1)
    if stage == "masked_scores":
        traces.append(_masked_legend_entry(text))
    layout.update(
        height=round(frame.height),
        margin=dict(l=round(frame.left), r=round(frame.right), t=round(frame.top), b=round(frame.bottom)),
        annotations=annotations,
        shapes=shapes,
        font=dict(size=FONT_SIZE * scale, family=FONT_FAMILY),
        title=dict(
            text=plotly_safe(text.stage_titles[stage]), x=0.0, xref="paper", xanchor="left", y=1.0, yref="container",
            yanchor="top", pad=dict(t=6), font=dict(size=title_px),
        ),  # fmt: skip
        legend=dict(orientation="h", x=1.0, xanchor="right", y=1.0, yanchor="bottom", font=dict(size=FONT_SIZE * scale)),
        plot_bgcolor=BACKGROUND,
        hoverlabel=dict(font_size=FONT_SIZE * scale),
    )
    return build_figure(traces, layout)
