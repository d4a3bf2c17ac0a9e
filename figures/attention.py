"""Heatmaps of the attention stages: one head in detail, all heads as small multiples,
and which of the C channels belong to which head.

Queries are rows (top to bottom), keys are columns. Each panel's axes are category axes
whose values are ``"position · token"`` (unique, escaped), so repeated tokens keep their
own rows and a hovered cell names its query and key.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from ui.strings import t

from .labels import axis_labels, plotly_safe
from .palette import HIGHLIGHT_COLOR, MASKED_COLOR, SCORE_COLORSCALE, WEIGHT_COLORSCALE, head_color

# The four stages of a head, named as the fields of gpt_core.AttentionTrace, in lesson order.
STAGES: tuple[str, ...] = ("scores", "scaled_scores", "masked_scores", "weights")
# The detail view may add the weights after dropout (training mode) as a fifth panel.
DETAIL_STAGES: tuple[str, ...] = (*STAGES, "dropped_weights")

DETAIL_PANEL_PX = 250  # height of one stage in the detail view
THUMBNAIL_PX = 210  # height of one head in the overview
THUMBNAIL_GAP_PX = 36  # between rows of heads: the title
THUMBNAIL_GAP_LABELS_PX = 80  # ... and the tick labels of the row above
FOOTER_OVERVIEW_PX = 60
MAX_TICK_LABELS = 24  # above this many tokens an axis shows every n-th label only
TITLE_FONT_SIZE = 18
FONT_SIZE = 15  # readable from the back of a classroom
TICK_FONT_SIZE = 14
FONT_FAMILY = '"Source Sans", "Source Sans Pro", "Noto Sans CJK SC", sans-serif'  # Streamlit's own
HEADER_PX = 70  # room above the panels for titles and the legend
FOOTER_PX = 100  # room below for tick labels and colour bars


@dataclass(frozen=True)
class _Panel:
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


def _grid(count: int, cols: int, h_gap: float, v_gap: float, top: float, bottom: float) -> list[_Panel]:
    rows = math.ceil(count / cols)
    width = (1.0 - h_gap * (cols - 1)) / cols
    height = (top - bottom - v_gap * (rows - 1)) / rows
    panels = []
    for i in range(count):
        row, col = divmod(i, cols)
        x0 = col * (width + h_gap)
        y1 = top - row * (height + v_gap)
        panels.append(_Panel(i + 1, (x0, x0 + width), (y1 - height, y1)))
    return panels


def stage_name(stage: str, lang: str) -> str:
    return t(f"stage.{stage}", lang)


def trace_name(stage: str, head: int, lang: str) -> str:
    """``"weights · head 2"``: stage and 1-based head, for tests and screen readers."""
    return f"{stage_name(stage, lang)} · {t('fig.head', lang)} {head + 1}"


def _is_weights(stage: str) -> bool:
    return stage in ("weights", "dropped_weights")


def score_range(matrices: Sequence[np.ndarray]) -> float:
    """The largest |finite value| over ``matrices``, for a colour scale centred on 0."""
    largest = 0.0
    for matrix in matrices:
        finite = matrix[np.isfinite(matrix)]
        if finite.size:
            largest = max(largest, float(np.abs(finite).max()))
    return largest or 1.0


def _stage_traces(
    matrix: np.ndarray,
    categories: list[str],
    stage: str,
    head: int,
    panel: _Panel,
    lang: str,
    z_limit: float,
    colorbar: dict | None,
) -> list[dict]:
    """The heatmap of one stage of one head, plus the −∞ layer under it when masked."""
    z = np.asarray(matrix, dtype=np.float32)
    masked = np.isneginf(z)
    name = trace_name(stage, head, lang)
    value_label = plotly_safe(stage_name(stage, lang))
    where = f"{t('fig.query', lang)} %{{y}}<br>{t('fig.key', lang)} %{{x}}<br>"
    traces: list[dict] = []
    if masked.any():
        # Drawn first, under the values: only the −∞ cells are set, in a colour no scale has.
        traces.append(
            dict(
                type="heatmap",
                z=np.where(masked, np.float32(1.0), np.float32(np.nan)),
                x=categories,
                y=categories,
                xaxis=panel.xaxis,
                yaxis=panel.yaxis,
                colorscale=[[0.0, MASKED_COLOR], [1.0, MASKED_COLOR]],
                showscale=False,
                hoverongaps=False,
                name=f"{t('fig.minus_inf', lang)} · {t('fig.head', lang)} {head + 1}",
                hovertemplate=f"{where}{value_label}: −∞ ({plotly_safe(t('fig.masked_reason', lang))})<extra></extra>",
            )
        )
    if _is_weights(stage):
        color = dict(colorscale=WEIGHT_COLORSCALE, zmin=0.0, zmax=1.0)
    else:
        color = dict(colorscale=SCORE_COLORSCALE, zmin=-z_limit, zmax=z_limit, zmid=0.0)
    traces.append(
        dict(
            type="heatmap",
            z=np.where(masked, np.float32(np.nan), z),
            x=categories,
            y=categories,
            xaxis=panel.xaxis,
            yaxis=panel.yaxis,
            showscale=colorbar is not None,
            colorbar=colorbar,
            hoverongaps=False,
            name=name,
            hovertemplate=f"{where}{value_label}: %{{z:.4f}}<extra>{plotly_safe(name)}</extra>",
            **color,
        )
    )
    return traces


def _axes(
    panel: _Panel, count: int, show_labels: bool, titles: bool, lang: str, square: bool = True, show_y: bool = True
) -> dict:
    step = max(1, math.ceil(count / MAX_TICK_LABELS))
    common = dict(
        type="category", showgrid=False, zeroline=False, ticks="", dtick=step, tickfont=dict(size=TICK_FONT_SIZE)
    )
    x = dict(common, domain=list(panel.x_domain), anchor=panel.yaxis, tickangle=-90 if count > 8 else 0)
    y = dict(common, domain=list(panel.y_domain), anchor=panel.xaxis, autorange="reversed")
    x["showticklabels"] = show_labels
    y["showticklabels"] = show_labels and show_y
    if square:  # square cells; the axes shrink inside their domain to keep them so
        x["constrain"] = y["constrain"] = "domain"
        y.update(scaleanchor=panel.xaxis, scaleratio=1)
    if titles:
        x["title"] = dict(text=t("fig.key_axis", lang), standoff=4)
        y["title"] = dict(text=t("fig.query_axis", lang), standoff=4)
    name = panel.xaxis.replace("x", "xaxis"), panel.yaxis.replace("y", "yaxis")
    return {name[0]: x, name[1]: y}


def _masked_legend_entry(lang: str) -> dict:
    """A legend entry for the −∞ colour (heatmaps have none of their own)."""
    return dict(
        type="scatter", x=[None], y=[None], mode="markers", name=t("fig.legend_masked", lang), showlegend=True,
        marker=dict(symbol="square", size=16, color=MASKED_COLOR), hoverinfo="skip",
    )  # fmt: skip


def _title(text: str, panel: _Panel, color: str = "#222", bold: bool = False) -> dict:
    return dict(
        text=f"<b>{text}</b>" if bold else text, x=sum(panel.x_domain) / 2, y=panel.y_domain[1],
        xref="paper", yref="paper", xanchor="center", yanchor="bottom", showarrow=False,
        font=dict(size=TITLE_FONT_SIZE, color=color),
    )  # fmt: skip


def _highlight(panel: _Panel, query: int, key: int) -> dict:
    return dict(
        type="rect", xref=panel.xaxis, yref=panel.yaxis, x0=key - 0.5, x1=key + 0.5,
        y0=query - 0.5, y1=query + 0.5, line=dict(color=HIGHLIGHT_COLOR, width=3),
    )  # fmt: skip


def _figure(traces: list[dict], layout: dict) -> go.Figure:
    """A Figure from plain dicts, without Plotly's per-property validation.

    Validation costs most of a rerun (tens of ms for a grid of heatmaps); these builders
    are validated once in the tests instead (tests/unit/test_figures.py rebuilds every
    figure with validation on).
    """
    return go.Figure(data=traces, layout=layout, _validate=False)


def head_detail_figure(
    stages: Mapping[str, np.ndarray],
    labels: list[str],
    head: int,
    lang: str = "en",
    highlight: tuple[int, int] | None = None,
    scaled: bool = True,
) -> go.Figure:
    """All stages of one head side by side.

    stages: stage name -> (T, T) array for this head (the keys of ``DETAIL_STAGES`` that are
    given, in that order). labels: T display labels. head: 0-based. highlight: (query, key) cell
    outlined in every stage. scaled: False titles the scaled stage as "not scaled".
    """
    names = [stage for stage in DETAIL_STAGES if stage in stages]
    T = len(labels)
    for stage in names:
        if stages[stage].shape != (T, T):
            raise ValueError(f"{stage} has shape {stages[stage].shape}, expected ({T}, {T}) for tokens {labels}")
    categories = axis_labels(labels)
    height = DETAIL_PANEL_PX + HEADER_PX + FOOTER_PX
    top = 1.0 - HEADER_PX / height
    bottom = FOOTER_PX / height
    panels = _grid(len(names), len(names), h_gap=0.06, v_gap=0.0, top=top, bottom=bottom)
    traces: list[dict] = []
    layout: dict = {}
    annotations = []
    shapes = []
    color = head_color(head)
    for stage, panel in zip(names, panels, strict=True):
        width = panel.x_domain[1] - panel.x_domain[0]
        colorbar = dict(
            orientation="h", x=sum(panel.x_domain) / 2, xanchor="center", y=0.0, yanchor="top",
            len=width, thickness=12, ypad=0, tickfont=dict(size=12),
        )  # fmt: skip
        z_limit = 1.0 if _is_weights(stage) else score_range([stages[stage]])
        traces.extend(_stage_traces(stages[stage], categories, stage, head, panel, lang, z_limit, colorbar))
        layout.update(_axes(panel, T, show_labels=True, titles=panel.index == 1, lang=lang))
        title = stage_name(stage, lang)
        if stage == "scaled_scores" and not scaled:
            title = t("stage.not_scaled", lang)
        annotations.append(_title(title, panel))
        if highlight is not None:
            shapes.append(_highlight(panel, *highlight))
    traces.append(_masked_legend_entry(lang))
    layout.update(
        height=height,
        margin=dict(l=70, r=10, t=HEADER_PX // 2, b=10),
        annotations=annotations,
        shapes=shapes,
        font=dict(size=FONT_SIZE, family=FONT_FAMILY),
        title=dict(text=f"<b>{t('fig.head', lang)} {head + 1}</b>", font=dict(color=color, size=TITLE_FONT_SIZE + 4)),
        legend=dict(orientation="h", x=0.0, xanchor="left", y=1.0, yanchor="bottom"),  # the tool bar is on the right
        plot_bgcolor="white",
        hoverlabel=dict(font_size=FONT_SIZE),
        meta=dict(syncHover=True),  # assets/sync_hover.js shows a hovered cell in every stage
    )
    return _figure(traces, layout)


def heads_overview_figure(
    matrices: np.ndarray,
    labels: list[str],
    stage: str,
    lang: str = "en",
    focus: int | None = None,
    cols: int | None = None,
) -> go.Figure:
    """Small multiples: one stage for every head. matrices: (h, T, T).

    All heads share one colour range, so they can be compared. The focused head (0-based)
    has a thicker border in its colour.
    """
    h, T = matrices.shape[0], len(labels)
    if matrices.shape != (h, T, T):
        raise ValueError(f"matrices have shape {matrices.shape}, expected ({h}, {T}, {T}) for tokens {labels}")
    cols = cols or min(h, 4)
    rows = math.ceil(h / cols)
    show_labels = T <= 12 and cols <= 4
    row_gap = THUMBNAIL_GAP_LABELS_PX if show_labels else THUMBNAIL_GAP_PX  # room for tick labels
    height = rows * THUMBNAIL_PX + (rows - 1) * row_gap + HEADER_PX + FOOTER_OVERVIEW_PX
    top = 1.0 - HEADER_PX / height
    panels = _grid(h, cols, h_gap=0.03, v_gap=row_gap / height, top=top, bottom=FOOTER_OVERVIEW_PX / height)
    categories = axis_labels(labels)
    z_limit = 1.0 if _is_weights(stage) else score_range(list(matrices))
    traces: list[dict] = []
    layout: dict = {}
    annotations, shapes = [], []
    for head, panel in enumerate(panels):
        colorbar = dict(thickness=12, len=0.8, y=0.5, x=1.01) if head == 0 else None
        traces.extend(_stage_traces(matrices[head], categories, stage, head, panel, lang, z_limit, colorbar))
        first_column = (head % cols) == 0
        layout.update(_axes(panel, T, show_labels, titles=False, lang=lang, square=False, show_y=first_column))
        focused = head == focus
        annotations.append(_title(f"{t('fig.head', lang)} {head + 1}", panel, head_color(head), bold=True))
        shapes.append(
            dict(
                type="rect",
                xref="paper",
                yref="paper",
                x0=panel.x_domain[0],
                x1=panel.x_domain[1],
                y0=panel.y_domain[0],
                y1=panel.y_domain[1],
                line=dict(color=head_color(head), width=5 if focused else 1.5),
            )  # fmt: skip
        )
    if stage == "masked_scores":
        traces.append(_masked_legend_entry(lang))
    layout.update(
        height=height,
        margin=dict(l=60 if show_labels else 10, r=60, t=HEADER_PX // 2, b=10),
        annotations=annotations,
        shapes=shapes,
        font=dict(size=FONT_SIZE, family=FONT_FAMILY),
        title=dict(text=stage_name(stage, lang), font=dict(size=TITLE_FONT_SIZE)),
        legend=dict(orientation="h", x=1.0, xanchor="right", y=1.0, yanchor="bottom"),
        plot_bgcolor="white",
    )
    return _figure(traces, layout)


def channel_map_figure(heads: int, head_dim: int, lang: str = "en") -> go.Figure:
    """Which of the C = heads × head_dim channels belong to which head, in the heads' colours."""
    traces: list[dict] = []
    for head in range(heads):
        first, last = head * head_dim, (head + 1) * head_dim - 1
        name = t("fig.channels_of_head", lang, head=head + 1, first=first, last=last)
        traces.append(
            dict(
                type="bar",
                x=[head_dim],
                y=["C"],
                orientation="h",
                name=name,
                marker=dict(color=head_color(head)),
                text=[f"{t('fig.head', lang)} {head + 1}"] if heads <= 8 else None,
                textposition="inside",
                hovertemplate=f"{name}<extra></extra>",
                base=[first],
            )  # fmt: skip
        )
    layout = dict(
        barmode="overlay",
        height=160,
        margin=dict(l=10, r=10, t=40, b=40),
        showlegend=False,
        font=dict(size=FONT_SIZE, family=FONT_FAMILY),
        title=dict(text=t("fig.channel_map", lang, C=heads * head_dim, h=heads, d=head_dim), font=dict(size=16)),
        xaxis=dict(range=[0, heads * head_dim], title=t("fig.channel_axis", lang), dtick=head_dim),
        yaxis=dict(showticklabels=False),
    )
    return _figure(traces, layout)
