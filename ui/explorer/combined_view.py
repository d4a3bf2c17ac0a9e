"""The explorer's heads and layers combined (``ui.views.combined_view``): a choice of the
chosen block's mean over heads or the rollout through every block, with what rollout assumes."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from links.explorer import COMBINE_KINDS
from string_table import t

from ..contained import contained_part
from ..views.combined_view import combined_chart, units
from ..views.held import Held, in_part
from .views import ExplorerView

COMBINED_CHART_KEY = "ex_combined_chart"


def combined(view: ExplorerView, lang: str, key: Callable[[str], str], keep: Callable[[str], None]) -> None:
    """A choice (in the link: ``combine``) of the chosen block's mean over heads or the
    rollout through all blocks, one T × T heatmap, and a note on what rollout assumes.
    ``keep``: remembers a parameter and puts it in the link after this part reran alone."""
    _combined_part(Held(view, view.weights.nbytes), lang, key, keep)


@st.fragment  # the choice reruns this tab's chart only: nothing else on the page reads it
@contained_part("ex.tab.combined")
def _combined_part(held: Held[ExplorerView], lang: str, key: Callable[[str], str], keep: Callable[[str], None]) -> None:
    view = in_part(held)  # not the view itself: a part keeps its arguments (ui/views/held.py)
    unit = t(f"ex.col.{view.unit}", lang)
    # The words made here: a widget keeps its format function for the session, and with it
    # whatever that function reads (the view, were it read there).
    names = {kind: t(f"ex.combine.{kind}", lang, unit=unit, units=units(view, lang)) for kind in COMBINE_KINDS}
    st.segmented_control(
        t("ex.combine", lang),
        COMBINE_KINDS,
        key=key("combine"),
        required=True,
        format_func=names.__getitem__,
    )
    keep("combine")
    combined_chart(view, st.session_state[key("combine")], COMBINED_CHART_KEY, view.window, lang)
    st.caption(t("ex.combined_help", lang, unit=unit))
    st.markdown(t("cb.rollout_note", lang))
