"""Drawing a built figure on any page, the same way everywhere."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from figures.sizing import DEFAULT_PRESENTING_WIDTH_PX, DEFAULT_WIDTH_PX

from .first_screen import main_width

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


def page_width() -> float:
    """The main column's width: as the browser reported it, else a classroom projector's."""
    return main_width() or (DEFAULT_PRESENTING_WIDTH_PX if st.session_state.get(PRESENT_STATE) else DEFAULT_WIDTH_PX)


def sized_for_page() -> dict:
    """The attention figures' size arguments for this page: its width and type scale."""
    return {"width_px": page_width(), "scale": type_scale()}


def show_chart(figure: go.Figure, key: str, sized: bool = False) -> None:
    """Draw a figure exactly as built: our colours (theme=None), full width, a stable key;
    larger in presentation mode, unless the figure was ``sized`` for it by its builder."""
    if st.session_state.get(PRESENT_STATE) and not sized:
        figure = enlarged(figure)
    st.plotly_chart(figure, key=key, config=PLOTLY_CONFIG, width="stretch", theme=None)
