"""The explorer's views of one trace: the grid of every head, one head stage by stage, the
lines, the metrics, the training snapshots and generation. Each reads the kept trace;
only generation computes (once per its settings, kept in the session)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import streamlit as st
import torch

from figures import (
    generation_figure,
    grid_figure,
    head_detail_figure,
    heads_overview_figure,
    lines_figure,
    metric_figure,
)
from figures.lines import LINE_THRESHOLD
from gpt_core import STAGES, display_label, display_labels, position_label
from gpt_core.explore import ModelTrace, generate_with_attention, head_kind, head_metrics
from gpt_core.playground import MAX_SEED

from ..charts import show_chart, sized_for_page, type_scale
from ..figure_text import figure_words
from ..markdown import literal
from ..shared.models import LoadedModel
from ..shared.resources import shipped_experiment, shipped_snapshots
from ..strings import t
from .state import ALL_TOKENS, LINE_MODES, MAX_GENERATE, MAX_TEMPERATURE, METRICS

GRID_CHART_KEY = "ex_grid_chart"
DETAIL_CHART_KEY = "ex_detail_chart"
LINES_CHART_KEY = "ex_lines_chart"
METRIC_CHART_KEY = "ex_metric_chart"
TRAINING_CHART_KEY = "ex_training_chart"
GENERATION_CHART_KEY = "ex_generation_chart"
GENERATION_STATE = "ex_generation"  # (settings, steps): the last generation, kept
METRIC_DECIMALS = 3
TEMPERATURE_STEP = 0.1
LINES_SHARE = (3, 2)  # the lines figure's column and the space beside it


@dataclass
class ExplorerView:
    """One trace and the head looked at (0-based), with the numbers every view reads."""

    loaded: LoadedModel
    trace: ModelTrace
    block: int
    head: int
    weights: np.ndarray = field(init=False)  # (blocks, h, T, T) float32
    metrics: list[dict[str, torch.Tensor]] = field(init=False)  # per block: metric -> (h,)

    def __post_init__(self) -> None:
        self.weights = np.stack([layer.weights[0].numpy() for layer in self.trace.layers])
        self.metrics = [head_metrics(layer.weights[0]) for layer in self.trace.layers]

    def kind(self, block: int, head: int) -> str:
        return head_kind(self.metrics[block], head)


def _chars(chars: tuple[str, ...], lang: str) -> str:
    return t("list_sep", lang).join(f"“{literal(display_label(char))}”" for char in chars)


def read_notes(loaded: LoadedModel, trace: ModelTrace, lang: str) -> None:
    """What the model read of the prompt: characters left out, text cut, the sizes."""
    if trace.left_out:
        st.warning(t("ex.left_out", lang, chars=_chars(trace.left_out, lang)), icon=":material/block:")
    if trace.cut:
        st.info(t("ex.cut", lang, context=loaded.context_length, cut=trace.cut), icon=":material/content_cut:")
    st.markdown(
        t("ex.read_line", lang, T=len(trace.labels), blocks=loaded.blocks, heads=loaded.heads, d=loaded.head_dim,
          context=loaded.context_length)
    )  # fmt: skip


def grid(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    block_col, head_col, _ = st.columns([1, 1, 3])
    block_col.selectbox(t("ex.block", lang), list(range(1, view.loaded.blocks + 1)), key=key("block"),
                        format_func=lambda n: t("ex.block_n", lang, n=n))  # fmt: skip
    head_col.selectbox(t("ex.head", lang), list(range(1, view.loaded.heads + 1)), key=key("head"),
                       format_func=lambda n: t("ex.head_n", lang, n=n))  # fmt: skip
    figure = grid_figure(view.weights, view.trace.labels, figure_words(lang), focus=(view.block, view.head),
                         **sized_for_page())  # fmt: skip
    show_chart(figure, GRID_CHART_KEY, sized=True)
    st.caption(t("ex.grid_help", lang))


def detail(view: ExplorerView, lang: str) -> None:
    """The chosen head stage by stage: the playground's own renderer."""
    layer = view.trace.layers[view.block]
    kind = t(f"ex.kind.{view.kind(view.block, view.head)}", lang)
    st.subheader(t("ex.detail_title", lang, block=view.block + 1, head=view.head + 1, kind=kind))
    st.caption(t("ex.detail_help", lang))
    stages = {stage: getattr(layer, stage)[0, view.head].numpy() for stage in STAGES}
    figure = head_detail_figure(stages, view.trace.labels, view.head, figure_words(lang), **sized_for_page())
    show_chart(figure, DETAIL_CHART_KEY, sized=True)


def lines(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    labels = view.trace.labels
    mode_col, token_col = st.columns(2)
    mode_col.segmented_control(t("ex.lines_mode", lang), LINE_MODES, key=key("lines"), required=True,
                               format_func=lambda mode: t(f"ex.lines_mode.{mode}", lang))  # fmt: skip
    token_col.selectbox(t("ex.token", lang), [ALL_TOKENS, *range(len(labels))], key=key("token"),
                        format_func=lambda i: t("ex.all_tokens", lang) if i == ALL_TOKENS else position_label(i, labels[i]))  # fmt: skip
    mode, token = st.session_state[key("lines")], st.session_state[key("token")]
    heads = [view.head] if mode == "head" else list(range(view.loaded.heads))
    st.caption(t("ex.lines_help", lang, threshold=LINE_THRESHOLD))
    figure = lines_figure(view.weights[view.block], labels, heads, figure_words(lang),
                          token=None if token == ALL_TOKENS else token, scale=type_scale())  # fmt: skip
    chart_col, _ = st.columns(LINES_SHARE)
    with chart_col:
        show_chart(figure, LINES_CHART_KEY, sized=True)


def metrics_table(view: ExplorerView, lang: str) -> pd.DataFrame:
    rows = []
    for block, values in enumerate(view.metrics):
        for head in range(view.loaded.heads):
            row = {t("ex.col.block", lang): block + 1, t("ex.col.head", lang): head + 1,
                   t("ex.col.kind", lang): t(f"ex.kind.{view.kind(block, head)}", lang)}  # fmt: skip
            row.update({t(f"ex.metric_short.{metric}", lang): float(values[metric][head]) for metric in METRICS})
            rows.append(row)
    return pd.DataFrame(rows)


def metrics(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    st.caption(t("ex.metrics_intro", lang))
    st.markdown(t("ex.kinds_help", lang))
    st.segmented_control(t("ex.metric", lang), METRICS, key=key("metric"), required=True,
                         format_func=lambda metric: t(f"ex.metric.{metric}", lang))  # fmt: skip
    metric = st.session_state[key("metric")]
    values = np.stack([block[metric].numpy() for block in view.metrics])  # (blocks, h)
    T = len(view.trace.labels)
    limit = math.log(T) if T > 1 else 1.0
    show_chart(metric_figure(values, metric, figure_words(lang), limit=limit, scale=type_scale()),
               METRIC_CHART_KEY, sized=True)  # fmt: skip
    if metric == "entropy":
        st.caption(t("ex.entropy_limit", lang, limit=f"{limit:.2f}", T=T))
    table = metrics_table(view, lang)
    config = {t(f"ex.metric_short.{m}", lang): st.column_config.NumberColumn(format=f"%.{METRIC_DECIMALS}f")
              for m in METRICS}  # fmt: skip
    st.dataframe(table, hide_index=True, column_config=config, key="ex_metrics_table")


def training(view: ExplorerView, lang: str, key: Callable[[str], str], steps: tuple[int, ...]) -> None:
    if not steps:
        st.info(t("ex.no_snapshots", lang), icon=":material/history:")
        return
    st.caption(t("ex.training_intro", lang, heads=view.loaded.heads, block=view.block + 1))
    st.select_slider(t("ex.training_step", lang), steps, key=key("step"))
    snapshot = shipped_snapshots(view.loaded.heads)[st.session_state[key("step")]]  # (blocks, h, T, T)
    T = snapshot.shape[-1]
    prompt = shipped_experiment().snapshot_prompt[:T]
    figure = heads_overview_figure(snapshot[view.block], display_labels(list(prompt)), "weights",
                                   figure_words(lang), focus=view.head, **sized_for_page())  # fmt: skip
    show_chart(figure, TRAINING_CHART_KEY, sized=True)
    st.caption(t("ex.snapshot_prompt", lang))
    st.code(prompt, language=None)


def generation(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    st.caption(t("ex.generate_intro", lang))
    n_col, temp_col, seed_col = st.columns(3)
    n_col.slider(t("ex.generate_n", lang), 1, MAX_GENERATE, key=key("n"))
    temp_col.slider(t("ex.temperature", lang), 0.0, MAX_TEMPERATURE, step=TEMPERATURE_STEP, key=key("temp"))
    seed_col.number_input(t("ex.seed", lang), 0, MAX_SEED, step=1, key=key("seed"))
    ss = st.session_state
    n, temperature, seed = ss[key("n")], round(float(ss[key("temp")]), 2), int(ss[key("seed")])
    prompt = view.trace.text_used
    settings = (view.loaded.key, id(view.loaded.model), prompt, n, temperature, seed)
    kept = ss.get(GENERATION_STATE)
    if kept is None or kept[0] != settings:
        kept = (
            settings,
            generate_with_attention(view.loaded.model, view.loaded.vocabulary, prompt, n, temperature, seed),
        )
        ss[GENERATION_STATE] = kept
    steps = kept[1]
    st.caption(t("ex.generated_text", lang))
    st.code(prompt + "".join(step.char for step in steps), language=None, wrap_lines=True)
    rows = [step.rows[view.block, view.head].numpy() for step in steps]
    figure = generation_figure(rows, [step.char for step in steps], [step.context for step in steps], view.head,
                               view.block, figure_words(lang), **sized_for_page())  # fmt: skip
    show_chart(figure, GENERATION_CHART_KEY, sized=True)
