"""The trained-heads explorer: choose a model and a prompt, see every head of every block,
open one head stage by stage, as lines, by its metrics, during training, and while it
generates. The prompt's trace is computed once per (model, prompt) (ui/models.trace);
choosing a block, a head or a view only reads it."""

from __future__ import annotations

import streamlit as st

from gpt_core import InputError

from ..chart_events import listen, parse_click
from ..first_screen import ask_for_the_rest, is_first_screen
from ..page_state.state import PageState
from ..shared import models
from ..shared.resources import shipped_snapshots
from ..shell import page_title, setup_page
from ..strings import error_text, t
from . import state, views
from .state import PARAMS, ModelShape

PAGE_KEY = "explorer"
NOTE_VALUE_CHARS = 60
PAGE = PageState("ex_", PARAMS, note_chars=NOTE_VALUE_CHARS)
CLICKS_KEY = "ex_chart_clicks"
CLICK_CHARTS = {views.GRID_CHART_KEY: "grid"}
widget_key = PAGE.key


def default_prompt(loaded: models.LoadedModel) -> str:
    """The model's own prompt, as much of it as the model reads (no note about a cut)."""
    return loaded.default_prompt[: loaded.context_length]


def _on_model_change() -> None:
    """Another model: its own prompt when the old model's default was shown."""
    old_loaded = models.load(PAGE.last_values().get("model", ""))
    if old_loaded is not None and PAGE.get("prompt") == default_prompt(old_loaded):
        new = models.load(PAGE.get("model"))
        if new is not None:
            PAGE.set("prompt", default_prompt(new))
    PAGE.clear_notes()


def _choose_model(lang: str) -> models.LoadedModel | None:
    available = models.model_keys()
    if not available:
        st.error(t("ex.no_models", lang))
        return None
    key, notes = state.resolve_model(PAGE.get("model"), available)
    if notes:
        PAGE.add_notes(notes)
        PAGE.fit({"model": key})
    loaded = models.load(key)
    if PAGE.get("prompt") is None:
        PAGE.fit({"prompt": default_prompt(loaded)})
    return loaded


def _apply_click(payload: object, shape: ModelShape) -> None:
    click = parse_click(payload, set(CLICK_CHARTS.values()), shape.tokens, shape.heads)
    if click is None or click.head is None or click.block is None or click.block >= shape.blocks:
        return
    PAGE.set("block", click.block + 1)
    PAGE.set("head", click.head + 1)


def _fit(shape: ModelShape) -> None:
    """Keep block, head, token and step inside the model; a link's odd values say so."""
    fitted, notes = state.fit_to_model(PAGE.values(), shape)
    PAGE.fit({name: fitted[name] for name in ("block", "head", "token", "step")}, notes)


def _show_notes(lang: str) -> None:
    fallback = models.load(PAGE.get("model"))
    PAGE.show_notes(lang, fallback=fallback.heads if fallback is not None else "")


def render() -> None:
    lang = setup_page(PAGE_KEY)
    first_screen = is_first_screen(PAGE_KEY)
    page_title(PAGE_KEY, lang)
    st.caption(t("page.explorer.blurb", lang))
    PAGE.restore()
    loaded = _choose_model(lang)
    if loaded is None:
        return
    notes_slot = st.container()
    model_col, prompt_col = st.columns([2, 3], vertical_alignment="top")
    keys = models.model_keys()
    model_col.selectbox(t("ex.model", lang), keys, key=widget_key("model"), format_func=lambda key: models.label(key, lang),
                        on_change=_on_model_change)  # fmt: skip
    prompt_col.text_area(t("ex.prompt", lang), key=widget_key("prompt"), height=68, max_chars=state.MAX_PROMPT_CHARS,
                         help=t("ex.prompt_help", lang))  # fmt: skip
    prompt = PAGE.get("prompt")
    clicked = listen(CLICK_CHARTS, CLICKS_KEY)
    try:
        trace = models.trace(loaded, prompt)
    except InputError as error:
        with notes_slot:
            _show_notes(lang)
        st.error(error_text(error, lang))
        PAGE.settle(PAGE.values())
        PAGE.write_url(PAGE.values(), lang)
        return
    steps = tuple(sorted(shipped_snapshots(loaded.heads))) if loaded.key != models.SESSION_KEY else ()
    shape = ModelShape(tuple(keys), loaded.blocks, loaded.heads, len(trace.labels), steps)
    _fit(shape)
    _apply_click(clicked, shape)
    values = PAGE.values()
    PAGE.settle(values)  # once the student changes the view, the link's notes are old news
    PAGE.write_url(values, lang)
    with notes_slot:
        _show_notes(lang)
    views.read_notes(loaded, trace, lang)
    view = views.ExplorerView(loaded, trace, values["block"] - 1, values["head"] - 1)
    views.grid(view, lang, widget_key)
    if first_screen:
        # The browser asks for the rest once the grid is drawn, and says how wide the page is.
        PAGE.reread_after_restart()
        ask_for_the_rest(PAGE_KEY)
        return
    tabs = st.tabs([t(f"ex.tab.{name}", lang) for name in ("detail", "lines", "metrics", "training", "generate")])
    with tabs[0]:
        views.detail(view, lang)
    with tabs[1]:
        views.lines(view, lang, widget_key)
    with tabs[2]:
        views.metrics(view, lang, widget_key)
    with tabs[3]:
        views.training(view, lang, widget_key, steps)
    with tabs[4]:
        views.generation(view, lang, widget_key)
    PAGE.reread_after_restart()
