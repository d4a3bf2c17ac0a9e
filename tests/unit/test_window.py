"""Windows over a long text (gpt_core/window.py, figures/window.py): which cells a window
holds, the whole matrix in blocks of maxima, and the weight a query gives outside the window,
each against values written here or computed here with torch."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from figures import ChartSize, head_detail_figure, heads_overview_figure, window_map_figure
from gpt_core.window import (
    LONG_TEXT_TOKENS,
    WINDOW_TOKENS,
    Window,
    block_max,
    first_key,
    weight_outside,
    window_around,
)
from string_table.figure_words import figure_words

WORDS = figure_words("en")


def test_a_short_text_is_its_own_window_up_to_the_threshold():
    assert LONG_TEXT_TOKENS == 64 and WINDOW_TOKENS == 48
    for T in (1, 6, 64):
        window = window_around(T, T - 1, 0)
        assert window == Window(T, 0, 0, T) and window.whole
    assert not window_around(65, 64, 0).whole


@pytest.mark.parametrize(
    ("row", "col", "first_query", "first_key"),
    [
        (400, 0, 376, 0),  # centred on the row; the key at the left edge
        (511, 511, 464, 464),  # the last query: moved inwards
        (-1, 0, 464, 0),  # -1 counts from the end, as the link's default row does
        (10, 300, 0, 276),
        (24, 24, 0, 0),
        (25, 25, 1, 1),
        (9999, -9999, 464, 0),  # clamped
    ],
)
def test_the_window_is_centred_on_the_chosen_cell_and_stays_inside(row, col, first_query, first_key):
    window = window_around(512, row, col)
    assert window == Window(512, first_query, first_key, 48)
    assert list(window.queries) == list(range(first_query, first_query + 48))
    assert list(window.keys) == list(range(first_key, first_key + 48))


def test_a_window_cuts_its_cells_and_says_what_it_holds():
    matrix = np.arange(100 * 100, dtype=np.float32).reshape(100, 100)
    window = window_around(100, 70, 5, size=10)
    assert window == Window(100, 65, 0, 10)
    cut = window.cut(matrix)
    assert cut.shape == (10, 10)
    assert cut[0, 0] == 65 * 100 + 0 and cut[9, 9] == 74 * 100 + 9
    assert window.contains(65, 9) and window.contains(74, 0)
    assert not window.contains(64, 0) and not window.contains(75, 0) and not window.contains(70, 10)
    with pytest.raises(ValueError, match="100"):
        window.cut(matrix[:50, :50])


def test_a_window_names_its_first_cell_and_moves_a_cell_into_its_own_coordinates():
    window = Window(100, 65, 0, 10)
    assert window.origin == (65, 0)
    assert window.local((65, 0)) == (0, 0) and window.local((74, 9)) == (9, 9) and window.local((70, 3)) == (5, 3)
    assert window.local((64, 0)) is None and window.local((70, 10)) is None and window.local(None) is None
    cut = window.cut(np.arange(100 * 100).reshape(100, 100))
    assert cut[window.local((70, 3))] == 70 * 100 + 3  # the same cell, read from the cut
    whole = Window(6, 0, 0, 6)
    assert whole.origin == (0, 0) and whole.local((5, 2)) == (5, 2)


def test_block_maxima_of_a_hand_made_matrix():
    inf = np.inf
    matrix = np.array(
        [
            [1.0, -inf, -inf, -inf, -inf],
            [2.0, 0.5, -inf, -inf, -inf],
            [0.1, 0.2, 3.0, -inf, -inf],
            [-1.0, 9.0, np.nan, -2.0, -inf],
            [0.0, 0.0, 0.0, 0.0, 7.0],
        ],
        dtype=np.float32,
    )
    blocks = block_max(matrix, blocks=3)  # blocks of 2 tokens: 3 × 3, the last one token wide
    assert blocks.size == 2 and blocks.tokens == 5
    expected = np.array([[2.0, -inf, -inf], [9.0, 3.0, -inf], [0.0, 0.0, 7.0]], dtype=np.float32)
    np.testing.assert_array_equal(blocks.values, expected)
    assert blocks.first_token(2) == 4 and blocks.block_of(3) == 1


def test_block_maxima_keep_a_single_sharp_cell_of_a_long_text():
    T = 512
    matrix = np.zeros((T, T), dtype=np.float32)
    matrix[400, 3] = 1.0  # one sharp cell: a mean over 8 × 8 would be 1/64
    blocks = block_max(matrix)
    assert blocks.size == 8 and blocks.values.shape == (64, 64)
    assert blocks.values[50, 0] == 1.0 and blocks.values.sum() == 1.0
    assert block_max(np.zeros((130, 130))).values.shape == (44, 44)  # blocks of 3, the last of one


def test_weight_outside_the_window_against_torch():
    torch.manual_seed(0)
    T = 200
    scores = torch.randn(T, T).masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    window = window_around(T, 150, 100)
    outside = weight_outside(weights.numpy(), window)
    keys = torch.arange(T)
    for i, query in enumerate(window.queries):
        away = (keys < window.first_key) | (keys >= window.first_key + window.size)
        assert outside[i] == pytest.approx(weights[query][away].double().sum().item(), abs=1e-9)
    assert window == Window(T, 126, 76, 48)
    # Query 126 reads keys 0..126; the window holds 76..123: keys 0..75, 124, 125 and 126 are outside.
    expected = weights[126, :76].sum() + weights[126, 124:127].sum()
    assert outside[0] == pytest.approx(expected.item(), abs=1e-6)


def _labels(T: int) -> list[str]:
    return [f"t{i}" for i in range(T)]


def test_a_windowed_detail_draws_only_the_windows_cells_with_their_positions():
    T = 300
    rng = np.random.default_rng(1)
    scores = rng.standard_normal((T, T)).astype(np.float32)
    masked = np.where(np.triu(np.ones((T, T), bool), 1), -np.inf, scores).astype(np.float32)
    window = window_around(T, 250, 240)
    assert window == Window(T, 226, 216, 48)
    figure = head_detail_figure(
        {"scores": scores, "masked_scores": masked},
        _labels(T),
        0,
        WORDS,
        highlight=(250, 240),
        window=window,
        size=ChartSize(max_height_px=700),
    )
    spec = json.loads(figure.to_json())
    values = next(trace for trace in spec["data"] if trace["name"] == "raw scores QKᵀ · head 1")
    assert values["y"][0] == "226 · t226" and values["y"][-1] == "273 · t273"
    assert values["x"][0] == "216 · t216" and values["x"][-1] == "263 · t263"
    assert values["meta"]["origin"] == [226, 216]
    shown = np.array(figure.data[[t.name for t in figure.data].index("raw scores QKᵀ · head 1")].z, dtype=np.float32)
    np.testing.assert_array_equal(shown, scores[226:274, 216:264])
    # Cell (250, 240) is outlined at its place in the window, in both stages.
    assert {(s["x0"], s["y0"]) for s in spec["layout"]["shapes"]} == {(240 - 216 - 0.5, 250 - 226 - 0.5)}
    assert "queries 226–273 × keys 216–263 of 300" in spec["layout"]["title"]["text"]
    minus_inf = [trace for trace in spec["data"] if trace.get("meta", {}).get("layer") == "minusInf"]
    assert minus_inf and minus_inf[0]["meta"]["origin"] == [226, 216], "the −∞ layer's clicks land in place too"
    assert figure.layout.height <= 700


def test_a_windowed_overview_cuts_every_head_and_keeps_the_whole_colour_range():
    T, heads = 100, 3
    weights = np.zeros((heads, T, T), dtype=np.float32)
    weights[:, np.arange(T), np.arange(T)] = 1.0  # every head reads itself
    window = window_around(T, 90, 0)
    figure = heads_overview_figure(
        weights, _labels(T), "weights", WORDS, window=window, size=ChartSize(max_height_px=700)
    )
    names = [trace.name for trace in figure.data]
    for head in range(heads):
        trace = figure.data[names.index(f"softmax weights · head {head + 1}")]
        assert np.asarray(trace.z).shape == (48, 48)
        assert trace.y[0] == "52 · t52" and trace.x[0] == "0 · t0"
        np.testing.assert_array_equal(np.asarray(trace.z), weights[head, 52:100, 0:48])


def test_the_map_shows_block_maxima_outlines_the_window_and_clicks_land_on_a_blocks_first_token():
    T = 512
    weights = np.zeros((T, T), dtype=np.float32)
    weights[np.arange(T), 0] = 1.0  # every query reads the first token
    window = window_around(T, 400, 300)
    figure = window_map_figure(weights, window, "weights", 2, WORDS)
    spec = json.loads(figure.to_json())
    values = [trace for trace in spec["data"] if trace.get("hovertemplate")][0]
    z = np.array(figure.data[-1].z, dtype=np.float32)
    assert z.shape == (64, 64) and np.all(z[:, 0] == 1.0) and z[:, 1:].max() == 0.0
    assert values["meta"] == {"head": 2, "step": 8}
    rect = spec["layout"]["shapes"][0]
    assert (rect["x0"], rect["x1"], rect["y0"], rect["y1"]) == (275.5, 323.5, 375.5, 423.5)
    assert values["x"][0] == 3.5 and values["x"][-1] == 507.5, "block i's centre: 8i + 3.5 tokens"
    assert len(figure.to_json()) < 200_000


def test_the_lines_chosen_are_the_windows_strongest_and_the_rest_are_counted():
    from figures.lines import choose_lines

    weights = np.zeros((2, 6, 6), dtype=np.float32)
    weights[0, 5] = [0.5, 0.0, 0.1, 0.1, 0.0, 0.3]  # query 5 of head 1: 4 lines of at least 0.02
    weights[1, 5] = [0.0, 0.9, 0.0, 0.0, 0.05, 0.05]
    weights[0, 4, :5] = [0.2, 0.2, 0.2, 0.2, 0.2]
    choice = choose_lines(weights, heads=[0, 1], queries=[4, 5], keys=range(2, 6), threshold=0.02, max_lines=100)
    # Keys 0 and 1 lie outside: head 1 has (4, 0), (4, 1), (5, 0); head 2 has (5, 1).
    assert choice.outside == 4 and choice.cut == 0
    assert sorted(choice.lines) == sorted(
        [
            (0, 4, 2, pytest.approx(0.2)),
            (0, 4, 3, pytest.approx(0.2)),
            (0, 4, 4, pytest.approx(0.2)),
            (0, 5, 2, pytest.approx(0.1)),
            (0, 5, 3, pytest.approx(0.1)),
            (0, 5, 5, pytest.approx(0.3)),
            (1, 5, 4, pytest.approx(0.05)),
            (1, 5, 5, pytest.approx(0.05)),
        ]
    )
    capped = choose_lines(weights, heads=[0, 1], queries=[4, 5], keys=range(2, 6), threshold=0.02, max_lines=2)
    assert [line[:3] for line in capped.lines] == [(0, 5, 5), (0, 4, 2)] and capped.cut == 6, "the 0.3, then a 0.2"


def test_a_windowed_lines_figure_labels_its_columns_with_their_positions_and_says_what_it_left_out():
    from figures import lines_figure
    from figures.lines import LINES_CUT, LINES_OUTSIDE

    T = 100
    weights = np.zeros((1, T, T), dtype=np.float32)
    weights[0, np.arange(T), 0] = 1.0  # every query reads the first token only
    window = window_around(T, 80, 60, size=40)
    assert window == Window(T, 60, 40, 40)
    figure = lines_figure(weights, _labels(T), [0], WORDS, window=window)
    columns = [trace for trace in figure.data if trace.mode == "markers+text"]
    assert columns[0].customdata[0] == "60 · t60" and columns[1].customdata[-1] == "79 · t79"
    assert figure.layout.meta[LINES_OUTSIDE] == 40 and figure.layout.meta[LINES_CUT] == 0, "each query's one line"
    assert not [trace for trace in figure.data if trace.mode == "lines" and trace.x[0] is not None], "no line drawn"
    assert figure.layout.height <= 1100


def test_the_token_view_of_a_long_text_draws_the_window_around_the_token():
    from figures import token_view_figure

    T = 300
    rows = np.zeros((1, 2, T), dtype=np.float32)
    columns = np.zeros((1, 2, T), dtype=np.float32)
    rows[0, :, :201] = 1 / 201  # token 200 reads every key up to it evenly
    columns[0, :, 200:] = 0.5
    window = window_around(T, 200, 200)
    figure = token_view_figure(rows, columns, 200, _labels(T), WORDS, window=window, layer_word="ex.col.layer")
    reads = next(trace for trace in figure.data if trace.name == "layer 1 · head 1 · reads")
    read_by = next(trace for trace in figure.data if trace.name == "layer 1 · head 1 · is read by")
    assert reads.x[0] == "176 · t176" and reads.x[-1] == "200 · t200" and len(reads.y) == 25
    assert read_by.x[0] == "200 · t200" and read_by.x[-1] == "223 · t223"
    assert "200 · t200" in figure.layout.title.text
    assert figure.layout.height <= 1100
    with pytest.raises(IndexError):
        token_view_figure(rows, columns, 10, _labels(T), WORDS, window=window)


def test_the_generation_chart_of_a_long_context_draws_its_last_positions():
    from figures import generation_figure
    from figures.generation import GENERATION_POSITIONS

    context = [f"t{i}" for i in range(200)]
    row = np.full(200, 1 / 200, dtype=np.float32)
    figure = generation_figure(
        [row, np.append(row * 200 / 201, 1 / 201)], ["a", "b"], [context, [*context, "a"]], 0, 0, WORDS
    )
    trace = figure.data[0]
    assert GENERATION_POSITIONS == 64
    assert list(trace.x) == list(range(201 - 64, 201)), "the longest context's last 64 positions"
    z = np.array(trace.z, dtype=np.float32)
    np.testing.assert_allclose(z[0, :63], row[137:], rtol=1e-6)
    assert np.isnan(z[0, 63]) and z[1, 63] == pytest.approx(1 / 201)
    assert trace.text[1][63] == "a"


def test_the_combined_and_the_difference_of_a_long_text_are_windowed():
    from figures import difference_figure
    from figures.combined import combined_figure

    T = 90
    mean = np.tril(np.ones((T, T), dtype=np.float32)) / np.arange(1, T + 1, dtype=np.float32)[:, None]
    window = window_around(T, 70, 20)
    figure = combined_figure(mean, _labels(T), "mean", WORDS, window=window)
    np.testing.assert_array_equal(np.array(figure.data[0].z, dtype=np.float32), mean[42:90, 0:48])
    assert figure.data[0].y[0] == "42 · t42" and figure.data[0].meta["origin"] == [42, 0]
    a = np.stack([mean, mean])
    b = a * 2
    diff = difference_figure(a, b, _labels(T), "weights", WORDS, highlight=(70, 20), window=window)
    values = next(trace for trace in diff.data if trace.name.endswith("head 2"))
    np.testing.assert_allclose(np.array(values.z, dtype=np.float32), mean[42:90, 0:48], rtol=1e-6)
    outlines = [s for s in diff.layout.shapes if s.type == "rect" and s.xref == values.xaxis]
    assert (outlines[-1].x0, outlines[-1].y0) == (20 - 0.5, 70 - 42 - 0.5)


def test_the_boundaries_of_a_window_and_of_the_blocks():
    from gpt_core.window import block_size

    # One-token windows show the clamping itself: position 0 and the last one, whatever is asked.
    assert window_around(100, 0, 0, size=1, long_from=0) == Window(100, 0, 0, 1)
    assert window_around(100, -9999, 9999, size=1, long_from=0) == Window(100, 0, 99, 1)
    assert window_around(100, 9999, -1, size=1, long_from=0) == Window(100, 99, 99, 1)
    with pytest.raises(ValueError, match="^a window needs at least one token$"):
        window_around(0, 0, 0)
    assert block_size(6) == 1 and block_size(64) == 1 and block_size(65) == 2 and block_size(512) == 8
    blocks = block_max(np.arange(36, dtype=np.float64).reshape(6, 6))
    assert blocks.size == 1 and blocks.values.dtype == np.float32
    np.testing.assert_array_equal(blocks.values, np.arange(36).reshape(6, 6))
    for wrong in (np.zeros((4, 5)), np.zeros((2, 4, 4)), np.zeros(4)):
        with pytest.raises(ValueError, match="square"):
            block_max(wrong)


@pytest.mark.parametrize("T", [65, 128, 400, 512])
@pytest.mark.parametrize("row", [-1, 0, 30, 100, 10_000])
def test_a_long_texts_first_key_puts_the_querys_own_key_and_its_neighbours_in_the_window(T, row):
    """A long text's view with no key chosen shows keys around the query, the diagonal in
    view; the first view's query, the last, reads every key of its window (before, the last
    of 128 queries opened on keys 0–47, far from it)."""
    query = min(row % T if row < 0 else row, T - 1)  # −1: the last token; past the end: clamped
    window = window_around(T, row, first_key(T, row))
    assert window.contains(query, query), "the diagonal cell of the chosen query is drawn"
    assert list(window.queries) == list(window.keys), "queries and keys alike: the whole diagonal of the window"
    if query == T - 1:
        assert list(window.keys) == list(range(T - WINDOW_TOKENS, T)), "the 48 keys the last query reads last"


@pytest.mark.parametrize("T", [1, 6, 64])
def test_a_short_texts_first_key_is_its_first(T):
    assert first_key(T, -1) == 0 and first_key(T, T - 1) == 0
