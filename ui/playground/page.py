"""The playground page: read the controls, compute attention once per change of the
numbers, keep the chosen cell valid, then draw the views. A change that only moves the
focus (head, stage, cell) reuses the last computation. A session's first run draws the
controls and the overview only; the browser then asks for the rest (ui/first_screen.py).
A change of one of the set-up's controls reruns the set-up alone (``one_setup``, a fragment):
the shell, the sidebar and the compare switch stay as drawn. A control that changes only the
numbers (the seed, the settings under "more", Predict first) reruns only what they draw
(``the_charts``, a fragment inside it, named for ``st.rerun``): the controls stay too."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from gpt_core.source import AttentionSource
from links import playground as state
from string_table import t

from ..chart_events import listen, parse_click
from ..contained import contained
from ..first_screen import ask_for_the_rest, is_first_screen
from ..shell import page_title, setup_page
from ..views import notes
from ..views.tabs import draw_open_tab
from . import chosen_view, combined_view, compare, predict, share_view, token_view, views
from .controls import (
    CHARTS_DRAWN,
    CHARTS_PART,
    LOOKING,
    PAGE,
    chosen_source,
    current_values,
    draw_controls,
    refresh_controls,
    resolve_weights,
    restore_controls,
    show_notes,
    widget_key,
    write_url,
)
from .views import View

PAGE_KEY = "playground"
CLICK_CHARTS = {
    views.OVERVIEW_CHART_KEY: "overview",
    views.DETAIL_CHART_KEY: "detail",
    views.WINDOW_MAP_KEY: "window",
    views.FIRST_MAP_KEY: "window",
}
CLICKS_KEY = "pg_chart_clicks"


def _apply_click(payload: object, view: View) -> None:
    """A clicked cell chooses the query row and key column (in a long text's map, the window
    moves there); in the overview, the head too."""
    config = view.result.config
    click = parse_click(payload, set(CLICK_CHARTS.values()), len(view.result.tokens), config.heads)
    if click is None:
        return
    ss = st.session_state
    ss[widget_key("row")], ss[widget_key("col")] = click.row, click.col
    if click.chart == "overview" and click.head is not None:
        ss[widget_key("head")] = click.head + 1


TABS_KEY = "pg_tab"


def _below(view: View, query: dict[str, str], text: str, lang: str, map_above: bool, pending: bool) -> None:
    """Below the first screen: one head stage by stage (its hover linked by the page's chart
    events) and the tabs, of which only the open one is drawn (ui/lazy_tabs.py). A view that
    fails says so in its place (ui/contained.py); the rest of the page stays. ``map_above``:
    the first screen shows the long text's map, which the detail then only points to.
    ``pending``: a prediction is still to come, so the tabs (which hold the hidden row's
    numbers) wait for it."""
    with contained(t("pg.detail_title", lang), lang):
        views.detail(view, lang, map_above=map_above)
    if pending:
        st.info(t("pg.predict_tabs_wait", lang), icon=":material/help:")
        return
    draw_open_tab(
        state.VIEWS,
        tab_views(view, query, text, lang),
        TABS_KEY,
        lang,
        "pg.tab",
        chosen=PAGE.get("view"),
        on_choose=lambda name: PAGE.set("view", name),
    )


def tab_views(view: View, query: dict[str, str], text: str, lang: str) -> dict:
    """Each tab's view of ``view``: the table the tabs draw from (ui/views/tabs.py)."""
    return {
        "softmax": lambda: views.softmax_calculator(view, lang),
        "shapes": lambda: views.shapes(view, lang),
        "stats": lambda: views.statistics(view, lang),
        "qk": lambda: combined_view.qk(view, lang),
        "combined": lambda: combined_view.combined(view, lang),
        "token": lambda: token_view.token_view(view, text, lang),
        "share": lambda: share_view.share(view, query, text, lang),
    }


SETUP_RUN_STATE = "pg_setup_run"  # set by the set-up's run for the charts' part: not a rerun of it alone
FULL_RUN_STATE = "pg_full_run"  # set by a full run for the part below: not a rerun of that part alone


def render() -> None:
    lang = setup_page(PAGE_KEY)
    first_screen = is_first_screen(PAGE_KEY)
    page_title(PAGE_KEY, lang)
    st.caption(t("page.playground.blurb", lang))
    restore_controls()
    resolve_weights()
    st.session_state[CHARTS_DRAWN] = False
    if compare.toggle(lang):  # two set-ups side by side (ui/playground/compare.py)
        compare.render(lang, first_screen)
        return
    st.session_state[FULL_RUN_STATE] = True
    one_setup(lang, first_screen)
    if first_screen:
        ask_for_the_rest(PAGE_KEY)


@st.fragment  # a control of the set-up reruns this part only: the shell and sidebar stay as drawn
def one_setup(lang: str, first_screen: bool) -> None:
    """One set-up: its controls beside all heads' chart, then (after the first screen) the
    rest. A rerun of this part alone (one of its controls changed) first shows each control's
    value anew and repairs one its parameter can't hold, as a full run's restore does (the
    link, the history and the browser's values were read by the full run before)."""
    if not st.session_state.pop(FULL_RUN_STATE, False):
        refresh_controls()
        resolve_weights()
    notes_slot = st.empty()  # filled once the charts have read the values: a changed number makes the notes old news
    # The first screen at 1366×768: the controls in a column beside all heads' chart.
    controls_col, chart_col = st.columns([views.CONTROLS_SHARE, views.CHART_SHARE], gap="medium")
    with controls_col:
        source = draw_controls(lang)
        sizes = st.container()  # T, h, d and C under the controls: the chart's column keeps its height for the chart
    st.session_state[SETUP_RUN_STATE] = True
    the_charts(lang, first_screen, source, sizes, chart_col)
    with notes_slot.container():
        show_notes(lang)


@st.fragment(key=CHARTS_PART)
def the_charts(
    lang: str, first_screen: bool, source: AttentionSource | None, sizes: DeltaGenerator, column: DeltaGenerator
) -> None:
    """Everything the set-up's numbers draw: the sizes under the controls (``sizes``), the
    column beside them (``column``) and what lies under both. A control that changes the
    numbers only (the seed, the settings under "more", Predict first: ``rerun_the_charts``)
    reruns this part alone, and so does a click on a chart or a choice of the detail: the
    controls stay as drawn and the source is read anew from them. The link's notes, drawn by
    the set-up, stay too: a change of what is looked at keeps them, and while there are any
    a control of the numbers reruns the set-up instead."""
    if not st.session_state.pop(SETUP_RUN_STATE, False):
        source = chosen_source(lang)
    st.session_state[CHARTS_DRAWN] = True
    # This part's own places in the containers it was given, made anew on each of its runs:
    # the parts nested in them (the overview) then stay inside this part's.
    sizes_slot, chart_col = sizes.empty(), column.container()
    values = current_values()
    from_link = st.session_state.get(PAGE.fresh_key)
    PAGE.settle(values, looking=LOOKING)
    with chart_col:
        clicked = listen(CLICK_CHARTS, CLICKS_KEY)
        shown = chosen_view.computed_view(values, lang, source)
        if shown is None:
            return
        view, text_used = shown
        past_text = chosen_view.sync_focus(view, values["text"])
        if past_text and from_link:  # a link's position past the text's end: said with the others
            PAGE.add_notes(past_text)
        _apply_click(clicked, view)
        values = current_values()
        PAGE.remember(values)
        query = write_url(values, text_used)
        config = view.result.config
        T = len(view.result.tokens)
        sizes_slot.markdown(t("pg.tokens_line", lang, T=T, h=config.heads, d=config.head_dim, C=config.output_dim))
        view, pending = predict.shown_view(view, values, lang)  # Predict first: the row hidden until guessed
        beside = views.beside_height(view)
        outline = st.session_state[widget_key("row")] if pending else None  # the hidden row, marked
        if beside is not None:
            views.overview(view, lang, beside, outline=outline)
            notes.remarks(view.notes, lang)  # the source's notes under the first chart (its warnings above)
        map_above = beside is None and not views.chosen_window(view).whole
        if map_above:  # a long text's heads under the controls: its map here
            views.first_screen_map(view, lang)
    if beside is None:  # too tall beside the controls: the page's width under them
        views.overview(view, lang, outline=outline)
        notes.remarks(view.notes, lang)
    if not first_screen:
        _below(view, query, values["text"] if text_used is None else text_used, lang, map_above, pending)
