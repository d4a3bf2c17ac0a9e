"""The explorer's metrics: every head's number (entropy, previous token, first token,
induction) as a chart of blocks × heads and a table, with each head's kind."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from figures import ChartSize, metric_figure
from gpt_core.source import INDUCTION_TOKENS
from links.explorer import METRICS
from string_table import t
from string_table.figure_words import figure_words

from ..charts import show_chart, type_scale
from .views import METRIC_CHART_KEY, ExplorerView, entropy_limit, has_map, metric_values

METRIC_DECIMALS = 3


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
    T, limit = len(view.trace.labels), entropy_limit(view)
    if not has_map(view):
        scale = type_scale()
        show_chart(
            lambda: metric_figure(
                metric_values(view, metric), metric, figure_words(lang), limit=limit, size=ChartSize(scale=scale)
            ),
            METRIC_CHART_KEY,
            sized=True,
            share=view.shared("metric", metric, scale),
            file_name=view.file_name("metric", metric),
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
