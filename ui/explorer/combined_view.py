"""The explorer's heads and layers combined: the chosen block's heads averaged, or attention
rollout through every block (Abnar & Zuidema, 2020), with what rollout assumes."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from figures.combined import combined_figure
from gpt_core.explore import attention_rollout, mean_over_heads
from string_table import t
from string_table.figure_words import figure_words

from ..charts import show_chart, sized_for_page
from .state import COMBINE_KINDS
from .views import ExplorerView, file_name

COMBINED_CHART_KEY = "ex_combined_chart"


def combined(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    """A choice (in the link: ``combine``) of the chosen block's mean over heads or the
    rollout through all blocks, one T × T heatmap, and a note on what rollout assumes."""
    unit, units = t(f"ex.col.{view.source.words.unit}", lang), t(f"cb.{view.source.words.unit}s", lang)
    st.segmented_control(
        t("ex.combine", lang),
        COMBINE_KINDS,
        key=key("combine"),
        required=True,
        format_func=lambda kind: t(f"ex.combine.{kind}", lang, unit=unit, units=units),
    )
    kind = st.session_state[key("combine")]
    blocks, heads = view.weights.shape[:2]
    if kind == "mean":
        title = t(
            "ex.combined_mean_title",
            lang,
            heads=heads,
            where=t(f"ex.{view.source.words.unit}_n", lang, n=view.block + 1),
        )
        which = view.block
    else:
        title = t("ex.combined_rollout_title", lang, blocks=blocks, units=units)
        which = None
    sized = sized_for_page()

    def build():
        weights = view.weights
        matrix = mean_over_heads([weights[which]])[0] if kind == "mean" else attention_rollout(list(weights))
        return combined_figure(
            matrix.numpy(), view.trace.labels, kind, figure_words(lang), title=title, window=window, size=sized
        )

    window = view.window
    show_chart(
        build,
        COMBINED_CHART_KEY,
        sized=True,
        share=view.shared("combined", kind, which, sized, window),
        file_name=file_name(view, kind, block=view.block + 1 if kind == "mean" else None),
    )
    st.caption(t("ex.combined_help", lang, unit=unit))
    st.markdown(t("cb.rollout_note", lang))
