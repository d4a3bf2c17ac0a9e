"""The lesson's own figures: built from gpt_core's lesson numbers, valid Plotly, honest contents."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import torch

from figures import Words, parameter_figure, qkv_figure, scaling_figure, softmax_bars_figure, two_ways_figure
from gpt_core import PlaygroundConfig, build_attention, embed
from gpt_core.lesson import BOOK_TEXT, example_scores, head_by_head, parameter_counts, scaling_table

TEXT = Words(
    {
        "lsfig.heads_label": "{heads} heads",
        "lsfig.heads_axis": "heads",
        "lsfig.parameters_title": "parameters",
        "lsfig.parameters_axis": "count",
        "lsfig.query_layer": "W_q",
        "lsfig.key_layer": "W_k",
        "lsfig.value_layer": "W_v",
        "lsfig.output_layer": "out_proj",
        "lsfig.scaled": "÷ √d",
        "lsfig.unscaled": "not scaled",
        "lsfig.scaling_title": "saturation",
        "lsfig.head_dim_axis": "head_dim",
        "lsfig.max_weight_axis": "largest weight",
        "lsfig.row_title": "one row",
        "fig.key_axis": "key",
        "fig.query_axis": "query",
        "lsfig.weight_axis": "weight",
        "lsfig.two_ways_title": "two ways",
        "lsfig.batched": "batched",
        "lsfig.by_head": "head by head",
        "lsfig.channel": "channel",
        "lsfig.qkv_title": "Q, K and V",
        "lsfig.token_axis": "token",
    }
)


def _valid(figure: go.Figure) -> dict:
    go.Figure(figure.to_dict())  # raises on an invalid property (the builders skip validation)
    return figure.to_plotly_json()


def test_parameter_bars_stack_the_four_layers_to_the_same_total_for_every_head_count():
    counts = parameter_counts(64)
    spec = _valid(parameter_figure(counts, TEXT))
    assert [trace["name"] for trace in spec["data"]] == ["W_q", "W_k", "W_v", "out_proj"]
    stacked = np.sum([list(trace["y"]) for trace in spec["data"]], axis=0)
    assert stacked.tolist() == [counts[h]["total"] for h in (1, 2, 4, 8)]
    assert [a["text"] for a in spec["layout"]["annotations"]] == [f"{counts[1]['total']:,}"] * 4


def test_scaling_lines_are_the_table_and_the_softmax_bars_sum_to_one():
    rows = scaling_table(6)
    spec = _valid(scaling_figure(rows, TEXT))
    unscaled, scaled = spec["data"]
    assert list(unscaled["y"]) == [row.max_weight for row in rows]
    assert list(scaled["y"]) == [row.scaled_max_weight for row in rows]
    scores = example_scores(6, 64)
    bars = _valid(
        softmax_bars_figure(
            torch.softmax(scores, 0).numpy(), torch.softmax(scores / 8, 0).numpy(), list(BOOK_TEXT), TEXT
        )
    )
    for trace in bars["data"]:
        assert abs(sum(trace["y"]) - 1.0) < 1e-5


def test_two_ways_shows_both_outputs_on_one_colour_range():
    config = PlaygroundConfig(heads=4, head_dim=4)
    module = build_attention(config)
    x = embed(list(BOOK_TEXT), config.embedding_dim, 0, True)
    batched, by_head = module(x)[0].detach().numpy(), head_by_head(module, x)[0].detach().numpy()
    spec = _valid(two_ways_figure(batched, by_head, list(BOOK_TEXT), 4, TEXT))
    left, right = spec["data"]
    np.testing.assert_allclose(np.array(left["z"]), batched, rtol=0, atol=1e-6)
    np.testing.assert_allclose(np.array(right["z"]), by_head, rtol=0, atol=1e-6)
    assert left["zmin"] == right["zmin"] == -left["zmax"]
    assert len(spec["layout"]["shapes"]) == 2 * 4, "each head's channels marked under both heatmaps"


def _qkv(T: int = 6, d: int = 16):
    rng = np.random.default_rng(1)
    return [rng.standard_normal((T, d)) for _ in range(3)], [f"t{i}" for i in range(T)]


def test_qkv_side_by_side_on_a_wide_page_and_one_above_the_other_on_a_phone():
    (q, k, v), labels = _qkv()
    wide = _valid(qkv_figure(q, k, v, labels, TEXT, width_px=1366))["layout"]
    x = [wide[f"xaxis{a}"]["domain"] for a in ("", "2", "3")]
    assert all(x[i][1] < x[i + 1][0] for i in range(2)), "three columns, left to right"
    assert [wide[f"yaxis{a}"]["showticklabels"] for a in ("", "2", "3")] == [True, False, False], "tokens named once"
    assert qkv_figure(q, k, v, labels, TEXT).to_plotly_json()["layout"]["xaxis"]["domain"] == x[0], "no width: wide"

    phone = _valid(qkv_figure(q, k, v, labels, TEXT, width_px=350))
    layout = phone["layout"]
    assert [layout[f"xaxis{a}"]["domain"] for a in ("", "2", "3")] == [[0, 1]] * 3, "each the page's width"
    y = [layout[f"yaxis{a}"]["domain"] for a in ("", "2", "3")]
    assert y[0][0] > y[1][1] and y[1][0] > y[2][1], "Q above K above V, apart"
    assert all(layout[f"yaxis{a}"]["showticklabels"] for a in ("", "2", "3")), "each names its tokens"
    # Each token's row is 24 px: the plot's height (the layout's less its margins) gives it.
    plot_px = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
    assert abs((y[0][1] - y[0][0]) * plot_px - 6 * 24) < 1
    assert [trace["name"] for trace in phone["data"]] == ["Q", "K", "V"]
    np.testing.assert_array_equal(np.array(phone["data"][1]["z"]), k)
