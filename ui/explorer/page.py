"""The trained-heads explorer: choose a model and a prompt, see every head of every block,
open one head stage by stage, as lines, by its metrics, during training, and while it
generates. Any model a source stands for (ui/shared/sources.py): the shipped ones, the
session's, a real one. The prompt's trace is computed once per (model, prompt) for every
session; choosing a block, a head or a view only reads it."""

from __future__ import annotations

from contextlib import nullcontext

import streamlit as st

from gpt_core import InputError
from gpt_core.source import AttentionSource
from links import explorer as state
from links.explorer import PARAMS, ModelShape
from string_table import error_text, t

from ..chart_events import listen, parse_click
from ..first_screen import ask_for_the_rest, is_first_screen
from ..page_state.state import PageState
from ..shared import sources
from ..shared.lanes import FIRST_SCREEN, REST_OF_PAGE, heavy_turn
from ..shared.shared_cache import MISSING, SharedResults
from ..shell import page_title, setup_page
from ..views import notes
from ..views.tabs import draw_open_tab
from . import (
    cache_view,
    combined_view,
    detail,
    generation,
    grid,
    lines,
    metrics,
    odds_view,
    token_view,
    training,
    views,
)

PAGE_KEY = "explorer"
NOTE_VALUE_CHARS = 60
PAGE = PageState("ex_", PARAMS, note_chars=NOTE_VALUE_CHARS)
CLICKS_KEY = "ex_chart_clicks"
# (model, serial, prompt) whose whole page some session of this server has drawn: opening
# it again reads kept traces and shared figures (light).
DRAWN_PAGES: SharedResults[bool] = SharedResults(max_entries=1024)
FELL_BACK_STATE = "ex_fell_back"  # a real model the link named that could not be had (the shipped one is shown)
CLICK_CHARTS = {
    views.GRID_CHART_KEY: "grid",
    views.MAP_CHART_KEY: "map",
    views.LAYER_CHART_KEY: "layer",
    views.WINDOW_MAP_KEY: "window",
}
widget_key = PAGE.key


def _on_model_change() -> None:
    """Another model: its own prompt when the old model's default was shown."""
    old = sources.default_prompt_of(PAGE.last_values().get("model", ""))
    if old is not None and PAGE.get("prompt") == old:
        new = sources.default_prompt_of(PAGE.get("model"))
        if new is not None:
            PAGE.set("prompt", new)
    PAGE.clear_notes()
    st.session_state.pop(FELL_BACK_STATE, None)


def _choose_model(lang: str) -> AttentionSource | None:
    keys = sources.model_names()
    if not keys:
        st.error(t("ex.no_models", lang))
        return None
    wanted = PAGE.get("model")
    fallback = sources.fallback_model(keys, state.FALLBACK_MODEL)
    key, notes = state.resolve_model(wanted, keys, fallback, sources.missing_reason(wanted))
    if notes:
        PAGE.add_notes(notes)
        PAGE.fit({"model": key})
    source = sources.load(key, lang)
    if source is None:  # a real model that cannot be had (its message is shown): the shipped one instead
        fallback = sources.fallback_model(sources.model_names(light=True), state.FALLBACK_MODEL)
        source = sources.load(fallback, lang)
        if source is None:
            return None
        st.session_state[FELL_BACK_STATE] = key
        PAGE.fit({"model": fallback})
    elif st.session_state.get(FELL_BACK_STATE) not in (None, key):
        sources.show_failure(lang)  # fell back on an earlier run: the reason stays in view
    if PAGE.get("prompt") is None:
        PAGE.fit({"prompt": source.default_prompt})
    return source


def _apply_click(payload: object, shape: ModelShape) -> None:
    """A grid panel chooses its block and head; a cell of a real model's map its layer and
    head; a panel of the chosen layer its head; a block of a long text's map the window."""
    if isinstance(payload, dict) and payload.get("chart") == "map":
        click = parse_click(payload, {"map"}, max(shape.blocks, shape.heads), shape.heads)
        if click is not None and click.row < shape.blocks and click.col < shape.heads:
            PAGE.set("block", click.row + 1)
            PAGE.set("head", click.col + 1)
        return
    click = parse_click(payload, {"grid", "layer", "window"}, shape.tokens, shape.heads)
    if click is None or click.head is None:
        return
    if click.chart == "window":  # a long text's map: the window moves there
        PAGE.set("row", click.row)
        PAGE.set("col", click.col)
        return
    if click.chart == "grid":
        if click.block is None or click.block >= shape.blocks:
            return
        PAGE.set("block", click.block + 1)
    PAGE.set("head", click.head + 1)


def _fit(shape: ModelShape) -> None:
    """Keep block, head, token and step inside the model, and the cache view's step inside its
    generation; a link's odd values say so."""
    fitted, notes = state.fit_to_model(PAGE.values(), shape)
    PAGE.fit({name: fitted[name] for name in ("block", "head", "token", "row", "col", "step", "cache_step")}, notes)


def _show_notes(lang: str, source: AttentionSource) -> None:
    PAGE.show_notes(lang, fallback=source.description.heads)


def render() -> None:
    lang = setup_page(PAGE_KEY)
    first_screen = is_first_screen(PAGE_KEY)
    page_title(PAGE_KEY, lang)
    st.caption(t("page.explorer.blurb", lang))
    PAGE.restore()
    source = _choose_model(lang)
    if source is None:
        return
    notes_slot = st.container()
    model_col, prompt_col = st.columns([2, 3], vertical_alignment="top")
    keys = sources.model_names()
    model_col.selectbox(
        t("ex.model", lang),
        keys,
        key=widget_key("model"),
        format_func=lambda key: sources.label(key, lang),
        on_change=_on_model_change,
    )
    prompt_col.text_area(
        t("ex.prompt", lang),
        key=widget_key("prompt"),
        height=68,
        max_chars=state.MAX_PROMPT_CHARS,
        help=t("ex.prompt_help", lang),
    )
    prompt = PAGE.get("prompt")
    clicked = listen(CLICK_CHARTS, CLICKS_KEY)
    identity = (source.identity, prompt)
    # A prompt no session has seen yet is heavy work (its trace, every figure of the page):
    # in the lane, so a class opening new prompts at once cannot stall light reruns.
    heavy = DRAWN_PAGES.peek(identity) is MISSING
    priority = FIRST_SCREEN if first_screen else REST_OF_PAGE
    with heavy_turn(lang, priority=priority) if heavy else nullcontext():
        view = _first_screen(lang, source, prompt, identity, clicked, keys, notes_slot)
        if view is None:
            return
        if first_screen:
            # The browser asks for the rest once the grid is drawn, and says how wide the page is.
            PAGE.reread_after_restart()
            ask_for_the_rest(PAGE_KEY)
            return
        _rest(view, lang)
        DRAWN_PAGES.get(identity, lambda: True)
    PAGE.reread_after_restart()


def _first_screen(
    lang: str, source: AttentionSource, prompt: str, identity: tuple, clicked, keys: list[str], notes_slot
) -> views.ExplorerView | None:
    """The trace's notes and the grid of every head; None after a message (a prompt the
    model cannot read)."""
    try:
        trace = sources.trace(source, prompt)
    except InputError as error:
        with notes_slot:
            _show_notes(lang, source)
        st.error(error_text(error, lang))
        PAGE.settle(PAGE.values())
        PAGE.write_url(PAGE.values(), lang)
        return None
    steps, d = source.snapshot_steps(), source.description
    shape = ModelShape(tuple(keys), d.layers, d.heads, len(trace.labels), steps)
    _fit(shape)
    _apply_click(clicked, shape)
    values = PAGE.values()
    PAGE.settle(values)  # once the student changes the view, the link's notes are old news
    PAGE.write_url(values, lang)
    with notes_slot:
        _show_notes(lang, source)
    notes.warnings(source.notes(trace), lang)
    view = views.ExplorerView(
        source=source,
        labels=trace.labels,
        layer=values["block"] - 1,
        identity=identity,
        trace=trace,
        head=values["head"] - 1,
        steps=steps,
        row=values["row"],
        col=values["col"],
    )
    grid.grid(view, lang, widget_key)
    views.model_lines(source, trace, lang)
    return view


TABS_KEY = "ex_tab"


def tab_views(view: views.ExplorerView, lang: str) -> dict:
    """Each tab's view of ``view``: the table the tabs draw from (ui/views/tabs.py)."""
    key = widget_key
    return {
        "detail": lambda: detail.detail(view, lang),
        "lines": lambda: lines.lines(view, lang, key),
        "metrics": lambda: metrics.metrics(view, lang, key),
        "training": lambda: training.training(view, lang, key, view.steps),
        "generate": lambda: generation.generation(view, lang, key),
        "odds": lambda: odds_view.odds(view, lang, key),
        "token": lambda: token_view.token_view(view, lang, key),
        "combined": lambda: combined_view.combined(view, lang, key, PAGE.keep_part),
        "cache": lambda: cache_view.cache(view, lang, key),
    }


def _rest(view: views.ExplorerView, lang: str) -> None:
    """Below the grid: the tabs, of which only the open one is drawn (ui/lazy_tabs.py; the
    link's ``view`` says which). A view that fails says so in its tab; the page stays."""
    draw_open_tab(
        state.VIEWS,
        tab_views(view, lang),
        TABS_KEY,
        lang,
        "ex.tab",
        chosen=PAGE.get("view"),
        on_choose=lambda name: PAGE.set("view", name),
    )
