"""The sizes a page gives the figure builders travel as one value (figures/sizing.py
``ChartSize``): equal sizes are one key for a figure shared between sessions, and a builder
given a size draws in it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from figures import ChartSize, head_detail_figure, heads_overview_figure, metric_figure
from figures.events import MIN_WIDTH
from figures.overview import plan_overview
from figures.style import TITLE_FONT_SIZE
from gpt_core import STAGES, PlaygroundConfig, trace_attention
from string_table.figure_words import figure_words
from ui.shared.shared_cache import SharedResults

EN = figure_words("en")


def _sized(monkeypatch, width_px: float, scale: float = 1.0) -> ChartSize:
    """What ``sized_for_page`` gives a page whose main column is ``width_px`` wide."""
    from ui import charts

    monkeypatch.setattr(charts, "page_width", lambda: width_px)
    monkeypatch.setattr(charts, "type_scale", lambda: scale)
    return charts.sized_for_page()


def test_two_pages_of_the_same_width_share_the_figure_key(monkeypatch):
    """Two sessions whose pages are 870 px wide draw the grid once; one 600 px wide its own."""
    first, second, narrow = _sized(monkeypatch, 870.0), _sized(monkeypatch, 870.0), _sized(monkeypatch, 600.0)
    assert first is not second and first == second and hash(first) == hash(second)
    shared: SharedResults[str] = SharedResults(8)
    made = []

    def draw(name: str):
        return lambda: made.append(name) or name

    window = None
    assert shared.get(("grid", (0, 1), first, window), draw("first")) == "first"
    assert shared.get(("grid", (0, 1), second, window), draw("second")) == "first"  # the first session's figure
    assert shared.get(("grid", (0, 1), narrow, window), draw("narrow")) == "narrow"
    assert made == ["first", "narrow"]


def test_a_chart_size_is_a_value_not_a_mutable_record():
    size = ChartSize(width_px=870.0, scale=1.35, cols=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        size.width_px = 600.0  # type: ignore[misc]
    assert ChartSize(width_px=870.0, scale=1.35, cols=2) == size
    assert ChartSize(width_px=870.0, scale=1.35, cols=3) != size  # every size is part of the key


def _trace(heads: int = 4):
    result = trace_attention("the cat sat", PlaygroundConfig(heads=heads, head_dim=8, seed=1, tokenizer="word"))
    return result.trace, result.labels


def test_a_detail_figure_given_a_size_is_planned_for_that_width():
    """Three tokens fit any page: the layout asks for exactly the width it was given, or a
    projector's page (870 px) when it was given none."""
    trace, labels = _trace()
    stages = {stage: getattr(trace, stage)[0, 0].numpy() for stage in STAGES}
    given = head_detail_figure(stages, labels, 0, EN, size=ChartSize(width_px=640.0))
    assert given.layout.meta[MIN_WIDTH] == 640
    assert head_detail_figure(stages, labels, 0, EN).layout.meta[MIN_WIDTH] == 870


def test_an_overview_given_a_size_takes_its_width_scale_and_columns():
    trace, labels = _trace(heads=4)
    weights = trace.weights[0].numpy()
    size = ChartSize(width_px=1200.0, scale=1.35, cols=2)
    plan = plan_overview(4, labels, size)
    assert plan.frame.width == 1200.0 and plan.cols == 2
    figure = heads_overview_figure(weights, labels, "weights", EN, size=size)
    lefts = {round(figure.layout[f"xaxis{'' if head == 1 else head}"].domain[0], 6) for head in range(1, 5)}
    assert len(lefts) == 2  # two panels to a row: two left edges
    assert figure.layout.title.font.size == pytest.approx(TITLE_FONT_SIZE * 1.35)
    assert plan_overview(4, labels, ChartSize(width_px=1200.0)).cols == 4  # no columns given: all in one row


def test_the_maps_fixed_cell_size_sets_its_width():
    """Three heads of cells 20 px wider make the map 60 px wider, two blocks 40 px taller
    (cells wide enough for the heads' names either way: the labels do not turn)."""
    values = np.linspace(0.0, 1.0, 6).reshape(2, 3)
    small = metric_figure(values, "previous", EN, size=ChartSize(cell_px=80.0))
    large = metric_figure(values, "previous", EN, size=ChartSize(cell_px=100.0))
    assert large.layout.width - small.layout.width == 60
    assert large.layout.height - small.layout.height == 2 * 20
