"""Colours: one per head (the same everywhere it appears), and the stage colour scales."""

from __future__ import annotations

from plotly.colors import get_colorscale

# Eight colours, one per head, each of its own hue family for normal colour vision (blue,
# brown, magenta, teal, red, olive green, black, grey: no two only lighter and darker of one
# hue, as a blue and a navy were), and told apart under a simulated deuteranopia, protanopia
# and tritanopia too (tests/unit/test_palette.py measures them). Each has at least 3:1
# contrast on white (a bold title, a border, a line on a projector). More heads than eight
# repeat them in order: head 9 has head 1's colour, head 10 head 2's, and so on (a chart of
# more than eight heads says so: "fig.head_colors_repeat"; its lines also differ by dash).
HEAD_COLORS: tuple[str, ...] = (
    "#0e488b",
    "#865301",
    "#d04ec6",
    "#2c937c",
    "#790d17",
    "#758d18",
    "#181818",
    "#5e5e5e",
)

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
    """The colour of head ``head`` (0-based): past the eighth, the colours repeat in order."""
    return HEAD_COLORS[head % len(HEAD_COLORS)]


def colors_repeat(heads: int) -> bool:
    """Whether ``heads`` heads share colours (more heads than colours)."""
    return heads > len(HEAD_COLORS)
