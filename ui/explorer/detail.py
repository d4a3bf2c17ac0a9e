"""The explorer's chosen head stage by stage: the playground's own figure."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from figures import head_detail_figure
from gpt_core import STAGES
from string_table import t
from string_table.figure_words import figure_words

from ..charts import show_chart, sized_for_page
from ..views.model import SCREEN_CHART_PX
from .views import DETAIL_CHART_KEY, ExplorerView


def detail(view: ExplorerView, lang: str) -> None:
    """The chosen head stage by stage: the playground's own renderer."""
    layer = view.trace.layers[view.layer]
    kind = t(f"ex.kind.{view.kind(view.layer, view.head)}", lang)
    st.subheader(
        t(f"ex.detail_title.{view.source.words.unit}", lang, block=view.layer + 1, head=view.head + 1, kind=kind)
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
        share=view.shared("detail", view.layer, view.head, sized, window),
        file_name=view.file_name("detail", block=view.layer + 1, head=view.head + 1),
    )
