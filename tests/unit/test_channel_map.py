"""The grouped-query channel map: its rows' names are whole beside the bars, the "→ heads"
written on the hatched key/value bars reads (WCAG contrast against the bar's colour and its
stripes, computed here), and a map of more than eight heads says how their colours repeat."""

from __future__ import annotations

import unicodedata

import pytest

from figures import channel_map_figure
from figures.labels import plotly_safe
from string_table import t
from string_table.figure_words import figure_words

LANGS = ("en", "zh")
SMALL_TEXT_CONTRAST = 4.5  # WCAG 2.1 1.4.3


def _luminance(color: str) -> float:
    channels = [int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_is_wcag_s():
    assert _contrast("#ffffff", "#000000") == pytest.approx(21.0)
    assert _contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("heads", "kv_heads"), [(8, 2), (4, 1), (16, 4), (6, 3)])
def test_the_rows_names_are_whole_inside_the_left_margin(lang, heads, kv_heads):
    text = figure_words(lang)
    figure = channel_map_figure(heads, 8, text, kv_heads=kv_heads).to_dict()
    layout = figure["layout"]
    rows = {trace["y"][0] for trace in figure["data"]}
    assert rows == {text["fig.q_row"], text["fig.kv_row"]}, "each row named whole, as the strings say"
    font_px = layout["yaxis"].get("tickfont", {}).get("size") or layout["font"]["size"]
    # A wide (CJK) character is as wide as its type size, no Latin one of these more than 0.7 of it.
    widest = (
        max(sum(1.0 if unicodedata.east_asian_width(char) in "WF" else 0.7 for char in row) for row in rows) * font_px
    )
    standoff = layout["yaxis"].get("ticklabelstandoff", 0)
    assert layout["yaxis"].get("automargin") is not True, "planned, not left to the browser"
    assert layout["margin"]["l"] >= widest + standoff, (layout["margin"], rows, font_px)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("heads", "kv_heads"), [(8, 2), (8, 4), (4, 1), (6, 3), (8, 1)])
def test_what_is_written_on_a_bar_reads_against_its_colour_and_its_stripes(lang, heads, kv_heads):
    figure = channel_map_figure(heads, 8, figure_words(lang), kv_heads=kv_heads).to_dict()
    written = [trace for trace in figure["data"] if trace.get("text")]
    assert len(written) == heads + kv_heads
    for trace in written:
        marker = trace["marker"]
        color = trace["insidetextfont"]["color"]
        assert _contrast(color, marker["color"]) >= SMALL_TEXT_CONTRAST, (trace["name"], color, marker["color"])
        pattern = marker.get("pattern")
        if pattern:  # the hatched key/value bars: the stripes as well as the ground
            assert pattern["fillmode"] == "replace" and pattern.get("bgcolor", marker["color"]) == marker["color"]
            assert _contrast(color, pattern["fgcolor"]) >= SMALL_TEXT_CONTRAST, (trace["name"], color, pattern)
            assert pattern["fgcolor"] != marker["color"], "the stripes show"


@pytest.mark.parametrize("lang", LANGS)
def test_a_map_of_more_than_eight_heads_says_how_their_colours_repeat(lang):
    said = t("fig.head_colors_repeat", lang, n=8, n_next=9, n_next2=10)
    many = channel_map_figure(16, 2, figure_words(lang)).to_dict()
    few = channel_map_figure(8, 2, figure_words(lang)).to_dict()
    assert plotly_safe(said) in many["layout"]["xaxis"]["title"]["text"], "under the channels"
    assert plotly_safe(said) not in str(few["layout"])
    bars = [trace["marker"]["color"] for trace in many["data"]]
    assert bars[8:] == bars[:8], "head 9 has head 1's colour, as said"
