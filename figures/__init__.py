"""Figure builders: arrays in, Plotly figures out. No Streamlit here.

One renderer per view, reused by every page that shows it.
"""

from .attention import (
    STAGES,
    channel_map_figure,
    head_detail_figure,
    heads_overview_figure,
)
from .labels import axis_labels, plotly_safe
from .palette import HEAD_COLORS, MASKED_COLOR, head_color
from .shapes import shape_trace_code

__all__ = [
    "HEAD_COLORS",
    "MASKED_COLOR",
    "STAGES",
    "axis_labels",
    "channel_map_figure",
    "head_color",
    "head_detail_figure",
    "heads_overview_figure",
    "plotly_safe",
    "shape_trace_code",
]
