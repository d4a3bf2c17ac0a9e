"""The palette is readable with every common colour vision: the heads' colours, the two colour
scales and the cells drawn outside them (masked, dropped, highlighted) stay apart with normal
vision and under a simulated deuteranopia, protanopia and tritanopia (colorspacious's
Machado et al. simulation at severity 100, the full deficiency), measured as distances ΔE' in
CAM02-UCS, a space where equal distances look equally different."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from colorspacious import cspace_convert
from plotly.colors import hex_to_rgb, sample_colorscale, unlabel_rgb

from figures.palette import (
    DROPPED_COLOR,
    HEAD_COLORS,
    HIGHLIGHT_COLOR,
    MASKED_COLOR,
    SCORE_COLORSCALE,
    WEIGHT_COLORSCALE,
    head_color,
)
from gpt_core import MAX_HEADS
from ui.train.state import HEAD_CHOICES

# colorspacious's names: "-anomaly" at severity 100 is the full deficiency, "-anopia".
VISIONS = {"normal": None, "deuteranopia": "deuteranomaly", "protanopia": "protanomaly", "tritanopia": "tritanomaly"}
# ΔE' 1 is about the smallest difference seen between two large patches side by side. Heads
# are recognised, not compared side by side, and mostly as thin lines, borders and titles,
# where colours look closer than as patches: two colours count as told apart at 10, ten such
# steps. (Okabe and Ito's eight colours, the usual colour-blind-safe set, are 11.0 apart by
# this same measure; the Plotly colours the heads had before were 1.6 apart with protanopia.)
TOLD_APART = 10.0
# Most charts show at most 8 heads (the lesson, the Train page's choices but one): those
# colours keep a margin more.
FIRST_HEADS = 8
FIRST_HEADS_APART = 12.0
# WCAG 2.1's least contrast for graphics (1.4.11) and large text (1.4.3): a head's border,
# lines and bold title on the white page.
MIN_CONTRAST_ON_WHITE = 3.0
SIGNED_FROM = 0.2  # scores of at least this share of the range show their sign by colour
END_FROM_ZERO = 40.0  # the largest scores, either sign, from 0's white: far more than told apart
TEXT_CONTRAST = 4.5  # WCAG 2.1 1.4.3 for small text: the white "−∞" on a masked cell
SCALE_SAMPLES = 101  # points along a colour scale, as Plotly interpolates it


def _rgb(color: str) -> np.ndarray:
    """sRGB in [0, 1] of "#rrggbb" or "rgb(r, g, b)"."""
    return np.array(hex_to_rgb(color) if color.startswith("#") else unlabel_rgb(color), dtype=float) / 255


def _seen(colors: list[str], vision: str) -> np.ndarray:
    """CAM02-UCS (J', a', b') of ``colors`` as seen with ``vision``: (n, 3)."""
    rgb = np.stack([_rgb(color) for color in colors])
    if VISIONS[vision] is not None:
        space = {"name": "sRGB1+CVD", "cvd_type": VISIONS[vision], "severity": 100}
        rgb = np.clip(cspace_convert(rgb, space, "sRGB1"), 0, 1)
    return cspace_convert(rgb, "sRGB1", "CAM02-UCS")


def _apart(a: str, b: str, vision: str) -> float:
    seen = _seen([a, b], vision)
    return float(np.linalg.norm(seen[0] - seen[1]))


def _scale(colorscale: list) -> list[str]:
    return sample_colorscale(colorscale, list(np.linspace(0, 1, SCALE_SAMPLES)))


def _nearest(color: str, colorscale: list, vision: str) -> tuple[float, float]:
    """The least ΔE' from ``color`` to any colour of ``colorscale`` and where on it (0 … 1)."""
    scale = _seen(_scale(colorscale), vision)
    distances = np.linalg.norm(scale - _seen([color], vision), axis=-1)
    return float(distances.min()), float(distances.argmin() / (SCALE_SAMPLES - 1))


def _closest_heads(colors: tuple[str, ...], vision: str) -> tuple[float, int, int]:
    seen = _seen(list(colors), vision)
    return min(
        (float(np.linalg.norm(seen[i] - seen[j])), i, j) for i, j in itertools.combinations(range(len(colors)), 2)
    )


def _contrast_on_white(color: str) -> float:
    """WCAG 2.1 contrast ratio of ``color`` against white."""
    channels = _rgb(color)
    linear = np.where(channels <= 0.03928, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)
    luminance = float(linear @ [0.2126, 0.7152, 0.0722])
    return 1.05 / (luminance + 0.05)


HEADS_OFFERED = max(MAX_HEADS, *HEAD_CHOICES)  # the playground's and the Train page's most


def test_every_head_the_app_offers_has_its_own_colour():
    assert len(HEAD_COLORS) >= HEADS_OFFERED, "heads past the palette's end would repeat a colour on one chart"
    assert len(set(HEAD_COLORS)) == len(HEAD_COLORS)
    assert [head_color(h) for h in range(HEADS_OFFERED)] == list(HEAD_COLORS[:HEADS_OFFERED])


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize(("heads", "least"), [(FIRST_HEADS, FIRST_HEADS_APART), (HEADS_OFFERED, TOLD_APART)])
def test_any_two_heads_on_one_chart_are_told_apart(vision, heads, least):
    distance, i, j = _closest_heads(HEAD_COLORS[:heads], vision)
    assert distance >= least, (
        f"with {vision}, head {i + 1} ({HEAD_COLORS[i]}) and head {j + 1} ({HEAD_COLORS[j]}) are only "
        f"ΔE' {distance:.1f} apart (at least {least} among the first {heads})"
    )


@pytest.mark.parametrize("color", HEAD_COLORS)
def test_every_head_colour_reads_on_white(color):
    assert _contrast_on_white(color) >= MIN_CONTRAST_ON_WHITE, f"{color}: {_contrast_on_white(color):.2f}:1 on white"


@pytest.mark.parametrize("vision", VISIONS)
def test_a_score_shows_its_sign_and_zero_is_white(vision):
    scale = _scale(SCORE_COLORSCALE)
    middle = SCALE_SAMPLES // 2
    assert _rgb(scale[middle]).min() > 0.95, "0 is (almost) white"
    seen = _seen(scale, vision)
    for step in range(round(SIGNED_FROM * middle), middle + 1):
        share = step / middle
        apart = float(np.linalg.norm(seen[middle + step] - seen[middle - step]))
        assert apart >= TOLD_APART, (
            f"with {vision}, +{share:.2f} and -{share:.2f} of the range are ΔE' {apart:.1f} apart"
        )
    for end in (0, -1):
        from_zero = float(np.linalg.norm(seen[end] - seen[middle]))
        assert from_zero >= END_FROM_ZERO, f"with {vision}, an end is only ΔE' {from_zero:.1f} from 0"


@pytest.mark.parametrize("vision", VISIONS)
def test_lightness_alone_orders_both_scales(vision):
    weights = _seen(_scale(WEIGHT_COLORSCALE), vision)[:, 0]
    assert np.all(np.diff(weights) < 0), f"with {vision}, a larger weight is not always darker"
    scores = _seen(_scale(SCORE_COLORSCALE), vision)[:, 0]
    middle = SCALE_SAMPLES // 2
    assert np.all(np.diff(scores[: middle + 1]) > 0) and np.all(np.diff(scores[middle:]) < 0), (
        f"with {vision}, a larger |score| is not always darker"
    )


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize(
    ("name", "color", "scales"),
    [
        ("masked", MASKED_COLOR, {"scores": SCORE_COLORSCALE, "weights": WEIGHT_COLORSCALE}),
        ("highlight", HIGHLIGHT_COLOR, {"scores": SCORE_COLORSCALE, "weights": WEIGHT_COLORSCALE}),
        ("dropped", DROPPED_COLOR, {"weights": WEIGHT_COLORSCALE}),  # only the weights after dropout have them
    ],
)
def test_cells_outside_the_scales_look_like_no_value_of_them(vision, name, color, scales):
    for scale_name, scale in scales.items():
        distance, where = _nearest(color, scale, vision)
        assert distance >= TOLD_APART, (
            f"with {vision}, the {name} colour {color} is ΔE' {distance:.1f} from the {scale_name} scale at {where:.2f}"
        )


@pytest.mark.parametrize("vision", VISIONS)
def test_the_outline_and_the_special_cells_are_told_apart(vision):
    specials = {"masked": MASKED_COLOR, "dropped": DROPPED_COLOR, "highlight": HIGHLIGHT_COLOR}
    for a, b in itertools.combinations(specials, 2):
        distance = _apart(specials[a], specials[b], vision)
        assert distance >= TOLD_APART, f"with {vision}, the {a} and {b} colours are ΔE' {distance:.1f} apart"


def test_white_text_reads_on_masked_cells():
    assert _contrast_on_white(MASKED_COLOR) >= TEXT_CONTRAST, "the −∞ written on masked cells is white"
