"""Plans that fit a screen: the overview beside the controls holds every head within the
first screen's height, and one head's stages stay side by side (raw scores beside softmax)
for T up to 50 at a 1366×768 projector's width, their cells smaller and values hidden when
they no longer fit. The sizes expected are written out here from the page's measures."""

from __future__ import annotations

import pytest

from figures import ChartSize, head_detail_figure, heads_overview_figure
from gpt_core import STAGES, PlaygroundConfig, trace_attention
from string_table.figure_words import figure_words

EN = figure_words("en")
PAGE_1366 = 877  # the main column at 1366×768, sidebar open
COLUMN_GAP = 32  # Streamlit's "medium" gap, 2 rem
CHART_1366 = (PAGE_1366 - COLUMN_GAP) * 3 / 5  # the column beside the controls: 3 parts of 5
ABOVE_CHART = 340  # the page's title, the compare switch, the stage buttons, the toolbar's strip
SCREEN = 700  # 768 less the app's header bar
FIFTEEN_WORDS = (
    "attention mechanisms transform sequences through learned projections while transformers remember "
    "positional information across many layers"
)
FIFTY_CHARACTERS = "the quick brown fox jumps over the lazy dog again!"


def _result(text: str, tokenizer: str = "char", heads: int = 4):
    return trace_attention(text, PlaygroundConfig(heads=heads, head_dim=8, tokenizer=tokenizer))


def _panels(figure) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Each panel's (x domain, y domain), in axis order."""
    layout = figure.layout.to_plotly_json()
    count = sum(1 for name in layout if name.startswith("yaxis"))
    names = [("xaxis", "yaxis")] + [(f"xaxis{i}", f"yaxis{i}") for i in range(2, count + 1)]
    return [(tuple(layout[x]["domain"]), tuple(layout[y]["domain"])) for x, y in names]


def _plot_px(figure) -> tuple[float, float]:
    margin = figure.layout.margin
    return PAGE_1366 - margin.l - margin.r, figure.layout.height - margin.t - margin.b


@pytest.mark.parametrize(("text", "tokenizer", "T"), [(FIFTEEN_WORDS, "word", 15), (FIFTY_CHARACTERS, "char", 50)])
def test_one_heads_stages_stay_side_by_side_on_one_screen(text, tokenizer, T):
    result = _result(text, tokenizer)
    assert len(result.labels) == T
    stages = {stage: getattr(result.trace, stage)[0, 0].numpy() for stage in STAGES}
    figure = head_detail_figure(
        stages, result.labels, 0, EN, size=ChartSize(width_px=PAGE_1366, max_height_px=SCREEN), room_for_values=True
    )
    assert figure.layout.height <= SCREEN
    panels = _panels(figure)
    assert len(panels) == 4 and len({y for _, y in panels}) == 1, "raw scores … softmax in one row"
    lefts = [x[0] for x, _ in panels]
    assert lefts == sorted(lefts), "the stages in their order, left to right"
    width_px, _ = _plot_px(figure)
    cell = (panels[0][0][1] - panels[0][0][0]) * width_px / T
    assert cell >= 3
    # "-1.23" at 11 px needs about 5 × 0.6 × 11 ≈ 33 px: values in cells of 11 px or less do not fit.
    assert cell > 12 or not any(trace.texttemplate for trace in figure.data if trace.type == "heatmap")


def test_without_a_height_limit_the_long_words_take_one_column_as_before():
    """The limit is what keeps them side by side: without it, cells made room for the values
    stack the stages one under the other (a chart several screens tall)."""
    result = _result(FIFTEEN_WORDS, "word")
    stages = {stage: getattr(result.trace, stage)[0, 0].numpy() for stage in STAGES}
    figure = head_detail_figure(stages, result.labels, 0, EN, size=ChartSize(width_px=PAGE_1366), room_for_values=True)
    assert figure.layout.height > 2 * SCREEN


def test_a_few_tokens_keep_their_values_under_the_limit():
    result = _result("动手学大模型")
    stages = {stage: getattr(result.trace, stage)[0, 0].numpy() for stage in STAGES}
    figure = head_detail_figure(
        stages, result.labels, 0, EN, size=ChartSize(width_px=PAGE_1366, max_height_px=SCREEN), room_for_values=True
    )
    assert figure.layout.height <= SCREEN
    assert all(trace.texttemplate for trace in figure.data if trace.type == "heatmap")


@pytest.mark.parametrize(("width", "rows"), [(CHART_1366, 2), ((1400 - COLUMN_GAP) * 3 / 5, 1)])
def test_the_default_overview_holds_every_head_within_the_first_screen(width, rows):
    result = _result("动手学大模型")
    budget = 768 - ABOVE_CHART
    figure = heads_overview_figure(
        result.trace.weights[0].numpy(),
        result.labels,
        "weights",
        EN,
        size=ChartSize(width_px=width, max_height_px=budget),
    )
    assert figure.layout.height <= budget
    panels = _panels(figure)
    assert len(panels) == 4 and len({y for _, y in panels}) == rows
    _, height_px = _plot_px(figure)
    assert min((y[1] - y[0]) * height_px for _, y in panels) >= 6 * 16, "cells of 16 px at least: six labels fit"


def test_a_long_texts_overview_cannot_fit_beside_the_controls_and_fits_the_page():
    result = _result(FIFTY_CHARACTERS, heads=8)
    weights = result.trace.weights[0].numpy()
    beside = heads_overview_figure(
        weights, result.labels, "weights", EN, size=ChartSize(width_px=CHART_1366, max_height_px=768 - ABOVE_CHART)
    )
    assert beside.layout.height > 768 - ABOVE_CHART, "too tall for the first screen beside the controls"
    under = heads_overview_figure(
        weights, result.labels, "weights", EN, size=ChartSize(width_px=PAGE_1366, max_height_px=SCREEN)
    )
    assert under.layout.height <= SCREEN
    assert len({x for x, _ in _panels(under)}) == 4, "four heads to a row"
