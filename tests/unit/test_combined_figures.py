"""The combined heatmap and the q·k chart: valid Plotly, the numbers given, labels escaped."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from figures import ChartSize
from figures.attention import trace_name
from figures.combined import combined_figure, qk_figure, qk_names
from figures.labels import axis_labels
from figures.palette import NEGATIVE_COLOR, POSITIVE_COLOR
from gpt_core import PlaygroundConfig, qk_products, trace_attention
from gpt_core.explore import attention_rollout
from harness.charts import decode
from string_table.figure_words import figure_words

EN, ZH = figure_words("en"), figure_words("zh")


@pytest.fixture(scope="module")
def result():
    return trace_attention("<b>x</b> & y", PlaygroundConfig(heads=3, head_dim=4, seed=1, tokenizer="word"))


def heatmap(figure) -> dict:
    return next(trace for trace in figure.to_dict()["data"] if trace["type"] == "heatmap")


@pytest.mark.parametrize(("kind", "words"), [("mean", EN), ("rollout", ZH)])
def test_the_combined_heatmap_is_the_matrix_with_the_other_heatmaps_labels(result, kind, words):
    weights = result.trace.weights[0]
    matrix = (weights.double().mean(0) if kind == "mean" else attention_rollout([weights])).numpy()
    figure = combined_figure(matrix, result.labels, kind, words, size=ChartSize(width_px=900))
    go.Figure(figure.to_dict())  # valid Plotly (the builders skip validation)
    trace = heatmap(figure)
    T = len(result.labels)
    np.testing.assert_array_equal(decode(trace["z"]).reshape(T, T), matrix.astype(np.float32))
    assert list(trace["x"]) == list(trace["y"]) == axis_labels(result.labels)
    assert trace["x"][0] == "0 · &lt;" and not any("<" in label for label in trace["x"]), "user text escaped"
    assert trace["name"] == words[f"cbfig.{kind}"]
    assert trace["zmin"] == 0.0 and trace["zmax"] == 1.0
    assert figure.layout.title.text == words[f"cbfig.{kind}"]


def test_the_title_is_escaped_and_a_wrong_shape_or_kind_is_refused(result):
    T = len(result.labels)
    figure = combined_figure(np.eye(T), result.labels, "mean", EN, title="<i>mean</i>")
    assert figure.layout.title.text == "&lt;i&gt;mean&lt;/i&gt;"
    with pytest.raises(ValueError, match="expected"):
        combined_figure(np.eye(T + 1), result.labels, "mean", EN)
    with pytest.raises(ValueError, match="kind"):
        combined_figure(np.eye(T), result.labels, "median", EN)


def test_the_qk_chart_holds_q_k_and_their_products_coloured_by_sign(result):
    numbers = qk_products(result.trace, 1, 3, 2)
    figure = qk_figure(numbers.q.numpy(), numbers.k.numpy(), numbers.products.numpy(), 1, "3 · <b>", "2 · y", EN)
    go.Figure(figure.to_dict())
    q_name, k_name, product_name = qk_names("3 · <b>", "2 · y", EN)
    bars = {trace.name: trace for trace in figure.data if trace.type == "bar"}
    assert set(bars) == {q_name, k_name, product_name} and "&lt;b&gt;" in q_name
    np.testing.assert_array_equal(bars[q_name].y, numbers.q.numpy())
    np.testing.assert_array_equal(bars[k_name].y, numbers.k.numpy())
    products = np.asarray(bars[product_name].y)
    assert abs(products.sum() - result.trace.scores[0, 1, 3, 2].item()) <= 1e-6
    colors = bars[product_name].marker.color
    assert all(
        color == (POSITIVE_COLOR if value >= 0 else NEGATIVE_COLOR)
        for color, value in zip(colors, products, strict=True)
    )
    assert POSITIVE_COLOR != NEGATIVE_COLOR
    assert "Head 2" in figure.layout.title.text and "&lt;b&gt;" in figure.layout.title.text
    assert trace_name("scores", 1, EN) not in bars, "its own names: no clash with the heatmaps'"


def test_the_qk_chart_refuses_vectors_of_different_lengths():
    with pytest.raises(ValueError, match="same length"):
        qk_figure([1.0, 2.0], [1.0], [1.0, 2.0], 0, "0 · a", "0 · a", EN)


def test_the_explorers_link_offers_the_kinds_the_figure_draws():
    from figures.combined import COMBINE_KINDS
    from links.explorer import COMBINE_KINDS as LINK_KINDS
    from links.explorer import PARAMS_BY_NAME

    assert LINK_KINDS == COMBINE_KINDS and PARAMS_BY_NAME["combine"].choices == COMBINE_KINDS
