"""The difference of two set-ups (figures/compare.py): B − A exactly, a diverging scale
centred on 0, masked cells apart, labels escaped, mismatched shapes refused; and the
overview's outline of the chosen cell."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from figures import MASKED_COLOR, difference_figure, heads_overview_figure
from figures.compare import difference, difference_range
from figures.palette import HIGHLIGHT_COLOR, SCORE_COLORSCALE
from gpt_core import PlaygroundConfig, trace_attention
from harness.charts import decode, traces_by_name
from string_table.figure_words import figure_words

TEXT = "to be or not to"
EN, ZH = figure_words("en"), figure_words("zh")


def _spec(figure) -> dict:
    return json.loads(figure.to_json())


def _pair(heads_a: int = 3, heads_b: int = 3, text: str = TEXT, **b):
    a = trace_attention(text, PlaygroundConfig(heads=heads_a, head_dim=4, seed=1, tokenizer="word"))
    b = trace_attention(text, PlaygroundConfig(heads=heads_b, head_dim=4, seed=2, tokenizer="word", **b))
    return a, b


def _values(spec: dict) -> list[dict]:
    """The value traces (not the −∞ layers, not the legend entry), in panel order."""
    return [trace for trace in spec["data"] if trace["type"] == "heatmap" and "layer" not in trace.get("meta", {})]


@pytest.mark.parametrize("stage", ["scores", "weights"])
def test_each_panel_is_b_minus_a_of_its_head_exactly(stage):
    a, b = _pair()
    ma, mb = getattr(a.trace, stage)[0].numpy(), getattr(b.trace, stage)[0].numpy()
    spec = _spec(difference_figure(ma, mb, a.labels, stage, EN))
    values = _values(spec)
    assert len(values) == 3
    T = len(a.labels)
    for head, trace in enumerate(values):
        np.testing.assert_array_equal(decode(trace["z"]).reshape(T, T), mb[head] - ma[head])
        assert trace["meta"]["head"] == head
        assert trace["name"] == f"B − A · head {head + 1}"


def test_the_colour_scale_is_diverging_and_centred_on_zero():
    a, b = _pair()
    ma, mb = a.trace.scores[0].numpy(), b.trace.scores[0].numpy()
    values = _values(_spec(difference_figure(ma, mb, a.labels, "scores", EN)))
    limit = float(np.abs(mb - ma).max())
    for trace in values:
        assert trace["zmid"] == 0.0
        assert trace["zmin"] == pytest.approx(-limit) and trace["zmax"] == pytest.approx(limit)
        assert [stop[1] for stop in trace["colorscale"]] == [stop[1] for stop in SCORE_COLORSCALE]
    assert [trace["showscale"] for trace in values] == [True, False, False], "one colour bar for every panel"


def test_equal_set_ups_differ_by_zero_and_keep_a_usable_range():
    a, _ = _pair()
    weights = a.trace.weights[0].numpy()
    diff, masked = difference(weights, weights)
    assert not masked.any() and (diff == 0).all()
    assert difference_range(diff) == 1.0


def test_masked_cells_have_no_difference_and_are_drawn_in_the_masked_colour():
    a, b = _pair()
    ma, mb = a.trace.masked_scores[0].numpy(), b.trace.masked_scores[0].numpy()
    spec = _spec(difference_figure(ma, mb, a.labels, "masked_scores", EN))
    T = len(a.labels)
    future = np.triu(np.ones((T, T), dtype=bool), 1)
    traces = traces_by_name(spec)
    values = decode(traces["B − A · head 1"]["z"]).reshape(T, T)
    layer = traces["−∞ cells · head 1"]
    assert np.isnan(values[future]).all()
    np.testing.assert_array_equal(values[~future], (mb[0] - ma[0])[~future])
    assert np.isfinite(decode(layer["z"]).reshape(T, T)[future]).all()
    assert layer["colorscale"][0][1] == MASKED_COLOR


def test_different_head_counts_are_refused_and_their_means_compared_in_one_panel():
    a, b = _pair(heads_a=2, heads_b=4)
    ma, mb = a.trace.weights[0].numpy(), b.trace.weights[0].numpy()
    with pytest.raises(ValueError, match="shapes"):
        difference_figure(ma, mb, a.labels, "weights", EN)
    means_a, means_b = ma.mean(0, keepdims=True), mb.mean(0, keepdims=True)
    spec = _spec(difference_figure(means_a, means_b, a.labels, "weights", EN, of_means=True))
    (trace,) = _values(spec)
    T = len(a.labels)
    np.testing.assert_array_equal(decode(trace["z"]).reshape(T, T), means_b[0] - means_a[0])
    assert trace["name"] == "B − A · mean of heads"
    assert "mean over heads" in spec["layout"]["title"]["text"]


def test_different_tokens_are_refused():
    a, _ = _pair()
    b = trace_attention("to be", PlaygroundConfig(heads=3, head_dim=4, tokenizer="word"))
    with pytest.raises(ValueError):
        difference_figure(a.trace.weights[0].numpy(), b.trace.weights[0].numpy(), a.labels, "weights", EN)
    with pytest.raises(ValueError, match="tokens"):
        weights = b.trace.weights[0].numpy()
        difference_figure(weights, weights, a.labels, "weights", EN)


def test_labels_are_escaped():
    text = '<b>x</b> <a href="http://e.x">y</a> <span>z</span>'
    a, b = _pair(text=text)
    spec = _spec(difference_figure(a.trace.weights[0].numpy(), b.trace.weights[0].numpy(), a.labels, "weights", EN))
    serialized = json.dumps(spec)
    for tag in ("<b>x", "<a ", "<span", "href="):
        assert tag not in serialized
    assert "&lt;" in serialized


def test_the_chosen_cell_is_outlined_in_every_panel_of_both_figures():
    a, b = _pair(heads_a=2, heads_b=3)
    diff = _spec(
        difference_figure(
            a.trace.weights[0].numpy(), a.trace.weights[0].numpy(), a.labels, "weights", ZH, highlight=(3, 1)
        )
    )
    overview = _spec(heads_overview_figure(b.trace.weights[0].numpy(), b.labels, "weights", EN, highlight=(3, 1)))
    for spec, panels in ((diff, 2), (overview, 3)):
        cells = [shape for shape in spec["layout"]["shapes"] if shape["line"]["color"] == HIGHLIGHT_COLOR]
        assert len(cells) == panels and len({shape["xref"] for shape in cells}) == panels
        assert {(shape["x0"], shape["x1"], shape["y0"], shape["y1"]) for shape in cells} == {(0.5, 1.5, 2.5, 3.5)}
    plain = _spec(heads_overview_figure(b.trace.weights[0].numpy(), b.labels, "weights", EN))
    assert not [shape for shape in plain["layout"]["shapes"] if shape["line"]["color"] == HIGHLIGHT_COLOR]


def test_chinese_words_and_valid_plotly():
    a, b = _pair()
    figure = difference_figure(
        a.trace.masked_scores[0].numpy(),
        b.trace.masked_scores[0].numpy(),
        a.labels,
        "masked_scores",
        ZH,
        highlight=(1, 0),
        focus=1,
    )
    assert "头 1" in json.dumps(_spec(figure), ensure_ascii=False)
    go.Figure(figure.to_dict())  # raises ValueError on any invalid property
