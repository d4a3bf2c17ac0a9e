"""The playground page: read the controls, compute attention once per change of the
numbers, keep the chosen cell valid, then draw the views. A change that only moves the
focus (head, stage, cell) reuses the last computation. A session's first run draws the
controls and the overview only; the browser then asks for the rest (ui/first_screen.py)."""

from __future__ import annotations

from contextlib import nullcontext

import streamlit as st

from gpt_core import (
    MAX_TOKENS,
    STAGES,
    InputError,
    PlaygroundConfig,
    PlaygroundTrace,
    display_labels,
    head_statistics,
    tokenize,
    trace_attention,
    truncate_text,
)
from gpt_core.explore import ModelTrace

from ..chart_events import listen, parse_click
from ..contained import contained
from ..first_screen import ask_for_the_rest, is_first_screen
from ..lazy_tabs import lazy_tabs
from ..markdown import literal
from ..shared import models, real_models
from ..shared.lanes import heavy_turn
from ..shared.shared_cache import SharedResults
from ..shell import page_title, setup_page
from ..strings import error_text, t
from . import combined_view, compare, state, token_view, views
from .controls import (
    LOOKING,
    PAGE,
    current_values,
    draw_controls,
    resolve_weights,
    restore_controls,
    show_notes,
    weights_key,
    widget_key,
    write_url,
)
from .views import View

TEXT_STATE = "pg_text_shown"  # the text shown last run: a new text resets the chosen cell
MEMO_STATE = "pg_memo"
PAGE_KEY = "playground"
CLICK_CHARTS = {views.OVERVIEW_CHART_KEY: "overview", views.DETAIL_CHART_KEY: "detail"}
CLICKS_KEY = "pg_chart_clicks"
SHARED_VIEW_ENTRIES = 128  # (text, settings) computations kept for every session of the server
SHARED_VIEW_MB = 32  # and the memory they may hold (the largest, 16 heads × 128 tokens, ~6 MB)


def _view_bytes(view: View) -> int:
    tensors = view.result.trace.tensors().values()
    return sum(tensor.nbytes for tensor in tensors) + sum(array.nbytes for array in view.statistics.values())


# Views shared by every session, by (text, config): the arrays are only read.
SHARED_VIEWS: SharedResults[View] = SharedResults(SHARED_VIEW_ENTRIES, SHARED_VIEW_MB * 2**20, _view_bytes)


def _random_weights_view(text: str, config: PlaygroundConfig) -> View:
    result = trace_attention(text, config)
    trace = result.trace
    return View(
        result=result,
        stages={stage: getattr(trace, stage)[0].numpy() for stage in STAGES},
        dropped_weights=trace.dropped_weights[0].numpy(),
        statistics={name: value.numpy() for name, value in head_statistics(trace.weights[0]).items()},
        identity=(state.RANDOM_WEIGHTS, text, config),
    )


def compute(text: str, config: PlaygroundConfig) -> View:
    """Attention for (text, config), computed only when one of them changed, and once for
    every session of the server that asks for the same (a class on one link)."""
    key = (text, config)
    memo = st.session_state.get(MEMO_STATE)
    if memo is not None and memo[0] == key:
        return memo[1]
    view = SHARED_VIEWS.get(key, lambda: _random_weights_view(text, config))
    st.session_state[MEMO_STATE] = (key, view)
    return view


def _model_view(result: PlaygroundTrace, source: str, kv_heads: int | None = None, identity: tuple = ()) -> View:
    """The arrays a model's layer gives the views (eval mode: no dropout)."""
    trace = result.trace
    return View(
        result=result,
        stages={stage: getattr(trace, stage)[0].numpy() for stage in STAGES},
        dropped_weights=trace.weights[0].numpy(),
        statistics={name: value.numpy() for name, value in head_statistics(trace.weights[0]).items()},
        source=source,
        kv_heads=kv_heads,
        identity=identity,
    )


def _readable(values: dict, lang: str, compute):
    """``compute(text)`` for the controls' text, or None after the message a student reads
    (no text yet, or a text the computation refuses)."""
    text = values["text"]
    if not text.strip():
        write_url(values, None)
        st.info(t("pg.empty", lang), icon=":material/edit:")
        return None
    try:
        return compute(text)
    except InputError as error:
        write_url(values, None)
        st.error(error_text(error, lang))
        return None


def compute_trained(text: str, loaded: models.LoadedModel, block: int) -> tuple[View, ModelTrace]:
    """A trained model's attention for ``text`` in one block: the model's real stream into
    that block, traced once per (model, text) (ui/models.py)."""
    traced = models.trace(loaded, text)
    layer = traced.layers[block - 1]
    bias = loaded.model.blocks[block - 1].attention.query_layer.bias is not None
    config = PlaygroundConfig(
        heads=loaded.heads, head_dim=loaded.head_dim, input_dim=loaded.embedding_dim, tokenizer="char", qkv_bias=bias
    )
    result = PlaygroundTrace(
        tokens=list(traced.text_used), labels=traced.labels, total_tokens=len(traced.text_used) + traced.cut,
        config=config, trace=layer,
    )  # fmt: skip
    return _model_view(result, loaded.key, identity=(loaded.key, loaded.serial, text, block)), traced


def _trained_view(values: dict, loaded: models.LoadedModel, lang: str) -> tuple[View, str] | None:
    computed = _readable(values, lang, lambda text: compute_trained(text, loaded, values["block"]))
    if computed is None:
        return None
    view, traced = computed
    if traced.left_out:
        shown = " ".join(display_labels(list(traced.left_out)))
        st.warning(t("pg.left_out", lang, chars=literal(shown), count=len(traced.left_out)), icon=":material/block:")
    if traced.cut:
        st.warning(
            t("pg.context_cut", lang, context=loaded.context_length, cut=traced.cut), icon=":material/content_cut:"
        )
    return view, values["text"]  # the link keeps the student's text: what the model leaves out is noted above


REAL_MEMO_STATE = "pg_real_memo"


def compute_real(text: str, loaded: real_models.RealLoaded, layer: int) -> tuple[View, object]:
    """A real model's attention for ``text`` in one layer, the trace shared by every session
    (ui/shared/real_models.py), the layer's stages rebuilt once per (model, text, layer)."""
    traced = real_models.trace(loaded, text)
    key = (loaded.key, text, layer)
    memo = st.session_state.get(REAL_MEMO_STATE)
    if memo is not None and memo[0] == key:
        return memo[1], traced
    trace = traced.layers[layer - 1]
    result = PlaygroundTrace(
        tokens=traced.tokens, labels=traced.labels, total_tokens=len(traced.pieces) + traced.cut,
        config=loaded.description.layer_config(), trace=trace,  # type: ignore[arg-type]
    )  # fmt: skip
    view = _model_view(result, loaded.key, loaded.description.kv_heads, identity=key)
    st.session_state[REAL_MEMO_STATE] = (key, view)
    return view, traced


def _real_view(values: dict, loaded: real_models.RealLoaded, lang: str) -> tuple[View, str] | None:
    # A text no session has put through the model yet is heavy: in the lane (ui/shared/lanes.py).
    heavy = not real_models.is_traced(loaded, values["text"])
    with heavy_turn(lang) if heavy else nullcontext():
        computed = _readable(values, lang, lambda text: compute_real(text, loaded, values["block"]))
    if computed is None:
        return None
    view, traced = computed
    if traced.cut:
        st.warning(t("real.cut", lang, tokens=len(traced.pieces), cut=traced.cut), icon=":material/content_cut:")
    st.caption(t("real.tokens_note", lang, name=loaded.key))
    return view, values["text"]  # the student's text (a cut beyond the model's limit is noted above)


def _sync_focus(view: View, text: str) -> None:
    """Keep the chosen head and cell inside the computed view. A new text resets the cell (it
    named positions of the old one's tokens); another model or tokenizer on the same text
    keeps it where it still exists."""
    ss = st.session_state
    T = len(view.result.tokens)
    if ss.get(TEXT_STATE, text) != text:
        ss[widget_key("row")], ss[widget_key("col")] = state.LAST_ROW, 0  # the last query sees every key
    ss[TEXT_STATE] = text
    ss[widget_key("head")] = min(ss[widget_key("head")], view.result.config.heads)
    ss[widget_key("col")] = min(ss[widget_key("col")], T - 1)
    if ss[widget_key("row")] == state.LAST_ROW or ss[widget_key("row")] >= T:
        ss[widget_key("row")] = T - 1


def _computed_view(values: dict, lang: str, loaded) -> tuple[View, str] | None:
    """The view for the controls' values and the text it used, or None after a message."""
    if isinstance(loaded, real_models.RealLoaded):
        return _real_view(values, loaded, lang)
    if loaded is not None:
        return _trained_view(values, loaded, lang)
    if weights_key() != state.RANDOM_WEIGHTS:  # a real model that could not be loaded: its message is shown
        write_url(values, None)
        return None
    return _readable(values, lang, lambda text: _random_view(text, state.config_of(values)))


def _random_view(text: str, config: PlaygroundConfig) -> tuple[View, str]:
    text_used = truncate_text(text, config.tokenizer, MAX_TOKENS)
    return compute(text_used, config), text_used


def _apply_click(payload: object, view: View) -> None:
    """A clicked cell chooses the query row and key column; in the overview, the head too."""
    config = view.result.config
    click = parse_click(payload, set(CLICK_CHARTS.values()), len(view.result.tokens), config.heads)
    if click is None:
        return
    ss = st.session_state
    ss[widget_key("row")], ss[widget_key("col")] = click.row, click.col
    if click.chart == "overview" and click.head is not None:
        ss[widget_key("head")] = click.head + 1


TABS_KEY = "pg_tab"


def _below(view: View, query: dict[str, str], text: str, lang: str) -> None:
    """Below the first screen: one head stage by stage (its hover linked by the page's chart
    events) and the tabs, of which only the open one is drawn (ui/lazy_tabs.py). A view that
    fails says so in its place (ui/contained.py); the rest of the page stays."""
    with contained(t("pg.detail_title", lang), lang):
        views.detail(view, lang)
    open_tab, tabs = lazy_tabs(state.VIEWS, TABS_KEY, lang, "pg.tab", chosen=PAGE.get("view"),
                               on_choose=lambda name: PAGE.set("view", name))  # fmt: skip
    with tabs[open_tab], contained(t(f"pg.tab.{open_tab}", lang), lang):
        if open_tab == "softmax":
            views.softmax_calculator(view, lang)
        elif open_tab == "shapes":
            views.shapes(view, lang)
        elif open_tab == "stats":
            views.statistics(view, lang)
        elif open_tab == "qk":
            combined_view.qk(view, lang)
        elif open_tab == "combined":
            combined_view.combined(view, lang)
        elif open_tab == "token":
            token_view.token_view(view, text, lang)
        else:
            views.share(view, query, text, lang)


def render() -> None:
    lang = setup_page(PAGE_KEY)
    first_screen = is_first_screen(PAGE_KEY)
    page_title(PAGE_KEY, lang)
    st.caption(t("page.playground.blurb", lang))
    restore_controls()
    resolve_weights()
    if compare.toggle(lang):  # two set-ups side by side (ui/playground/compare.py)
        compare.render(lang, first_screen)
        return
    notes_slot = st.container()  # filled once the values are read: a changed number makes the notes old news
    # The first screen at 1366×768: the controls in a column beside all heads' chart.
    controls_col, chart_col = st.columns([views.CONTROLS_SHARE, views.CHART_SHARE], gap="medium")
    with controls_col:
        loaded = draw_controls(lang)
    values = current_values()
    PAGE.settle(values, looking=LOOKING)
    with notes_slot:
        show_notes(lang)
    with chart_col:
        clicked = listen(CLICK_CHARTS, CLICKS_KEY)
        computed = _computed_view(values, lang, loaded)
        if computed is None:
            return
        view, text_used = computed
        _sync_focus(view, values["text"])
        _apply_click(clicked, view)
        values = current_values()
        PAGE.remember(values)
        query = write_url(values, text_used)
        config = view.result.config
        T = len(view.result.tokens)
        total = len(tokenize(values["text"], config.tokenizer)) if view.source == state.RANDOM_WEIGHTS else T
        if total > T:
            st.warning(t("pg.truncated", lang, total=total, shown=T), icon=":material/content_cut:")
        st.markdown(t("pg.tokens_line", lang, T=T, h=config.heads, d=config.head_dim, C=config.output_dim))
        views.overview(view, lang)
        if first_screen:
            ask_for_the_rest(PAGE_KEY)
            return
    _below(view, query, values["text"] if text_used is None else text_used, lang)
