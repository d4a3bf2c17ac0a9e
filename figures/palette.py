"""Colours: one per head (the same everywhere it appears), and the stage colour scales."""

from __future__ import annotations

from plotly.colors import get_colorscale

# 16 distinguishable colours (Plotly's D3 and Dark24 families, the palest darkened so a
# title in them reads on a projector), one per head.
HEAD_COLORS: tuple[str, ...] = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#0f8b99",
    "#8a7a00", "#555555", "#2e91e5", "#fd3216", "#1ca71c", "#6a76fc", "#00695c", "#750d86",
)  # fmt: skip

# Scores are signed: a diverging scale with white at 0. Weights are in [0, 1]: white to blue.
# Explicit [position, colour] lists: figures skip validation, which would expand names.
SCORE_COLORSCALE: list = get_colorscale("RdBu_r")
WEIGHT_COLORSCALE: list = get_colorscale("Blues")
# −∞ cells sit outside both scales: a dark slate no scale contains.
MASKED_COLOR = "#36454f"
# Cells dropout set to 0: a warm grey, outside the blue scale of the weights.
DROPPED_COLOR = "#c9b8a6"
HIGHLIGHT_COLOR = "#ffbf00"  # the selected cell, in every stage


def head_color(head: int) -> str:
    """The colour of head ``head`` (0-based)."""
    return HEAD_COLORS[head % len(HEAD_COLORS)]
