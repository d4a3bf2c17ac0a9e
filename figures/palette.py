"""Colours: one per head (the same everywhere it appears), and the stage colour scales."""

from __future__ import annotations

from plotly.colors import get_colorscale

# 16 colours, one per head, told apart with normal colour vision and under a simulated
# deuteranopia, protanopia and tritanopia (tests/unit/test_palette.py measures them): the
# first eight, the most any chart of 8 heads shows, further apart than the rest. Each has at
# least 3:1 contrast on white (a bold title, a border, a line on a projector). Blue and
# vermilion come first: the pair every colour vision tells apart.
HEAD_COLORS: tuple[str, ...] = (
    "#1f77b4", "#d55e00", "#000f8d", "#5f0000", "#a04f66", "#4f094b", "#6f00ce", "#679851",
    "#c8002c", "#843385", "#9085e3", "#830441", "#00a4a8", "#b635fd", "#0d6119", "#de6ca1",
)  # fmt: skip

# Scores are signed: a diverging scale with white at 0. Weights are in [0, 1]: white to blue.
# Explicit [position, colour] lists: figures skip validation, which would expand names.
SCORE_COLORSCALE: list = get_colorscale("RdBu_r")
WEIGHT_COLORSCALE: list = get_colorscale("Blues")
# A signed number's two signs, as the scores' scale draws them: positive red, negative blue.
POSITIVE_COLOR: str = SCORE_COLORSCALE[-2][1]
NEGATIVE_COLOR: str = SCORE_COLORSCALE[1][1]
# −∞ cells sit outside both scales: a dark mauve grey, far from every colour of either scale
# under each colour vision (a blue-grey slate was not, for tritanopia); white "−∞" reads on it.
MASKED_COLOR = "#664d59"
# Cells dropout set to 0: a warm grey, outside the blue scale of the weights.
DROPPED_COLOR = "#c9b8a6"
# The selected cell's outline, in every stage: a bright green no scale comes near under any
# colour vision (amber looked like the scores' light reds with tritanopia).
HIGHLIGHT_COLOR = "#33ff00"


def head_color(head: int) -> str:
    """The colour of head ``head`` (0-based)."""
    return HEAD_COLORS[head % len(HEAD_COLORS)]
