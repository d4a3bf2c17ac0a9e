"""figures/describe.py: a chart's text alternative names its true strongest cells (never a
−∞ one) with their tokens as typed, in either language, and its tables hold the numbers the
figure draws."""

from __future__ import annotations

import numpy as np
import pytest

from figures import (
    channel_map_figure,
    generation_figure,
    grid_figure,
    head_detail_figure,
    heads_overview_figure,
    lines_figure,
    loss_curve_figure,
    metric_figure,
    parameter_figure,
)
from figures.describe import (
    MINUS_INF_TEXT,
    chart_data,
    chart_table,
    describe,
    plain,
    strongest_cells,
    table_names,
)
from gpt_core import HistoryPoint
from gpt_core.tokens import position_label
from string_table.figure_words import figure_words

EN, ZH = figure_words("en"), figure_words("zh")
LABELS = ["<b>", "&lt;", "a", "*x*", "动", "a"]  # markup, an entity typed as text, a repeat
T = len(LABELS)
FUTURE = np.triu(np.ones((T, T), dtype=bool), 1)


def _masked(seed: int = 0, heads: int = 2) -> np.ndarray:
    scores = np.random.default_rng(seed).normal(size=(heads, T, T)).astype(np.float32) * 3
    return np.where(FUTURE, np.float32(-np.inf), scores)


def _top(values: np.ndarray, count: int = 3) -> list[tuple[int, int]]:
    finite = [
        (float(values[r, c]), r, c)
        for r in range(values.shape[0])
        for c in range(values.shape[1])
        if np.isfinite(values[r, c])
    ]
    return [(r, c) for _, r, c in sorted(finite, key=lambda item: (-item[0], item[1], item[2]))[:count]]


def test_the_strongest_cells_are_the_largest_finite_values_never_minus_infinity_or_missing():
    values = np.array([[np.inf, 5.0, -np.inf], [np.nan, 2.0, 5.0], [9.0, -np.inf, 1.0]])
    assert strongest_cells(values) == [(2, 0), (0, 1), (1, 2)], "largest first; ties in reading order"
    rng = np.random.default_rng(3)
    for _ in range(20):
        values = rng.normal(size=(7, 7))
        values[rng.random((7, 7)) < 0.5] = -np.inf
        assert strongest_cells(values) == _top(values)
    assert strongest_cells(np.full((3, 3), -np.inf)) == []
    assert strongest_cells(np.array([[-np.inf, 1.0]])) == [(0, 1)], "fewer finite cells than asked: all of them"


def test_a_masked_overview_names_each_heads_three_largest_cells_with_query_and_key():
    masked = _masked()
    data = chart_data(heads_overview_figure(masked, LABELS, "masked_scores", EN), EN)
    assert [grid.name for grid in data.grids] == [f"{EN['stage.masked_scores']} · head {h}" for h in (1, 2)]
    text = describe(data, EN).text
    for head, grid in enumerate(data.grids):
        np.testing.assert_array_equal(grid.values, masked[head].astype(float))
        assert grid.tokens and grid.rows.labels == [position_label(i, label) for i, label in enumerate(LABELS)]
        for row, col in _top(masked[head]):
            cell = f"{masked[head, row, col]:.4f} (query {position_label(row, LABELS[row])}, key {position_label(col, LABELS[col])})"
            assert cell in text, cell
        assert f"{FUTURE.sum()} cells are −∞" in text
    assert "inf" not in text.replace("−∞", ""), "no −∞ cell is reported as a strongest one"
    assert describe(data, EN).label == f"{EN['stage.masked_scores']}: 2 heatmaps of {T} × {T} cells."


def test_tokens_come_out_as_the_student_typed_them_not_as_markup_or_entities():
    data = chart_data(heads_overview_figure(_masked(heads=1), LABELS, "weights", EN), EN)
    assert data.grids[0].rows.labels[:2] == ["0 · <b>", "1 · &lt;"], "escaped for Plotly, read back once"
    assert plain("<b>head 1</b><br>&lt;b&gt;") == "head 1 <b>"


def test_both_languages():
    figure = heads_overview_figure(_masked(), LABELS, "masked_scores", ZH)
    zh = describe(chart_data(figure, ZH), ZH)
    assert "张热力图" in zh.label and "键 0 · <b>）" in zh.text and "个单元格为 −∞" in zh.text
    en = describe(chart_data(figure, EN), EN)
    assert "heatmaps" in en.label and "张热力图" not in en.text


def test_a_panels_table_holds_its_values_with_minus_infinity_written_out():
    masked = _masked()
    data = chart_data(heads_overview_figure(masked, LABELS, "masked_scores", EN), EN)
    assert table_names(data, EN) == [grid.name for grid in data.grids]
    table = chart_table(data, 1, EN)
    assert table.index == table.columns == data.grids[1].rows.labels
    for row in range(T):
        for col in range(T):
            cell = table.cells[row][col]
            if FUTURE[row, col]:
                assert cell == MINUS_INF_TEXT
            else:
                assert float(cell) == pytest.approx(float(masked[1, row, col]), abs=5e-5)


def test_the_detail_puts_dropped_cells_back_as_zero_and_reads_every_stage():
    weights = np.tril(np.full((T, T), 0.5, dtype=np.float32))
    dropped = weights * 2
    dropped[3, 0] = dropped[3, 1] = 0.0
    stages = {"masked_scores": _masked(heads=1)[0], "weights": weights, "dropped_weights": dropped}
    data = chart_data(head_detail_figure(stages, LABELS, 0, EN), EN)
    assert [grid.name.split(" · ")[0] for grid in data.grids] == [EN[f"stage.{s}"] for s in stages]
    np.testing.assert_array_equal(data.grids[2].values, dropped.astype(float))
    assert chart_table(data, 2, EN).cells[3][:3] == ["0", "0", "1"], "whole numbers written as such"


def test_the_grid_leaves_the_masked_future_blank_and_the_lines_view_reads_each_drawn_line():
    weights = np.abs(_masked(heads=2)).clip(0, 1)
    weights = np.where(FUTURE, 0, weights / weights.sum(-1, keepdims=True)).astype(np.float32)
    grid = chart_data(grid_figure(weights[None], LABELS, EN), EN)
    assert [g.name for g in grid.grids] == ["block 1 · head 1", "block 1 · head 2"]
    assert chart_table(grid, 0, EN).cells[0][1] == "" and np.isnan(grid.grids[0].values[FUTURE]).all()
    lines = chart_data(lines_figure(weights, LABELS, [0, 1], EN), EN)
    assert [g.name for g in lines.grids] == ["head 1", "head 2"]
    drawn = ~np.isnan(lines.grids[1].values)
    np.testing.assert_allclose(lines.grids[1].values[drawn], weights[1][drawn], rtol=1e-6)
    assert drawn.sum() == (weights[1] >= 0.02).sum()


def test_named_axes_and_numbered_rows():
    values = np.array([[0.1, 0.9], [0.4, 0.2]], dtype=np.float32)
    metric = describe(chart_data(metric_figure(values, "previous", EN), EN), EN).text
    assert "0.9000 (block 1, head 2)" in metric and "query" not in metric
    rows = [np.array([0.25, 0.75], dtype=np.float32), np.array([0.5, 0.2, 0.3], dtype=np.float32)]
    generation = chart_data(generation_figure(rows, ["x", "<"], ["ab", "abx"], 0, 0, EN), EN)
    assert generation.grids[0].rows.labels == ["1: x", "2: <"]
    assert f"0.7500 (1: x, {EN['ex.position_axis']} 1)" in describe(generation, EN).text


def test_a_loss_curve_says_first_last_lowest_and_highest_and_its_table_has_both_losses():
    history = [
        HistoryPoint(
            step=s, train_loss=4.0 - s / 10, test_loss=(3.5 - s / 10) if s % 5 == 0 else None, elapsed=s / 10.0
        )
        for s in range(11)
    ]
    data = chart_data(loss_curve_figure(history, EN), EN)
    text = describe(data, EN).text
    assert "train loss: 11 points; first 4.0000 (step 0), last 3.0000 (step 10), lowest 3.0000 (step 10)" in text
    assert "held-out loss: 3 points; first 3.5000 (step 0)" in text
    assert table_names(data, EN) == ["train loss", "held-out loss"]
    train = chart_table(data, 0, EN)
    assert train.corner == "step" and train.index[:2] == ["0", "1"] and train.cells[1] == ["3.9000"]


def test_bars_and_single_points():
    counts = {
        h: {"query_layer": 10, "key_layer": 10, "value_layer": 10, "output_layer": 12, "total": 42} for h in (1, 2)
    }
    data = chart_data(parameter_figure(counts, EN), EN)
    table = chart_table(data, 0, EN)
    assert len(table_names(data, EN)) == 1 and table.cells == [["10", "10", "10", "12"]] * 2
    channels = chart_data(channel_map_figure(2, 4, EN), EN)
    assert chart_table(channels, 0, EN).cells == [["4"], ["4"]]
    assert "head 2: channels 4–7: 4" in describe(channels, EN).text
