"""The explorer's first chart: the grid of every head of every block, or, for a model of more
heads than one screen's grid holds (a real one), the layer × head map of one number per head
and every head of the chosen layer; a long text's window map under either."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from figures import ChartSize, grid_figure, heads_overview_figure, metric_figure
from links.explorer import METRICS
from string_table import t
from string_table.figure_words import figure_words

from ..charts import show_chart, sized_for_page, type_scale
from ..window_map import window_map
from .views import (
    GRID_CHART_KEY,
    LAYER_CHART_KEY,
    MAP_CHART_KEY,
    WINDOW_MAP_KEY,
    ExplorerView,
    entropy_limit,
    has_map,
    metric_values,
)

MAP_CELL_PX = 30  # the layer × head map's cells, at most
MAP_GRID_PX = 540  # and all its rows together, at most: the map within a screen, presenting too


def map_cell_px(layers: int) -> float:
    """The layer × head map's cells: MAP_CELL_PX, smaller for a model of many layers so that
    the map stays on one screen (SmolLM2's 30 layers: 18 px)."""
    return min(MAP_CELL_PX, MAP_GRID_PX / max(layers, 1))


def _block_and_head(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    """The chosen block (or layer) and head."""
    block_col, head_col, _ = st.columns([1, 1, 3])
    unit = view.unit  # "block" or "layer": the keys ex.block, ex.block_n, ex.layer, ex.layer_n
    block_col.selectbox(
        t(f"ex.{unit}", lang),
        list(range(1, view.about.layers + 1)),
        key=key("block"),
        format_func=lambda n: t(f"ex.{unit}_n", lang, n=n),
    )
    head_col.selectbox(
        t("ex.head", lang),
        list(range(1, view.about.heads + 1)),
        key=key("head"),
        format_func=lambda n: t("ex.head_n", lang, n=n),
    )


def layer_map(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    """A real model's entry point: one number per head of every layer (the chosen metric), a
    click opens that head; below, every head of the chosen layer."""
    st.segmented_control(
        t("ex.metric", lang),
        METRICS,
        key=key("metric"),
        required=True,
        format_func=lambda m: t(f"ex.metric.{m}", lang),
        label_visibility="collapsed",  # the map's title names the metric: a line more of the map in view
    )
    metric = st.session_state[key("metric")]
    title = t("ex.map_title", lang, metric=t(f"ex.metric.{metric}", lang))
    size, focus = ChartSize(scale=type_scale(), cell_px=map_cell_px(view.about.layers)), (view.layer, view.head)

    def build_map():
        return metric_figure(
            metric_values(view, metric),
            metric,
            figure_words(lang),
            limit=entropy_limit(view),
            size=size,
            title=title,
            focus=focus,
            rows_word=f"ex.col.{view.source.words.unit}",
        )

    share = view.shared("map", metric, focus, size)
    show_chart(build_map, MAP_CHART_KEY, sized=True, share=share, file_name=view.file_name("map", metric))
    st.caption(t("ex.map_help", lang, layers=view.about.layers, heads=view.about.heads))
    _block_and_head(view, lang, key)
    st.subheader(t("ex.layer_heads_title", lang, layer=view.layer + 1))
    sized, window = sized_for_page(), view.window

    def build_layer():
        words = figure_words(lang)
        weights = view.weights[view.layer]
        return heads_overview_figure(
            weights, view.trace.labels, "weights", words, focus=focus[1], window=window, size=sized
        )

    share = view.shared("layer_heads", *focus, window, sized)
    show_chart(
        build_layer, LAYER_CHART_KEY, sized=True, share=share, file_name=view.file_name("layer", layer=view.layer + 1)
    )
    _window_map(view, lang)


def _window_map(view: ExplorerView, lang: str) -> None:
    """A long text: the chosen head's whole matrix, small, the window outlined."""
    if view.window.whole:
        return
    window_map(
        view.weights[view.layer, view.head],
        view.window,
        view.head,
        view.chosen_row,
        lang,
        WINDOW_MAP_KEY,
        view.shared("window", view.layer, view.head, view.window, type_scale()),
        view.file_name("whole", block=view.layer + 1, head=view.head + 1),
    )


def grid(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    if has_map(view):
        layer_map(view, lang, key)
        return
    _block_and_head(view, lang, key)
    unit = view.unit
    sized = sized_for_page()
    focus, window = (view.layer, view.head), view.window
    words = figure_words(lang)
    # Its rows are blocks or layers: the grid's words for them.
    words = {**words, "ex.col.block": words[f"ex.col.{unit}"], "ex.grid_title": t(f"ex.grid_title.{unit}", lang)}
    show_chart(
        lambda: grid_figure(view.weights, view.trace.labels, words, focus=focus, window=window, size=sized),
        GRID_CHART_KEY,
        sized=True,
        share=view.shared("grid", focus, sized, window),
        file_name=view.file_name("grid", block=view.layer + 1, head=view.head + 1),
    )
    st.caption(t(f"ex.grid_help.{unit}", lang))
    _window_map(view, lang)
