"""Compare mode: two set-ups side by side on one text (``cmp=1`` in the link).

The page's controls are set-up A; set-up B has its own heads, head_dim, weights (random
with a seed, or a shipped or trained model), scaling and dropout (``b_*`` parameters in
``state.COMPARE_PARAMS``); the text, tokens, input width, positions and bias are A's. Each
column shows all heads of the chosen stage with the chosen cell (query row, key column)
outlined; under both, B − A cell by cell where the shapes match (same tokens, same heads),
of the heads' means where only the head counts differ, and a plain sentence where the
tokens differ. A's computation is the page's own (``chosen_view.computed_view``); B's goes
through the same shared cache (``computed.compute``), so a class on one compare link
computes each set-up once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from figures import ChartSize, difference_figure, heads_overview_figure
from figures.export import export_name
from gpt_core import STAGES, InputError, PlaygroundConfig
from gpt_core.source import AttentionSource
from gpt_core.window import window_around
from links import playground as state
from string_table import error_text, t
from string_table.figure_words import figure_words

from ..chart_events import listen, parse_click
from ..charts import page_width, show_chart, type_scale
from ..first_screen import ask_for_the_rest
from ..shared import sources
from ..shell import is_presenting
from ..views import notes
from ..window_map import window_map
from . import chosen_view, computed
from .controls import (
    LOOKING,
    PAGE,
    block_choice,
    current_values,
    draw_controls,
    show_notes,
    widget_key,
    write_url,
)
from .views import COLUMN_GAP_REM, PRESENT_ROOT_FONT_PX, ROOT_FONT_PX, View, position_labels

A_CHART_KEY = "pg_cmp_a_chart"
B_CHART_KEY = "pg_cmp_b_chart"
DIFF_CHART_KEY = "pg_cmp_diff_chart"
MAP_CHART_KEY = "pg_cmp_window_map"
CLICK_CHARTS = {A_CHART_KEY: "a", B_CHART_KEY: "b", MAP_CHART_KEY: "window"}
CLICKS_KEY = "pg_cmp_clicks"
PAGE_KEY = "playground"
SETTINGS_ICON = ":material/tune:"


def toggle(lang: str) -> bool:
    """The switch between one set-up and two; True when two are compared."""
    st.toggle(t("cmp.toggle", lang), key=widget_key("cmp"), help=t("cmp.toggle_help", lang))
    return bool(PAGE.get("cmp"))


def config_b(values: dict[str, Any]) -> PlaygroundConfig:
    """Set-up B's computation: A's with B's own heads, head_dim, seed, scaling and dropout."""
    both = {
        **values,
        "heads": values["b_heads"],
        "head_dim": values["b_head_dim"],
        "seed": values["b_seed"],
        "scale": values["b_scale"],
        "dropout": values["b_dropout"],
        "mode": values["b_mode"],
    }
    return state.config_of(both)


def b_weights_options() -> list[str]:
    """The sources light enough to stand beside A's (a second large model would double the wait)."""
    return sources.names(light=True)


def resolve_b_weights() -> None:
    """B's weights name random or a model that is here (real models are A's alone): anything
    else falls back to random weights, with a note."""
    key = st.session_state.get(widget_key("b_weights"), state.RANDOM_WEIGHTS)
    if key not in b_weights_options():
        st.session_state[widget_key("b_weights")] = state.RANDOM_WEIGHTS
        PAGE.add_notes([state.Note("b_weights", str(key), "b_model_missing")])


def _b_controls(lang: str, config: PlaygroundConfig) -> AttentionSource | None:
    k = widget_key
    st.selectbox(
        t("pg.weights", lang),
        b_weights_options(),
        key=k("b_weights"),
        help=t("cmp.b_weights_real", lang),
        format_func=lambda key: sources.label(key, lang),
    )
    source = sources.load(PAGE.get("b_weights"), lang, config)
    if source is not None and not source.settings:  # a model: its sizes are its own
        block_choice(source, "b_block", lang)
        notes.facts(source, lang)
    else:
        heads_col, dim_col = st.columns(2)
        PAGE.number_input(heads_col, "b_heads", t("pg.heads", lang), lang)
        PAGE.number_input(dim_col, "b_head_dim", t("pg.head_dim", lang), lang)
        seed_col, mode_col = st.columns(2)
        PAGE.number_input(seed_col, "b_seed", t("pg.seed", lang), lang, t("pg.seed_help", lang))
        mode_col.radio(
            t("pg.mode", lang),
            state.MODES,
            key=k("b_mode"),
            horizontal=True,
            format_func=lambda name: t(f"pg.mode.{name}", lang),
            help=t("pg.mode_help", lang),
        )
        st.toggle(t("pg.scale", lang), key=k("b_scale"), help=t("pg.scale_help", lang))
        st.slider(t("pg.dropout", lang), 0.0, state.MAX_DROPOUT, step=state.DROPOUT_STEP, key=k("b_dropout"))
    st.caption(t("cmp.shared_note", lang))
    return source


def view_b(values: dict[str, Any], text: str, source: AttentionSource | None, lang: str) -> View | None:
    """Set-up B's view of ``text`` (the text A used), or None after a message."""
    if source is None:
        return None
    layer = min(values["b_block"], source.description.layers) - 1
    try:
        return computed.compute(source, text, layer)
    except InputError as error:
        st.error(t("cmp.error_b", lang, error=error_text(error, lang)))
        return None


def _apply_click(payload: object, view_a: View, view_b: View) -> None:
    """A clicked cell in either chart chooses the query row and key column of both; in A's,
    the head too. A click on a long text's map moves both windows there."""
    for name, view in (("a", view_a), ("b", view_b), ("window", view_a)):
        click = parse_click(payload, {name}, len(view.result.tokens), view.result.config.heads)
        if click is None:
            continue
        if click.row < len(view_a.result.tokens) and click.col < len(view_a.result.tokens):
            st.session_state[widget_key("row")], st.session_state[widget_key("col")] = click.row, click.col
        if name == "a" and click.head is not None:
            st.session_state[widget_key("head")] = click.head + 1


def column_width() -> float:
    """The width of each of the two columns."""
    gap = COLUMN_GAP_REM * (PRESENT_ROOT_FONT_PX if is_presenting() else ROOT_FONT_PX)  # the columns' gap
    return (page_width() - gap) / 2


def _column(view: View, name: str, key: str, stage: str, cell: tuple[int, int], lang: str) -> None:
    config, labels = view.result.config, view.result.labels
    T = len(labels)
    st.markdown(t("cmp.column_line", lang, name=name, T=T, h=config.heads, d=config.head_dim, C=config.output_dim))
    head = st.session_state[widget_key("head")] - 1
    focus = head if head < config.heads else None
    highlight = cell if max(cell) < T else None
    width, scale = column_width(), type_scale()
    window = window_around(T, *(cell if highlight else (T - 1, 0)))

    def build():
        return heads_overview_figure(
            view.stages[stage],
            labels,
            stage,
            figure_words(lang),
            focus=focus,
            size=ChartSize(width_px=width, scale=scale),
            highlight=highlight,
            window=window,
        )

    show_chart(
        build,
        key,
        sized=True,
        share=view.shared("compare", stage, focus, width, scale, highlight, window),
        file_name=view.file_name("compare", "A" if key == A_CHART_KEY else "B", stage),
    )
    if highlight is None:
        st.caption(t("cmp.cell_outside", lang, row=cell[0], col=cell[1], T=T))


def long_text_map(view: View, cell: tuple[int, int], lang: str) -> None:
    """A long text's map of the whole text, the windows of A and B outlined (a click moves
    them): A's chosen head's weights. Nothing for a text short enough to show whole."""
    T = len(view.result.labels)
    if max(cell) >= T:
        return
    window = window_around(T, *cell)
    if window.whole:
        return
    head = min(st.session_state[widget_key("head")], view.result.config.heads) - 1
    window_map(
        view.stages["weights"][head],
        window,
        head,
        cell[0],
        lang,
        MAP_CHART_KEY,
        view.shared("window", head, window, type_scale()),
        view.file_name("map", head=head + 1),
    )
    st.caption(t("cmp.map_head", lang, head=head + 1))


def head_means(matrices: np.ndarray) -> np.ndarray:
    """The mean over heads, (1, T, T) (a masked cell, −∞ in every head, stays −∞)."""
    return np.asarray(matrices, dtype=np.float32).mean(axis=0, keepdims=True)


def difference(view_a: View, view_b: View, stage: str, cell: tuple[int, int], lang: str) -> None:
    """B − A under both columns: per head, of the heads' means, or a sentence saying why not."""
    st.subheader(t("cmp.diff_title", lang))
    labels = view_a.result.labels
    ha, hb = view_a.result.config.heads, view_b.result.config.heads
    if labels != view_b.result.labels:
        st.info(t("cmp.diff_tokens", lang, ta=len(labels), tb=len(view_b.result.labels)), icon=":material/info:")
        return
    a, b = view_a.stages[stage], view_b.stages[stage]
    of_means = ha != hb
    if of_means:
        st.caption(t("cmp.diff_means", lang, ha=ha, hb=hb))
        a, b = head_means(a), head_means(b)
    head = None if of_means else st.session_state[widget_key("head")] - 1  # the means are of every head
    width, scale = page_width(), type_scale()

    window = window_around(len(labels), *cell)

    def build():
        return difference_figure(
            a,
            b,
            labels,
            stage,
            figure_words(lang),
            highlight=cell,
            focus=head,
            of_means=of_means,
            size=ChartSize(width_px=width, scale=scale),
            window=window,
        )

    share = None
    if view_a.identity and view_b.identity:
        share = ("difference", view_a.identity, view_b.identity, stage, cell, head, width, scale, window)
    name = export_name("b_minus_a", stage, "means" if of_means else None, T=len(labels), h_a=ha, h_b=hb)
    show_chart(build, DIFF_CHART_KEY, sized=True, share=share, file_name=name)
    st.caption(t("cmp.diff_help", lang))


def _focus_controls(view_a: View, lang: str) -> None:
    k = widget_key
    labels = view_a.result.labels
    T = len(labels)
    stage_col, row_col, col_col = st.columns([4, 3, 3], vertical_alignment="bottom")
    stage_col.segmented_control(
        t("pg.stage", lang),
        STAGES,
        key=k("stage"),
        format_func=lambda s: t(f"stage_short.{s}", lang),
        required=True,
    )
    row_col.selectbox(t("pg.query_row", lang), list(range(T)), key=k("row"), format_func=position_labels(labels))
    col_col.selectbox(t("pg.key_col", lang), list(range(T)), key=k("col"), format_func=position_labels(labels))
    st.caption(t("cmp.focus_help", lang))


def render(lang: str, first_screen: bool) -> None:
    """The compare page below the toggle: A's and B's controls, both charts, the difference."""
    resolve_b_weights()
    notes_slot = st.container()
    # Each set-up's controls folded away (the columns' lines below say what each computes):
    # both charts start on the first screen at 1366×768.
    a_col, b_col = st.columns(2, gap="medium")
    with a_col, st.expander(t("cmp.a_title", lang), icon=SETTINGS_ICON):
        source_a = draw_controls(lang, predict=False)
    with b_col, st.expander(t("cmp.b_title", lang), icon=SETTINGS_ICON):
        source_b = _b_controls(lang, config_b(PAGE.values()))
    values = current_values()
    PAGE.settle(values, looking=LOOKING)
    with notes_slot:
        show_notes(lang)
    clicked = listen(CLICK_CHARTS, CLICKS_KEY)
    shown = chosen_view.computed_view(values, lang, source_a)
    if shown is None:
        return
    view_a, text_used = shown
    chosen_view.sync_focus(view_a, values["text"])
    computed_b = view_b(values, values["text"] if text_used is None else text_used, source_b, lang)
    if computed_b is None:
        write_url(values, text_used)
        return
    _apply_click(clicked, view_a, computed_b)
    values = current_values()
    PAGE.remember(values)
    write_url(values, text_used)
    _focus_controls(view_a, lang)
    stage = st.session_state[widget_key("stage")]
    cell = (st.session_state[widget_key("row")], st.session_state[widget_key("col")])
    a_chart, b_chart = st.columns(2, gap="medium")
    with a_chart:
        _column(view_a, t("cmp.a_title", lang), A_CHART_KEY, stage, cell, lang)
    with b_chart:
        _column(computed_b, t("cmp.b_title", lang), B_CHART_KEY, stage, cell, lang)
    notes.remarks(view_a.notes, lang)  # A's notes under its chart (its warnings above)
    long_text_map(view_a, cell, lang)
    difference(view_a, computed_b, stage, cell, lang)
    if first_screen:
        ask_for_the_rest(PAGE_KEY)
