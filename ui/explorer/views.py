"""The explorer's views of one trace: the grid of every head, one head stage by stage, the
lines, the metrics, the training snapshots and generation. Each reads the kept trace;
only generation computes (once per its settings, kept in the session)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
import streamlit as st
import torch

from figures import (
    ChartSize,
    generation_figure,
    grid_figure,
    head_detail_figure,
    heads_overview_figure,
    lines_figure,
    metric_figure,
)
from figures.export import export_name
from figures.generation import generation_window
from figures.lines import LINE_THRESHOLD, LINES_CUT, LINES_DRAWN, LINES_OUTSIDE, LINES_STRONGEST
from gpt_core import STAGES, display_labels, position_label
from gpt_core.attention import Trace
from gpt_core.explore import head_kind
from gpt_core.playground import MAX_SEED
from gpt_core.source import (
    INDUCTION_TOKENS,
    AttentionSource,
    Description,
    generate_with_attention,
    grid_fits,
    layer_metrics,
)
from gpt_core.window import Window, first_key, window_around
from string_table import t
from string_table.figure_words import figure_words

from ..charts import prepared, show_chart, sized_for_page, type_scale
from ..shared import sources
from ..shared.shared_cache import SharedResults
from ..window_map import window_map
from .layer_weights import LayerWeights
from .state import ALL_TOKENS, LINE_MODES, MAX_GENERATE, MAX_TEMPERATURE, METRICS

GRID_CHART_KEY = "ex_grid_chart"
WINDOW_MAP_KEY = "ex_window_map"
MAP_CHART_KEY = "ex_map_chart"
LAYER_CHART_KEY = "ex_layer_chart"
SCREEN_CHART_PX = 700  # a chart seen whole once scrolled to (the playground's too)
MAP_CELL_PX = 30  # the layer × head map's cells, at most
MAP_GRID_PX = 540  # and all its rows together, at most: the map within a screen, presenting too
DETAIL_CHART_KEY = "ex_detail_chart"
LINES_CHART_KEY = "ex_lines_chart"
METRIC_CHART_KEY = "ex_metric_chart"
TRAINING_CHART_KEY = "ex_training_chart"
GENERATION_CHART_KEY = "ex_generation_chart"
GENERATION_STATE = "ex_generation"  # (settings, steps): the last generation, kept
METRIC_DECIMALS = 3
TEMPERATURE_STEP = 0.1
LINES_WINDOW = 40  # a long text's lines: this many queries and keys, a row each, on one screen
LINES_SHARE = (3, 2)  # the lines figure's column and the space beside it
SHARED_NUMBER_ENTRIES = 128  # (model, prompt) weights and metrics kept for every session
SHARED_NUMBER_MB = 512  # and their memory: views of the kept traces (TRACES), a long text in a real model 150 MB


def has_map(view: ExplorerView) -> bool:
    """A model of more heads than one screen's grid holds (a real one: 12 layers × 12 heads)
    opens on a map of one number per head; a smaller one on the grid of every head."""
    return not grid_fits(view.about)


# Generations by (source, prompt, n, temperature, seed): the same for everyone.
SHARED_GENERATIONS: SharedResults[tuple] = SharedResults(max_entries=64)
# Every layer's weights and every head's metrics of a (source, prompt), for everyone.
SHARED_NUMBERS: SharedResults[tuple] = SharedResults(
    SHARED_NUMBER_ENTRIES, SHARED_NUMBER_MB * 2**20, lambda numbers: numbers[0].nbytes
)


@dataclass
class ExplorerView:
    """One trace and the head looked at (0-based), with the numbers every view reads."""

    source: AttentionSource
    trace: Trace
    block: int
    head: int
    identity: tuple = ()  # (the source's identity, prompt): the view's figures are shared under it (ui/charts.py)
    steps: tuple[int, ...] = ()  # the shipped model's training snapshots
    row: int = -1  # a long text: the query the window is centred on (-1: the last)
    col: int = -1  # and the key (-1: chosen with the row, gpt_core.window.first_key)
    weights: LayerWeights = field(init=False)  # (blocks, h, T, T) float32, read per layer
    metrics: list[dict[str, torch.Tensor]] = field(init=False)  # per block: metric -> (h,)

    def __post_init__(self) -> None:
        numbers = SHARED_NUMBERS.get(self.identity, self._numbers) if self.identity else self._numbers()
        self.weights, self.metrics = numbers

    def _numbers(self) -> tuple[LayerWeights, list[dict[str, torch.Tensor]]]:
        weights = LayerWeights([weights[0].numpy() for weights in self.trace.weights])
        return weights, layer_metrics(self.trace, sources.induction(self.source))

    @property
    def window(self) -> Window:
        """The queries and keys the views draw: all of a short text's, else a window around
        the chosen cell (``gpt_core.window``)."""
        return window_around(len(self.trace.labels), self.row, self.chosen_col)

    @property
    def chosen_row(self) -> int:
        return self.row if self.row >= 0 else len(self.trace.labels) - 1

    @property
    def chosen_col(self) -> int:
        return self.col if self.col >= 0 else first_key(len(self.trace.labels), self.chosen_row)

    @property
    def about(self) -> Description:
        """What the source is: its sizes, and what its layers are called."""
        return self.source.description

    def shared(self, *what) -> tuple | None:
        """The key under which every session shares one of this view's figures."""
        return (self.identity, *what) if self.identity else None

    def kind(self, block: int, head: int) -> str:
        return head_kind(self.metrics[block], head)


def read_notes(source: AttentionSource, trace: Trace, lang: str) -> None:
    """What the model did not read of the prompt (characters left out, text cut): above the
    first chart."""
    sources.show_notes([note for note in source.notes(trace) if note.level == "warning"], lang)


def model_lines(source: AttentionSource, trace: Trace, lang: str) -> None:
    """How the model reads (its remarks), its facts and its sizes: under the first chart, so
    that a long text's first screen holds the chart (a real model's facts and notes would push
    it below the screen)."""
    d = source.description
    sources.show_notes([note for note in source.notes(trace) if note.level != "warning"], lang)
    facts = sources.facts(source, lang)
    if facts:
        st.markdown(facts)
    gqa = sources.gqa_note(source, lang)
    if gqa:
        st.caption(gqa)
    values = dict(T=len(trace.labels), blocks=d.layers, heads=d.heads, d=d.head_dim, context=d.reads)
    st.markdown(t(f"ex.read_line.{source.words.token}", lang, **values))


def file_name(view: ExplorerView, kind: str, *words, **parts) -> str:
    """A chart's download name: what it shows, the model's name and the tokens' number."""
    return export_name(kind, view.about.name, *words, **parts, T=len(view.trace.labels))


def _metric_values(view: ExplorerView, metric: str) -> np.ndarray:
    return np.stack([block[metric].numpy() for block in view.metrics])  # (blocks, h)


def _entropy_limit(view: ExplorerView) -> float:
    T = len(view.trace.labels)
    return math.log(T) if T > 1 else 1.0


def map_cell_px(layers: int) -> float:
    """The layer × head map's cells: MAP_CELL_PX, smaller for a model of many layers so that
    the map stays on one screen (SmolLM2's 30 layers: 18 px)."""
    return min(MAP_CELL_PX, MAP_GRID_PX / max(layers, 1))


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
    figure = metric_figure(
        _metric_values(view, metric),
        metric,
        figure_words(lang),
        limit=_entropy_limit(view),
        size=ChartSize(scale=type_scale(), cell_px=map_cell_px(view.about.layers)),
        title=title,
        focus=(view.block, view.head),
        rows_word=f"ex.col.{view.source.words.unit}",
    )
    show_chart(figure, MAP_CHART_KEY, sized=True, file_name=file_name(view, "map", metric))
    st.caption(t("ex.map_help", lang, layers=view.about.layers, heads=view.about.heads))
    block_col, head_col, _ = st.columns([1, 1, 3])
    unit = view.source.words.unit
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
    st.subheader(t("ex.layer_heads_title", lang, layer=view.block + 1))
    figure = heads_overview_figure(
        view.weights[view.block],
        view.trace.labels,
        "weights",
        figure_words(lang),
        focus=view.head,
        window=view.window,
        size=sized_for_page(),
    )
    show_chart(figure, LAYER_CHART_KEY, sized=True, file_name=file_name(view, "layer", layer=view.block + 1))
    _window_map(view, lang)


def _window_map(view: ExplorerView, lang: str) -> None:
    """A long text: the chosen head's whole matrix, small, the window outlined."""
    if view.window.whole:
        return
    window_map(
        view.weights[view.block, view.head],
        view.window,
        view.head,
        view.chosen_row,
        lang,
        WINDOW_MAP_KEY,
        view.shared("window", view.block, view.head, view.window, type_scale()),
        file_name(view, "whole", block=view.block + 1, head=view.head + 1),
    )


def grid(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    if has_map(view):
        layer_map(view, lang, key)
        return
    block_col, head_col, _ = st.columns([1, 1, 3])
    unit = view.source.words.unit  # "block" or "layer": the keys ex.block, ex.block_n, ex.layer, ex.layer_n
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
    sized = sized_for_page()
    focus, window = (view.block, view.head), view.window
    words = figure_words(lang)
    # Its rows are blocks or layers: the grid's words for them.
    words = {**words, "ex.col.block": words[f"ex.col.{unit}"], "ex.grid_title": t(f"ex.grid_title.{unit}", lang)}
    show_chart(
        lambda: grid_figure(view.weights, view.trace.labels, words, focus=focus, window=window, size=sized),
        GRID_CHART_KEY,
        sized=True,
        share=view.shared("grid", focus, sized, window),
        file_name=file_name(view, "grid", block=view.block + 1, head=view.head + 1),
    )
    st.caption(t(f"ex.grid_help.{unit}", lang))
    _window_map(view, lang)


def detail(view: ExplorerView, lang: str) -> None:
    """The chosen head stage by stage: the playground's own renderer."""
    layer = view.trace.layers[view.block]
    kind = t(f"ex.kind.{view.kind(view.block, view.head)}", lang)
    st.subheader(
        t(f"ex.detail_title.{view.source.words.unit}", lang, block=view.block + 1, head=view.head + 1, kind=kind)
    )
    st.caption(t("ex.detail_help", lang))
    sized = replace(sized_for_page(), max_height_px=SCREEN_CHART_PX)

    window = view.window

    def build():
        stages = {stage: getattr(layer, stage)[0, view.head].numpy() for stage in STAGES}
        return head_detail_figure(
            stages,
            view.trace.labels,
            view.head,
            figure_words(lang),
            window=window,
            size=sized,
        )

    show_chart(
        build,
        DETAIL_CHART_KEY,
        sized=True,
        share=view.shared("detail", view.block, view.head, sized, window),
        file_name=file_name(view, "detail", block=view.block + 1, head=view.head + 1),
    )


def lines(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    labels = view.trace.labels
    unit = t(f"ex.col.{view.source.words.unit}", lang)
    mode_col, token_col = st.columns(2)
    mode_col.segmented_control(
        t("ex.lines_mode", lang),
        LINE_MODES,
        key=key("lines"),
        required=True,
        format_func=lambda mode: t(f"ex.lines_mode.{mode}", lang, unit=unit),
    )
    token_col.selectbox(
        t("ex.token", lang),
        [ALL_TOKENS, *range(len(labels))],
        key=key("token"),
        format_func=lambda i: t("ex.all_tokens", lang) if i == ALL_TOKENS else position_label(i, labels[i]),
    )
    mode, token = st.session_state[key("lines")], st.session_state[key("token")]
    heads = [view.head] if mode == "head" else list(range(view.about.heads))
    st.caption(t("ex.lines_help", lang, threshold=LINE_THRESHOLD))
    chosen, scale = None if token == ALL_TOKENS else token, type_scale()
    centre = view.chosen_row if chosen is None else chosen
    window = window_around(
        len(labels),
        centre,
        view.chosen_col if chosen is None else max(0, chosen - LINES_WINDOW // 2 + 1),
        size=LINES_WINDOW,
    )

    def build():
        return lines_figure(
            view.weights[view.block], labels, heads, figure_words(lang), token=chosen, scale=scale, window=window
        )

    drawn = prepared(build, sized=True, share=view.shared("lines", view.block, tuple(heads), chosen, scale, window))
    left_out = drawn.meta.get(LINES_OUTSIDE, 0) + drawn.meta.get(LINES_CUT, 0)
    if not window.whole:
        st.caption(
            t(
                "ex.lines_window",
                lang,
                q0=window.first_query,
                q1=window.first_query + window.size - 1,
                k0=window.first_key,
                k1=window.first_key + window.size - 1,
                T=window.tokens,
            )
        )
    if left_out:
        st.caption(
            t(
                "ex.lines_left_out",
                lang,
                n=left_out,
                outside=drawn.meta.get(LINES_OUTSIDE, 0),
                cut=drawn.meta.get(LINES_CUT, 0),
            )
        )
    if not drawn.meta.get(LINES_DRAWN, 1):  # an empty figure says why
        _no_lines(drawn.meta, lang)
    chart_col, _ = st.columns(LINES_SHARE)
    with chart_col:
        show_chart(
            drawn,
            LINES_CHART_KEY,
            file_name=file_name(
                view, "lines", block=view.block + 1, head=view.head + 1 if mode == "head" else "all", token=chosen
            ),
        )


def _no_lines(meta: dict, lang: str) -> None:
    """No weight of the queries shown reaches the threshold (a long text's weights spread
    thin over many keys): say so, with the largest, rather than an empty chart."""
    strongest = f"{meta.get(LINES_STRONGEST, 0.0):.3f}"
    st.info(t("ex.lines_none", lang, threshold=LINE_THRESHOLD, strongest=strongest), icon=":material/info:")


def metrics_table(view: ExplorerView, lang: str) -> pd.DataFrame:
    rows = []
    for block, values in enumerate(view.metrics):
        for head in range(view.about.heads):
            row = {
                t(f"ex.col.{view.source.words.unit}", lang): block + 1,
                t("ex.col.head", lang): head + 1,
                t("ex.col.kind", lang): t(f"ex.kind.{view.kind(block, head)}", lang),
            }
            row.update({t(f"ex.metric_short.{metric}", lang): float(values[metric][head]) for metric in METRICS})
            rows.append(row)
    return pd.DataFrame(rows)


def metrics(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    st.caption(t("ex.metrics_intro", lang))
    st.markdown(t("ex.kinds_help", lang))
    if not has_map(view):  # a real model's map, above, is this chart (its buttons choose the metric)
        st.segmented_control(
            t("ex.metric", lang),
            METRICS,
            key=key("metric"),
            required=True,
            format_func=lambda metric: t(f"ex.metric.{metric}", lang),
        )
    metric = st.session_state[key("metric")]
    T, limit = len(view.trace.labels), _entropy_limit(view)
    if not has_map(view):
        scale = type_scale()
        show_chart(
            lambda: metric_figure(
                _metric_values(view, metric), metric, figure_words(lang), limit=limit, size=ChartSize(scale=scale)
            ),
            METRIC_CHART_KEY,
            sized=True,
            share=view.shared("metric", metric, scale),
            file_name=file_name(view, "metric", metric),
        )
    if metric == "entropy":
        st.caption(t("ex.entropy_limit", lang, limit=f"{limit:.2f}", T=T))
    if metric == "induction":
        st.caption(t("ex.induction_help", lang, n=INDUCTION_TOKENS))
    table = metrics_table(view, lang)
    config = {
        t(f"ex.metric_short.{m}", lang): st.column_config.NumberColumn(format=f"%.{METRIC_DECIMALS}f") for m in METRICS
    }
    st.dataframe(table, hide_index=True, column_config=config, key="ex_metrics_table")


def training(view: ExplorerView, lang: str, key: Callable[[str], str], steps: tuple[int, ...]) -> None:
    if not steps:
        st.info(t("ex.no_snapshots", lang), icon=":material/history:")
        return
    st.caption(t("ex.training_intro", lang, heads=view.about.heads, block=view.block + 1))
    st.select_slider(t("ex.training_step", lang), steps, key=key("step"))
    step = st.session_state[key("step")]
    snapshot, prompt = view.source.snapshot(step)  # (blocks, h, T, T), the prompt it was taken on
    sized = sized_for_page()

    def build():
        return heads_overview_figure(
            snapshot[view.block],
            display_labels(list(prompt)),
            "weights",
            figure_words(lang),
            focus=view.head,
            size=sized,
        )

    # The same for every prompt: shared by the model's snapshot, not by the view.
    shared = ("snapshot", view.about.name, step, view.block, view.head, sized)
    show_chart(
        build,
        TRAINING_CHART_KEY,
        sized=True,
        share=shared,
        file_name=export_name("snapshot", view.about.name, step=step, block=view.block + 1, head=view.head + 1),
    )
    st.caption(t("ex.snapshot_prompt", lang))
    st.code(prompt, language=None)


def _generate(view: ExplorerView, n: int, temperature: float, seed: int) -> tuple[str, list, list, list]:
    """(the text with its continuation, the rows, the new tokens' labels, the contexts' labels)."""
    prompt = view.trace.text_used
    steps = generate_with_attention(view.source, prompt, n, temperature, seed)
    new = view.source.decode([step.token.token_id for step in steps])
    return (
        prompt + new,
        [step.rows for step in steps],
        [step.token.label for step in steps],
        [step.context for step in steps],
    )


def generation(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    if not view.source.capabilities.generates:
        st.info(t("ex.no_generation", lang), icon=":material/info:")
        return
    padding, vocab = view.about.padding, view.about.vocabulary
    if padding:  # its extra ids are never chosen (the source gives them no probability)
        st.info(t("odds.padded", lang, rows=vocab + padding, vocab=vocab, extra=padding), icon=":material/info:")
    st.caption(t(f"ex.generate_intro.{view.source.words.token}", lang))
    n_col, temp_col, seed_col = st.columns(3)
    n_col.slider(t("ex.generate_n", lang), 1, MAX_GENERATE, key=key("n"))
    temp_col.slider(t("ex.temperature", lang), 0.0, MAX_TEMPERATURE, step=TEMPERATURE_STEP, key=key("temp"))
    seed_col.number_input(t("ex.seed", lang), 0, MAX_SEED, step=1, key=key("seed"))
    ss = st.session_state
    n, temperature, seed = ss[key("n")], round(float(ss[key("temp")]), 2), int(ss[key("seed")])
    settings = (view.source.identity, view.trace.text_used, n, temperature, seed)
    kept = ss.get(GENERATION_STATE)
    if kept is None or kept[0] != settings:  # the same settings give every session the same text: made once
        kept = (settings, SHARED_GENERATIONS.get(settings, lambda: _generate(view, n, temperature, seed)))
        ss[GENERATION_STATE] = kept
    text, rows, chars, contexts = kept[1]
    st.caption(t("ex.generated_text", lang))
    st.code(text, language=None, wrap_lines=True)
    if not rows:
        return
    sized = sized_for_page()
    head_rows = [row[view.block, view.head].numpy() for row in rows]
    first = generation_window(max(len(row) for row in head_rows))
    if first:
        before = max(float(row[:first].sum()) for row in head_rows)
        st.caption(
            t(
                "ex.generation_window",
                lang,
                first=first,
                last=max(len(row) for row in head_rows) - 1,
                share=f"{before:.1%}",
            )
        )

    def build():
        return generation_figure(
            head_rows,
            chars,
            contexts,
            view.head,
            view.block,
            figure_words(lang),
            unit_word=f"ex.col.{view.source.words.unit}",
            size=sized,
        )

    shared = ("generation", settings, view.block, view.head, sized)
    show_chart(
        build,
        GENERATION_CHART_KEY,
        sized=True,
        share=shared,
        file_name=file_name(view, "generation", block=view.block + 1, head=view.head + 1, n=n, seed=seed),
    )
