"""The playground's views of one computation: all heads, one head stage by stage, the
softmax by hand, the shapes and the per-head table (the link and downloads: share_view.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pandas as pd
import streamlit as st

from figures import ChartSize, channel_map_figure, head_detail_figure, heads_overview_figure, shape_trace_code
from figures.events import MIN_WIDTH
from figures.export import export_name
from figures.overview import plan_overview
from gpt_core import STAGES, PlaygroundTrace, position_label
from gpt_core.source import Note
from gpt_core.window import Window, window_around
from string_table import t
from string_table.figure_words import figure_words

from ..charts import page_width, prepared, show_chart, type_scale
from ..contained import contained_part
from ..shared import sources
from ..shared.shared_cache import SharedResults
from ..shell import is_presenting
from ..step_timing import timed
from ..views.held import Held, in_part
from ..views.model import SCREEN_CHART_PX, SourceView
from ..window_map import window_map
from .controls import PAGE, widget_key
from .softmax_table import SCORE_DECIMALS, WEIGHT_DECIMALS, softmax_table

STATS_PRECISION = 3
# The first chart stands beside the controls: its share of the main column, and the gap.
CONTROLS_SHARE, CHART_SHARE = 2, 3
COLUMN_GAP_REM = 2.0  # Streamlit's "medium" gap between columns
ROOT_FONT_PX = 16
PRESENT_ROOT_FONT_PX = 21  # ui/shell.py PRESENT_CSS
# The first screen at 1366×768 (a classroom projector) holds every head beside the controls:
# the overview starts this far down (the page's title, the compare switch, the stage buttons).
FIRST_SCREEN_PX = 768
# Streamlit stands columns side by side in a window 640 px wide or more (its theme's "columns"
# breakpoint), the main column then at least this wide (17 px of padding each side); a
# narrower main column may be a phone's, whose columns stand one under the other.
SIDE_BY_SIDE_MIN_PX = 640 - 2 * 17
ABOVE_OVERVIEW_PX = 340  # at 1366×768, the chart's toolbar strip (30 px) included, a little room kept


@dataclass(kw_only=True)
class View(SourceView):
    """One layer of a source's trace as the playground reads it: numpy arrays, ready for the
    figures, on the shared view model (``ui.views.model``)."""

    result: PlaygroundTrace
    stages: dict[str, np.ndarray]  # stage -> (h, T, T) float32
    dropped_weights: np.ndarray  # (h, T, T)
    statistics: dict[str, np.ndarray]  # name -> (h,)
    text: str = ""  # the text put through the source (the shared trace's key)
    text_used: str = ""  # the text the tokens cover
    left_out: tuple[str, ...] = ()  # characters of the text the source cannot read
    notes: list[Note] = field(default_factory=list)  # what the source says of the text it read
    one_layer_page: ClassVar[bool] = True

    @property
    def kv_heads(self) -> int | None:
        """The key/value heads where fewer than the query heads (grouped-query attention)."""
        return self.about.kv_heads if self.about.kv_heads != self.about.heads else None

    def layer_weights(self) -> np.ndarray:
        return self.stages["weights"]

    def nbytes(self) -> int:
        """What its arrays hold: the layer's recorded tensors and the per-head statistics."""
        tensors = self.result.trace.tensors().values()
        return sum(tensor.nbytes for tensor in tensors) + sum(array.nbytes for array in self.statistics.values())

    def every_layer(self) -> list[np.ndarray]:
        """Every layer of the source's trace (read again from the shared traces: the view
        keeps one layer); a source of one layer (random weights) is this one."""
        if self.about.layers == 1:
            return [self.stages["weights"]]
        return [weights[0].numpy() for weights in sources.trace(self.source, self.text).weights]


def position_labels(labels: list[str]):
    return lambda position: position_label(position, labels[position])


def head_label(lang: str):
    return lambda n: f"{t('fig.head', lang)} {n}"


def first_chart_width() -> float:
    """The width of the column beside the controls, where the overview stands."""
    gap = COLUMN_GAP_REM * (PRESENT_ROOT_FONT_PX if is_presenting() else ROOT_FONT_PX)
    return (page_width() - gap) * CHART_SHARE / (CONTROLS_SHARE + CHART_SHARE)


def chosen_window(view: View) -> Window:
    """The queries and keys the views show: all of a short text's, else a window around the
    chosen cell (``gpt_core.window``)."""
    return window_around(
        len(view.result.labels), st.session_state[widget_key("row")], st.session_state[widget_key("col")]
    )


@dataclass(frozen=True)
class Planned:
    """What the overview's plan for a width and a height says of it: its height, and the
    coarsest of its axes' label steps (1: every token named)."""

    height: float
    step: int


# The overview's plans, by everything they read (heads, labels, size, window): planned once,
# not again on every rerun (~10 ms of a rerun at 70 tokens).
PLANNED: SharedResults[Planned] = SharedResults(max_entries=256)


def beside_height(view: View) -> float | None:
    """The most height the overview may take beside the controls, or None: it takes the
    page's width under them. Every head on the first screen where they fit what it has left.
    Else every head on one screen, the first heads on the first screen (the controls' column
    is about as tall: 677 px at 1366×768), as a long text's window has it (it never fits the
    first screen's height with legible cells), unless the narrower column would leave tokens
    unnamed that the page's width names (a ten-word sentence in 8 heads). Where not even one
    screen holds every head beside the controls, the page's width under them: a column taller
    than the controls would leave half the page empty (a long text's first screen has
    ``first_screen_map`` beside the controls then)."""
    window, first_screen, column = chosen_window(view), FIRST_SCREEN_PX - ABOVE_OVERVIEW_PX, first_chart_width()
    if window.whole:
        if _planned(view, window, column, first_screen).height <= first_screen + 0.5:
            return first_screen
        if page_width() < SIDE_BY_SIDE_MIN_PX or _names_fewer(view, window, column):
            return None  # a phone (its columns stand one under the other), or fewer tokens named
    fits = _planned(view, window, column, SCREEN_CHART_PX).height <= SCREEN_CHART_PX + 0.5
    return SCREEN_CHART_PX if fits else None


def _names_fewer(view: View, window: Window, column: float) -> bool:
    """Whether the overview one screen tall in the ``column`` beside the controls leaves tokens
    unnamed that it names the page's width."""
    beside = _planned(view, window, column, SCREEN_CHART_PX).step
    return beside > 1 and _planned(view, window, page_width(), SCREEN_CHART_PX).step == 1


def _planned(view: View, window: Window, width: float, limit: float) -> Planned:
    """The overview's plan ``width`` wide, at most ``limit`` tall where its panels stay legible."""
    size = ChartSize(width_px=width, scale=type_scale(), max_height_px=limit)
    heads, labels = view.result.config.heads, view.result.labels

    def plan() -> Planned:
        planned = plan_overview(heads, labels, size, window)
        return Planned(planned.frame.height, max(planned.labels.keys.step, planned.labels.queries.step))

    return PLANNED.get((heads, tuple(labels), size, window), lambda: timed("figures", plan))


OVERVIEW_CHART_KEY = "pg_overview_chart"
DETAIL_CHART_KEY = "pg_detail_chart"
DETAIL_SCROLL_KEY = "pg_detail_scroll"
# A chart wider than the page, in a box that scrolls sideways (fixed keys and a number only).
SCROLL_CSS = "<style>.st-key-{outer} {{ overflow-x: auto; }} .st-key-{inner} {{ min-width: {width}px; }}</style>"


def overview(view: View, lang: str, beside: float | None = None, outline: int | None = None) -> None:
    """All heads of the chosen stage, beside the controls at most ``beside`` tall
    (``beside_height``), or None: under them, the page's width and one screen; ``outline``:
    a query row outlined in every head (Predict first's hidden row)."""
    _overview_part(Held(view, view.nbytes()), lang, beside, outline)


@st.fragment  # a stage change reruns this chart only: nothing else on the page reads the stage
def _overview_part(held: Held[View], lang: str, beside: float | None, outline: int | None) -> None:
    view = in_part(held)  # not the view itself: a part keeps its arguments (ui/views/held.py)
    k = widget_key
    st.segmented_control(
        t("pg.stage", lang),
        STAGES,
        key=k("stage"),
        format_func=lambda s: t(f"stage_short.{s}", lang),
        required=True,
        label_visibility="collapsed",
    )
    stage = st.session_state[k("stage")]
    PAGE.keep_part("stage")  # the link and the page's memory, after a stage change that reran this only
    window = chosen_window(view)
    focus, scale = st.session_state[k("head")] - 1, type_scale()
    width, height = (page_width(), SCREEN_CHART_PX) if beside is None else (first_chart_width(), beside)

    def build():
        return heads_overview_figure(
            view.stages[stage],
            view.result.labels,
            stage,
            figure_words(lang),
            focus=focus,
            size=ChartSize(width_px=width, scale=scale, max_height_px=height),
            window=window,
            outline_row=outline,
        )

    show_chart(
        build,
        OVERVIEW_CHART_KEY,
        sized=True,
        share=view.shared("overview", stage, focus, width, height, scale, window),
        file_name=view.file_name("heads", stage),
    )
    st.caption(t("pg.overview_help", lang, head=st.session_state[k("head")]))


def _detail_controls(view: View, lang: str) -> None:
    """The head, the query row and key column (the cells' values toggle is the chart's own)."""
    k, labels = widget_key, view.result.labels
    T = len(labels)
    head_col, row_col, col_col = st.columns(3, vertical_alignment="bottom")
    head_col.selectbox(
        t("pg.focus_head", lang), list(range(1, view.about.heads + 1)), key=k("head"), format_func=head_label(lang)
    )
    row_col.selectbox(t("pg.query_row", lang), list(range(T)), key=k("row"), format_func=position_labels(labels))
    col_col.selectbox(t("pg.key_col", lang), list(range(T)), key=k("col"), format_func=position_labels(labels))


def detail(view: View, lang: str, map_above: bool = False) -> None:
    """One head stage by stage: its controls, a long text's map (or only its note where
    ``map_above``: the first screen already shows the same map), then the chart."""
    k = widget_key
    st.subheader(t("pg.detail_title", lang))
    st.caption(t("pg.detail_help", lang))
    _detail_controls(view, lang)
    head, window = st.session_state[k("head")] - 1, chosen_window(view)
    if not window.whole:
        window_map(
            view.stages["weights"][head],
            window,
            head,
            st.session_state[k("row")],
            lang,
            WINDOW_MAP_KEY,
            view.shared("window", head, window, type_scale()),
            view.file_name("map", head=head + 1),
            drawn_above=map_above,
        )
    _detail_chart(Held(view, view.nbytes()), lang)


@st.fragment  # the values toggle reruns this chart only: nothing else reads it
@contained_part("pg.detail_title")
def _detail_chart(held: Held[View], lang: str) -> None:
    """The toggle for the cells' values and the chart of the chosen head's stages."""
    view = in_part(held)
    k = widget_key
    labels, config = view.result.labels, view.result.config
    st.toggle(t("pg.values", lang), key=k("cells"), help=t("pg.values_help", lang))
    PAGE.keep_part("cells")
    head = st.session_state[k("head")] - 1
    stages = {stage: view.stages[stage][head] for stage in STAGES}
    dropout = config.training and config.dropout > 0
    if dropout:
        stages["dropped_weights"] = view.dropped_weights[head]
    highlight = (st.session_state[k("row")], st.session_state[k("col")])
    width, scale, values = page_width(), type_scale(), st.session_state[k("cells")]
    window = chosen_window(view)

    def build():
        return head_detail_figure(
            stages,
            labels,
            head,
            figure_words(lang),
            highlight=highlight,
            scaled=config.scale,
            size=ChartSize(width_px=width, scale=scale, max_height_px=SCREEN_CHART_PX),
            show_values=values,
            room_for_values=True,
            window=window,
        )

    drawn = prepared(build, sized=True, share=view.shared("detail", head, highlight, values, width, scale, window))
    name = view.file_name("detail", head=head + 1, q=highlight[0], k=highlight[1])
    wider = drawn.meta[MIN_WIDTH]
    if wider > page_width() + 1:  # legible cells need more than the page: the chart scrolls sideways
        st.html(SCROLL_CSS.format(outer=DETAIL_SCROLL_KEY, inner=DETAIL_CHART_KEY, width=int(wider)))
        with st.container(key=DETAIL_SCROLL_KEY):
            show_chart(drawn, DETAIL_CHART_KEY, file_name=name)
    else:
        show_chart(drawn, DETAIL_CHART_KEY, file_name=name)
    if dropout:
        st.caption(t("pg.dropout_note", lang, p=f"{config.dropout:g}", factor=f"{1 / (1 - config.dropout):.4g}"))


WINDOW_MAP_KEY = "pg_window_map"
FIRST_MAP_KEY = "pg_first_map"
FIRST_MAP_SHARES = (3, 2)  # beside the controls the map takes 3/5 of the column: its 300 px whole


def first_screen_map(view: View, lang: str) -> None:
    """A long text whose heads stand under the controls (a real model's 12): beside the
    controls, on the first screen, the map of the whole text for the chosen head, the window
    outlined (a click moves it), so that the first screen shows a chart and not only the
    note that the text was cut."""
    head, window = st.session_state[widget_key("head")] - 1, chosen_window(view)
    weights, row = view.stages["weights"][head], st.session_state[widget_key("row")]
    shared, name = view.shared("window", head, window, type_scale()), view.file_name("map", head=head + 1)
    window_map(weights, window, head, row, lang, FIRST_MAP_KEY, shared, name, shares=FIRST_MAP_SHARES)


def softmax_calculator(view: View, lang: str) -> None:
    head = st.session_state[widget_key("head")] - 1
    row = st.session_state[widget_key("row")]
    masked_row = view.result.trace.masked_scores[0, head, row]
    table, row_max, total = softmax_table(masked_row, view.result.labels, lang, view.shared("softmax", head, row))
    st.markdown(t("pg.softmax_intro", lang, head=head + 1, row=row))
    st.dataframe(table, hide_index=True, key="pg_softmax_table")
    st.markdown(t("pg.softmax_sum", lang, max=f"{row_max:.{SCORE_DECIMALS}f}", total=f"{total:.{WEIGHT_DECIMALS}f}"))


def shapes(view: View, lang: str) -> None:
    trace = view.result.trace
    config = view.result.config
    st.markdown(t("pg.shapes_intro", lang))
    # Wrapped, not cut, where a window is narrower still (the lines are kept short: figures/shapes.py).
    st.code(shape_trace_code(trace.shape_steps, tuple(trace.x.shape)), language="python", wrap_lines=True)
    show_chart(
        lambda: channel_map_figure(config.heads, config.head_dim, figure_words(lang), kv_heads=view.kv_heads),
        "pg_channel_chart",
        share=("channels", config.heads, config.head_dim, view.kv_heads),
        file_name=export_name("channels", h=config.heads, d=config.head_dim, kv=view.kv_heads),
    )


def statistics(view: View, lang: str) -> None:
    head_names = [head_label(lang)(n + 1) for n in range(view.result.config.heads)]
    table = pd.DataFrame({t(f"pg.stat.{name}", lang): values for name, values in view.statistics.items()})
    table.insert(0, t("fig.head", lang), head_names)
    # A plain frame with a number format: a pandas Styler (head colours) cost ~13 % of the
    # server's time per rerun; the heads' colours are in every chart above.
    number = st.column_config.NumberColumn(format=f"%.{STATS_PRECISION}f")
    config = {name: number for name in table.columns[1:]}
    st.dataframe(table, hide_index=True, key="pg_stats_table", column_config=config)
    st.caption(t("pg.stats_help", lang))
