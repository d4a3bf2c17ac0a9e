"""The explorer's training snapshots: the shipped model's chosen block's heads at a kept
step of its training, on the prompt they were taken on."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from figures import heads_overview_figure
from figures.export import export_name
from gpt_core import display_labels
from string_table import t
from string_table.figure_words import figure_words

from ..charts import show_chart, sized_for_page
from .views import TRAINING_CHART_KEY, ExplorerView


def training(view: ExplorerView, lang: str, key: Callable[[str], str], steps: tuple[int, ...]) -> None:
    if not steps:
        st.info(t("ex.no_snapshots", lang), icon=":material/history:")
        return
    st.caption(t("ex.training_intro", lang, heads=view.about.heads, block=view.layer + 1))
    st.select_slider(t("ex.training_step", lang), steps, key=key("step"))
    step = st.session_state[key("step")]
    snapshot, prompt = view.source.snapshot(step)  # (blocks, h, T, T), the prompt it was taken on
    sized = sized_for_page()

    def build():
        return heads_overview_figure(
            snapshot[view.layer],
            display_labels(list(prompt)),
            "weights",
            figure_words(lang),
            focus=view.head,
            size=sized,
        )

    # The same for every prompt: shared by the model's snapshot, not by the view.
    shared = ("snapshot", view.about.name, step, view.layer, view.head, sized)
    show_chart(
        build,
        TRAINING_CHART_KEY,
        sized=True,
        share=shared,
        file_name=export_name("snapshot", view.about.name, step=step, block=view.layer + 1, head=view.head + 1),
    )
    st.caption(t("ex.snapshot_prompt", lang))
    st.code(prompt, language=None)
