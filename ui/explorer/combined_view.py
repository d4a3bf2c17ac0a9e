"""The explorer's heads and layers combined (``ui.views.combined_view``): a choice of the
chosen block's mean over heads or the rollout through every block, with what rollout assumes."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from links.explorer import COMBINE_KINDS
from string_table import t

from ..views.combined_view import combined_chart, units
from .views import ExplorerView

COMBINED_CHART_KEY = "ex_combined_chart"


def combined(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    """A choice (in the link: ``combine``) of the chosen block's mean over heads or the
    rollout through all blocks, one T × T heatmap, and a note on what rollout assumes."""
    unit = t(f"ex.col.{view.unit}", lang)
    st.segmented_control(
        t("ex.combine", lang),
        COMBINE_KINDS,
        key=key("combine"),
        required=True,
        format_func=lambda kind: t(f"ex.combine.{kind}", lang, unit=unit, units=units(view, lang)),
    )
    combined_chart(view, st.session_state[key("combine")], COMBINED_CHART_KEY, view.window, lang)
    st.caption(t("ex.combined_help", lang, unit=unit))
    st.markdown(t("cb.rollout_note", lang))
