"""What every figure shares: fonts sized for a classroom, and building a figure fast."""

from __future__ import annotations

import plotly.graph_objects as go

TITLE_FONT_SIZE = 18
FONT_SIZE = 15  # readable from the back of a classroom
TICK_FONT_SIZE = 14
COLORBAR_FONT_SIZE = 12
COLORBAR_THICKNESS_PX = 12
FONT_FAMILY = '"Source Sans", "Source Sans Pro", "Noto Sans CJK SC", sans-serif'  # Streamlit's own
TITLE_COLOR = "#222"
GRID_COLOR = "#eee"
BACKGROUND = "white"


def build_figure(traces: list[dict], layout: dict) -> go.Figure:
    """A Figure from plain dicts, without Plotly's per-property validation.

    Validation costs most of a rerun (tens of ms for a grid of heatmaps); the builders are
    validated once in the tests instead (tests/unit/test_figures.py rebuilds every figure
    with validation on).
    """
    return go.Figure(data=traces, layout=layout, _validate=False)
