"""The trained-heads explorer: choose a model and a prompt, see every head of every block,
open one head stage by stage, as lines, by its metrics, during training, and while it
generates. The prompt's trace is computed once per (model, prompt) (ui/models.trace);
choosing a block, a head or a view only reads it."""

from __future__ import annotations

from typing import Any

import streamlit as st

from gpt_core import InputError

from .. import models
from ..chart_clicks import listen, parse_click
from ..first_screen import ask_for_the_rest, is_first_screen
from ..markdown import literal
from ..shell import carried_params, page_title, setup_page
from ..strings import error_text, t
from ..train.resources import shipped_snapshots
from . import state, views
from .state import PARAMS, ModelShape

PAGE_KEY = "explorer"
VALUES_STATE = "ex_values"  # the view's values as last shown (a page change keeps them)
NOTES_STATE = "ex_notes"  # what the link held that could not be used
FROM_LINK_STATE = "ex_from_link"  # this run's values came from the link: fit notes are shown
CLICKS_KEY = "ex_chart_clicks"
CLICK_CHARTS = {views.GRID_CHART_KEY: "grid"}
NOTE_VALUE_CHARS = 60
# The widgets: one per parameter (the model's select box holds a key of ui/models).
WIDGETS = tuple(param.name for param in PARAMS)


def widget_key(name: str) -> str:
    return f"ex_{name}"


def _restore() -> None:
    """Fill each widget's state from the link (a session's first visit) or from the values
    last shown (after another page, whose run dropped the widgets' state)."""
    ss = st.session_state
    if VALUES_STATE not in ss:
        values, notes = state.parse_query(st.query_params.to_dict())
        ss[VALUES_STATE] = values
        ss[NOTES_STATE] = notes
        ss[FROM_LINK_STATE] = True
    for name, value in ss[VALUES_STATE].items():
        if widget_key(name) not in ss:
            ss[widget_key(name)] = value


def _values() -> dict[str, Any]:
    return {name: st.session_state.get(widget_key(name)) for name in WIDGETS}


def default_prompt(loaded: models.LoadedModel) -> str:
    """The model's own prompt, as much of it as the model reads (no note about a cut)."""
    return loaded.default_prompt[: loaded.context_length]


def _on_model_change() -> None:
    """Another model: its own prompt when the old model's default was shown, and its first head."""
    ss = st.session_state
    old = ss[VALUES_STATE]
    old_loaded = models.load(old["model"])
    if old_loaded is not None and ss[widget_key("prompt")] == default_prompt(old_loaded):
        new = models.load(ss[widget_key("model")])
        if new is not None:
            ss[widget_key("prompt")] = default_prompt(new)
    ss[NOTES_STATE] = []


def _show_notes(lang: str) -> None:
    for note in st.session_state.get(NOTES_STATE, []):
        shown = note.value if len(note.value) <= NOTE_VALUE_CHARS else note.value[: NOTE_VALUE_CHARS - 1] + "…"
        if note.reason in ("session_model_elsewhere", "model_unknown"):
            text = t(f"ex.note_{note.reason}", lang, value=literal(shown), allowed=note.allowed,
                     fallback=note.default.removeprefix(models.SHIPPED_PREFIX))  # fmt: skip
        elif note.reason in ("older_version", "newer_version"):
            text = t(f"pg.note_{note.reason}", lang, value=literal(shown), current=note.default)
        elif note.reason == "unknown":
            text = t("pg.note_unknown", lang, name=literal(note.name))
        else:
            text = t("pg.note_invalid", lang, name=literal(note.name), value=literal(shown), allowed=note.allowed,
                     default=literal(note.default) or "—")  # fmt: skip
        st.warning(text, icon=":material/link_off:")


def _write_url(values: dict[str, Any], lang: str) -> None:
    query = state.to_query(values)
    query.update(carried_params(lang))
    if st.query_params.to_dict() != query:
        st.query_params.from_dict(query)


def _choose_model(lang: str) -> models.LoadedModel | None:
    ss = st.session_state
    available = models.model_keys()
    if not available:
        st.error(t("ex.no_models", lang))
        return None
    key, notes = state.resolve_model(ss[widget_key("model")], available)
    if notes:
        ss[NOTES_STATE] = [*ss.get(NOTES_STATE, []), *notes]
        ss[widget_key("model")] = key
    loaded = models.load(key)
    if ss[widget_key("prompt")] is None:
        ss[widget_key("prompt")] = default_prompt(loaded)
    return loaded


def _apply_click(payload: object, shape: ModelShape) -> None:
    click = parse_click(payload, set(CLICK_CHARTS.values()), shape.tokens, shape.heads)
    if click is None or click.head is None or click.block is None or click.block >= shape.blocks:
        return
    st.session_state[widget_key("block")] = click.block + 1
    st.session_state[widget_key("head")] = click.head + 1


def _fit(shape: ModelShape) -> None:
    """Keep block, head, token and step inside the model; a link's odd values say so."""
    ss = st.session_state
    fitted, notes = state.fit_to_model(_values(), shape)
    for name in ("block", "head", "token", "step"):
        ss[widget_key(name)] = fitted[name]
    if ss.get(FROM_LINK_STATE):
        ss[NOTES_STATE] = [*ss.get(NOTES_STATE, []), *notes]


def render() -> None:
    lang = setup_page(PAGE_KEY)
    first_screen = is_first_screen(PAGE_KEY)
    page_title(PAGE_KEY, lang)
    st.caption(t("page.explorer.blurb", lang))
    _restore()
    ss = st.session_state
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
    prompt = ss[widget_key("prompt")]
    clicked = listen(CLICK_CHARTS, CLICKS_KEY)
    try:
        trace = models.trace(loaded, prompt)
    except InputError as error:
        with notes_slot:
            _show_notes(lang)
        st.error(error_text(error, lang))
        ss[VALUES_STATE] = _values()
        _write_url(_values(), lang)
        return
    steps = tuple(sorted(shipped_snapshots(loaded.heads))) if loaded.key != models.SESSION_KEY else ()
    shape = ModelShape(tuple(keys), loaded.blocks, loaded.heads, len(trace.labels), steps)
    _fit(shape)
    _apply_click(clicked, shape)
    values = _values()
    if not ss[FROM_LINK_STATE] and values != ss[VALUES_STATE]:
        ss[NOTES_STATE] = []  # the student changed the view: the link's notes are old news
    ss[FROM_LINK_STATE] = False
    ss[VALUES_STATE] = values
    _write_url(values, lang)
    with notes_slot:
        _show_notes(lang)
    views.read_notes(loaded, trace, lang)
    view = views.ExplorerView(loaded, trace, values["block"] - 1, values["head"] - 1)
    views.grid(view, lang, widget_key)
    if first_screen:
        # The browser asks for the rest once the grid is drawn, and says how wide the page is.
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
