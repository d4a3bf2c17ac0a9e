"""Drawing a built figure on any page, the same way everywhere."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

PLOTLY_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}


def show_chart(figure: go.Figure, key: str) -> None:
    """Draw a figure exactly as built: our colours (theme=None), full width, a stable key."""
    st.plotly_chart(figure, key=key, config=PLOTLY_CONFIG, width="stretch", theme=None)
