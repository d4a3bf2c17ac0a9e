"""The explorer's generation with the key/value cache (view=cache): a short generation stepped
through, each step's new query row against the growing cache in every head, the cache's
shape and bytes after the step against what a full recompute costs, and beside it the whole
causal matrix of the same tokens with the new row outlined, so the equality is seen.

The numbers are gpt_core's (the source's ``generate_cached``); a generation is computed once
for every session showing the same (model, prompt, steps, temperature, seed), kept with its
weights and its cache's shapes (its keys and values are not drawn, so not kept)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import streamlit as st
import torch

from figures import heads_overview_figure, token_view_figure
from gpt_core import InputError
from gpt_core.kv_cache import CachedGeneration, CacheStep
from gpt_core.playground import MAX_SEED
from gpt_core.window import first_key, window_around
from links.explorer import MAX_CACHE_N, MAX_TEMPERATURE
from string_table import error_text, t
from string_table.figure_words import figure_words

from ..charts import show_chart, sized_for_page
from ..markdown import literal
from ..shared.token_strip import token_window
from ..views.token_view import MAX_PANELS
from .generation import SHARED_GENERATIONS, TEMPERATURE_STEP
from .views import ExplorerView

ROW_CHART_KEY = "ex_cache_row_chart"
MATRIX_CHART_KEY = "ex_cache_matrix_chart"
KIB = 1024


def _shape_of(tensor: torch.Tensor) -> torch.Tensor:
    return torch.empty(tensor.shape, dtype=tensor.dtype, device="meta")


def _shapes_only(generation: CachedGeneration) -> CachedGeneration:
    """``generation`` with its cache's keys and values as shapes (meta tensors, no numbers):
    the view draws their shapes and every step's weights, and keeps many generations."""

    def light(step: CacheStep) -> CacheStep:
        layers = tuple(
            replace(layer, keys=_shape_of(layer.keys), values=_shape_of(layer.values)) for layer in step.layers
        )
        return replace(step, layers=layers)

    return replace(generation, steps=tuple(light(step) for step in generation.steps))


def cached_generation(view: ExplorerView, n: int, temperature: float, seed: int) -> CachedGeneration:
    """The prompt's generation with the cache, computed once for everyone."""
    prompt = view.trace.text_used
    settings = ("cache", view.source.identity, prompt, n, temperature, seed)

    def compute() -> CachedGeneration:
        return _shapes_only(view.source.generate_cached(prompt, n, temperature=temperature, seed=seed))

    return SHARED_GENERATIONS.get(settings, compute)


def size_text(count: int) -> str:
    """A number of bytes as a page shows it: B, KiB or MiB."""
    if count < KIB:
        return f"{count} B"
    if count < KIB * KIB:
        return f"{count / KIB:.1f} KiB"
    return f"{count / KIB / KIB:.1f} MiB"


def _controls(lang: str, key: Callable[[str], str]) -> tuple[int, float, int]:
    n_col, temp_col, seed_col = st.columns(3)
    n_col.slider(t("cache.n", lang), 1, MAX_CACHE_N, key=key("cache_n"))
    temp_col.slider(t("ex.temperature", lang), 0.0, MAX_TEMPERATURE, step=TEMPERATURE_STEP, key=key("temp"))
    seed_col.number_input(t("ex.seed", lang), 0, MAX_SEED, step=1, key=key("seed"))
    ss = st.session_state
    return int(ss[key("cache_n")]), round(float(ss[key("temp")]), 2), int(ss[key("seed")])


def _choose_step(generation: CachedGeneration, n: int, lang: str, key: Callable[[str], str]) -> int:
    """The step widget, inside the steps there are (a full context stops a generation early)."""
    last = len(generation.steps) - 1
    step_key = key("cache_step")
    if (st.session_state.get(step_key) or 0) > last:  # the link's step, past where the context stopped it
        st.session_state[step_key] = last
        st.rerun()  # the link is written again with the step shown
    if last > 0:  # a slider needs two ends; one step is shown without one
        st.slider(t("cache.step", lang), 0, last, key=step_key, help=t("cache.step_help", lang))
    if last < n - 1:
        st.caption(t("cache.full", lang, last=last))
    return int(st.session_state.get(step_key) or 0)


def cache(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    """The cache tab."""
    if not view.source.capabilities.generates:
        st.info(t("ex.no_generation", lang), icon=":material/info:")
        return
    st.caption(t("cache.intro", lang))
    n, temperature, seed = _controls(lang, key)
    try:
        generation = cached_generation(view, n, temperature, seed)
    except InputError as error:
        st.error(error_text(error, lang))
        return
    if not generation.steps:
        st.info(t("cache.full", lang, last=0), icon=":material/info:")
        return
    _room_note(view, generation, n, lang)
    index = _choose_step(generation, n, lang, key)
    step = generation.steps[index]
    _step_lines(view, generation, index, lang)
    _cost_lines(view, generation, step, lang)
    settings = (n, temperature, seed, index)
    _row_chart(view, generation, step, settings, lang)
    _matrix_chart(view, generation, index, settings, lang)


def _room_note(view: ExplorerView, generation: CachedGeneration, n: int, lang: str) -> None:
    """Where the prompt the other views show is longer than the cache can keep with room for
    the steps, what the generation read of it."""
    kept, shown = len(generation.prompt_ids), len(view.trace.labels)
    if kept < shown:
        st.caption(t("cache.cut", lang, kept=kept, shown=shown, context=view.about.reads, n=n))


def _step_lines(view: ExplorerView, generation: CachedGeneration, index: int, lang: str) -> None:
    step = generation.steps[index]
    last = len(generation.steps) - 1
    query_label = generation.labels[step.position]
    values = dict(step=index, last=last, position=step.position, t=step.length)
    st.markdown(t("cache.step_line", lang, **values, label=literal(query_label), token=literal(step.label)))
    st.caption(t("cache.text", lang))
    text = view.source.decode(list(generation.token_ids[: step.length + 1]))
    st.code(text, language=None, wrap_lines=True)


def _cost_lines(view: ExplorerView, generation: CachedGeneration, step: CacheStep, lang: str) -> None:
    cost, length = generation.cost, step.length
    per_token, units = size_text(cost.bytes_per_token), t(f"cb.{view.unit}s", lang)
    shape = dict(kv_heads=cost.kv_heads, t=length, d=cost.head_dim, layers=cost.layers, units=units)
    st.markdown(t("cache.shape", lang, **shape, bytes=size_text(cost.cache_bytes(length)), per_token=per_token))
    if cost.kv_heads < cost.heads:
        ungrouped = size_text(cost.bytes_per_token_ungrouped)
        st.markdown(
            t("cache.grouped", lang, heads=cost.heads, kv_heads=cost.kv_heads, per_token=per_token, ungrouped=ungrouped)
        )
    new, full = cost.vectors(step.new), cost.vectors(length)
    st.markdown(t("cache.cost", lang, new=new, positions=step.new, t=length, full=full))


def _row_chart(view: ExplorerView, generation: CachedGeneration, step: CacheStep, settings: tuple, lang: str) -> None:
    """The new query's row in every head of every layer (the chosen layer's only when they
    would not fit one chart), over the keys in the cache."""
    rows = torch.stack([layer.weights for layer in step.layers]).numpy()  # (layers, h, t)
    first = 0
    if rows.shape[0] * rows.shape[1] > MAX_PANELS:
        first, rows = view.layer, rows[view.layer : view.layer + 1]
        st.caption(t("cache.one_layer", lang, unit=t(f"ex.col.{view.unit}", lang), layer=view.layer + 1))
    position, labels = step.position, generation.labels[: step.length]
    sized, words, window = sized_for_page(), figure_words(lang), token_window(step.length, position, lang)

    def build():
        return token_view_figure(
            rows,
            rows * 0,
            position,
            labels,
            words,
            direction="reads",
            layer_word=f"ex.col.{view.unit}",
            first_layer=first,
            window=window,
            size=sized,
        )

    show_chart(
        build,
        ROW_CHART_KEY,
        sized=True,
        share=view.shared("cache_row", *settings, first, sized),
        file_name=view.file_name("cache_row", step=settings[-1]),
    )
    st.caption(t("cache.row_help", lang, t=step.length))


def _matrix_chart(view: ExplorerView, generation: CachedGeneration, index: int, settings: tuple, lang: str) -> None:
    """The chosen layer's full causal matrix of the same tokens, this step's row outlined."""
    length = generation.steps[index].length
    matrices = generation.cached_matrix(index, view.layer).numpy()
    labels, query = generation.labels[:length], length - 1
    window = window_around(length, query, first_key(length, query))
    unit, layer = t(f"ex.col.{view.unit}", lang), view.layer + 1
    title = t("cache.matrix_title", lang, t=length, unit=unit, layer=layer)
    sized, words = sized_for_page(), figure_words(lang)

    def build():
        return heads_overview_figure(
            matrices,
            labels,
            "weights",
            words,
            focus=view.head,
            title=title,
            window=window,
            size=sized,
            outline_row=query,
        )

    show_chart(
        build,
        MATRIX_CHART_KEY,
        sized=True,
        share=view.shared("cache_matrix", *settings, view.layer, view.head, sized),
        file_name=view.file_name("cache_matrix", block=layer, step=settings[-1]),
    )
    st.caption(t("cache.matrix_help", lang, t=length))
