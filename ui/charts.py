"""Drawing a built figure on any page, the same way everywhere."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

PLOTLY_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}
PRESENT_STATE = "presenting"  # ui/shell.py: presentation mode is on
PRESENT_FONT_SCALE = 1.35
PRESENT_HEIGHT_SCALE = 1.25


def enlarged(figure: go.Figure) -> go.Figure:
    """The figure for a projector: every font and the height scaled up."""
    layout = figure.layout
    font = layout.font.size or 12
    figure.update_layout(font_size=round(font * PRESENT_FONT_SCALE), hoverlabel_font_size=round(font * PRESENT_FONT_SCALE))
    if layout.title.font.size:
        figure.update_layout(title_font_size=round(layout.title.font.size * PRESENT_FONT_SCALE))
    if layout.height:
        figure.update_layout(height=round(layout.height * PRESENT_HEIGHT_SCALE))
    for annotation in layout.annotations or ():
        annotation.font.size = round((annotation.font.size or font) * PRESENT_FONT_SCALE)
    return figure


def type_scale() -> float:
    """How much larger type is on this page: presentation mode's, else 1."""
    return PRESENT_FONT_SCALE if st.session_state.get(PRESENT_STATE) else 1.0


def show_chart(figure: go.Figure, key: str, sized: bool = False) -> None:
    """Draw a figure exactly as built: our colours (theme=None), full width, a stable key;
    larger in presentation mode, unless the figure was ``sized`` for it by its builder."""
    if st.session_state.get(PRESENT_STATE) and not sized:
        figure = enlarged(figure)
    st.plotly_chart(figure, key=key, config=PLOTLY_CONFIG, width="stretch", theme=None)
