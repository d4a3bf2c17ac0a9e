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
    colors_repeat,
    head_color,
)
from gpt_core import MAX_HEADS
from links.train import HEAD_CHOICES
from string_table import t

# colorspacious's names: "-anomaly" at severity 100 is the full deficiency, "-anopia".
VISIONS = {"normal": None, "deuteranopia": "deuteranomaly", "protanopia": "protanomaly", "tritanopia": "tritanomaly"}
# ΔE' 1 is about the smallest difference seen between two large patches side by side. Heads
# are recognised, not compared side by side, and mostly as thin lines, borders and titles,
# where colours look closer than as patches: two colours count as told apart at 10, ten such
# steps. (Okabe and Ito's eight colours, the usual colour-blind-safe set, are 11.0 apart by
# this same measure; the Plotly colours the heads had before were 1.6 apart with protanopia.)
TOLD_APART = 10.0
# Most charts show at most 8 heads (the lesson, the Train page's choices but one): those
# colours keep a margin more; more heads repeat them in order.
FIRST_HEADS = 8
FIRST_HEADS_APART = 12.0
# The same eight measured by CIEDE2000 in CIELAB (D65), the usual colour-difference metric:
# with normal vision twice what tells two colours apart at a glance, and more than that under
# deuteranopia and protanopia. (A blue and a navy were 14.5 apart; 10.4 with protanopia.)
DE2000_APART = {"normal": 20.0, "deuteranopia": 12.0, "protanopia": 12.0}
# ... and each its own hue family with normal vision: two coloured heads (CIECAM02 chroma at
# least CHROMATIC) differ in CIECAM02 hue by HUE_APART degrees, not only in lightness (a blue
# and a navy were 17° apart, two dark reds 30°).
CHROMATIC = 15.0
HUE_APART = 40.0
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


def _ciede2000(lab1, lab2) -> float:
    """CIEDE2000 (Sharma, Wu and Dalal 2005) between two CIELAB colours."""
    (L1, a1, b1), (L2, a2, b2) = lab1, lab2
    mean_c = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(mean_c**7 / (mean_c**7 + 25.0**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = np.hypot(a1, b1), np.hypot(a2, b2)
    h1, h2 = np.degrees(np.arctan2(b1, a1)) % 360, np.degrees(np.arctan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    big_dh = 2 * np.sqrt(c1 * c2) * np.sin(np.radians(dh / 2))
    mean_l, mean_c = (L1 + L2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        mean_h = h1 + h2
    elif abs(h1 - h2) <= 180:
        mean_h = (h1 + h2) / 2
    else:
        mean_h = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    cos = lambda deg: np.cos(np.radians(deg))  # noqa: E731
    tt = 1 - 0.17 * cos(mean_h - 30) + 0.24 * cos(2 * mean_h) + 0.32 * cos(3 * mean_h + 6) - 0.20 * cos(4 * mean_h - 63)
    rotation = (
        -np.sin(np.radians(60 * np.exp(-(((mean_h - 275) / 25) ** 2)))) * 2 * np.sqrt(mean_c**7 / (mean_c**7 + 25.0**7))
    )
    sl = 1 + 0.015 * (mean_l - 50) ** 2 / np.sqrt(20 + (mean_l - 50) ** 2)
    sc, sh = 1 + 0.045 * mean_c, 1 + 0.015 * mean_c * tt
    dl, dc, dh_term = (L2 - L1) / sl, (c2 - c1) / sc, big_dh / sh
    return float(np.sqrt(dl**2 + dc**2 + dh_term**2 + rotation * dc * dh_term))


def _lab(colors: list[str], vision: str) -> np.ndarray:
    rgb = np.stack([_rgb(color) for color in colors])
    if VISIONS[vision] is not None:
        rgb = np.clip(
            cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": VISIONS[vision], "severity": 100}, "sRGB1"), 0, 1
        )
    return cspace_convert(rgb, "sRGB1", "CIELab")


def test_ciede2000_gives_the_published_values():
    """Sharma et al.'s test pairs 1, 7 and 17."""
    assert _ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert _ciede2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert _ciede2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)


def test_the_first_eight_heads_have_their_own_colours_and_the_rest_repeat_them_as_said():
    first = [head_color(h) for h in range(FIRST_HEADS)]
    assert len(set(first)) == FIRST_HEADS
    assert [head_color(h) for h in range(HEADS_OFFERED)] == [first[h % FIRST_HEADS] for h in range(HEADS_OFFERED)]
    assert not colors_repeat(FIRST_HEADS) and colors_repeat(FIRST_HEADS + 1)
    for lang in ("en", "zh"):
        said = t("fig.head_colors_repeat", lang, n=FIRST_HEADS, n_next=FIRST_HEADS + 1, n_next2=FIRST_HEADS + 2)
        assert all(str(n) in said for n in (FIRST_HEADS, FIRST_HEADS + 1, FIRST_HEADS + 2)), said


@pytest.mark.parametrize("vision", DE2000_APART)
def test_the_first_eight_heads_are_apart_by_ciede2000(vision):
    lab = _lab(list(map(head_color, range(FIRST_HEADS))), vision)
    distance, i, j = min((_ciede2000(lab[i], lab[j]), i, j) for i, j in itertools.combinations(range(FIRST_HEADS), 2))
    assert distance >= DE2000_APART[vision], (
        f"with {vision}, head {i + 1} ({head_color(i)}) and head {j + 1} ({head_color(j)}) are ΔE00 {distance:.1f} apart"
    )


def test_no_two_of_the_first_eight_heads_are_one_hue_lighter_and_darker():
    seen = [cspace_convert(_rgb(head_color(h)), "sRGB1", "CIECAM02") for h in range(FIRST_HEADS)]
    for i, j in itertools.combinations(range(FIRST_HEADS), 2):
        if min(seen[i].C, seen[j].C) < CHROMATIC:
            continue  # a grey or black: no hue
        apart = abs((seen[i].h - seen[j].h + 180) % 360 - 180)
        assert apart >= HUE_APART, (
            f"heads {i + 1} and {j + 1} ({head_color(i)}, {head_color(j)}): hues {apart:.0f}° apart"
        )


@pytest.mark.parametrize("vision", VISIONS)
def test_any_two_of_the_first_eight_heads_are_told_apart(vision):
    distance, i, j = _closest_heads(tuple(map(head_color, range(FIRST_HEADS))), vision)
    assert distance >= FIRST_HEADS_APART, (
        f"with {vision}, head {i + 1} ({head_color(i)}) and head {j + 1} ({head_color(j)}) are only "
        f"ΔE' {distance:.1f} apart (at least {FIRST_HEADS_APART} among the first {FIRST_HEADS})"
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
