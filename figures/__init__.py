"""Figure builders: arrays in, Plotly figures out. No Streamlit, no string table: every
word a figure draws arrives translated, by string-table key, in ``Words`` (figures/words.py).

One renderer per view, reused by every page that shows it.
"""

from .attention import head_detail_figure, trace_name
from .channels import channel_map_figure
from .compare import difference_figure
from .generation import generation_figure
from .grid import grid_figure
from .labels import axis_labels, plotly_safe
from .lesson import parameter_figure, qkv_figure, scaling_figure, softmax_bars_figure, two_ways_figure
from .lines import lines_figure
from .metrics import metric_figure
from .odds import odds_figure
from .overview import heads_overview_figure
from .palette import HEAD_COLORS, MASKED_COLOR, head_color
from .shapes import shape_trace_code
from .sizing import DEFAULT_SIZE, ChartSize
from .stage_colors import score_range
from .token_view import link_words, token_view_figure
from .training import experiment_figure, final_loss_figure, loss_curve_figure
from .window import window_map_figure
from .words import FIGURE_WORDS, Words

__all__ = [
    "ChartSize",
    "DEFAULT_SIZE",
    "HEAD_COLORS",
    "MASKED_COLOR",
    "FIGURE_WORDS",
    "Words",
    "axis_labels",
    "channel_map_figure",
    "difference_figure",
    "experiment_figure",
    "generation_figure",
    "grid_figure",
    "lines_figure",
    "metric_figure",
    "odds_figure",
    "final_loss_figure",
    "head_color",
    "head_detail_figure",
    "window_map_figure",
    "heads_overview_figure",
    "loss_curve_figure",
    "parameter_figure",
    "qkv_figure",
    "scaling_figure",
    "softmax_bars_figure",
    "two_ways_figure",
    "plotly_safe",
    "score_range",
    "shape_trace_code",
    "trace_name",
    "link_words",
    "token_view_figure",
]
