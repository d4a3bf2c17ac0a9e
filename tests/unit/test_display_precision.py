"""Heatmaps are sent at the precision they print: every hover and written value prints the
same text as the exact number would, and the colour moves by far less than one of 256
levels. The exact numbers stay in the figure built (its table, alt text and downloads).

What the browser prints is computed here as plotly.js does it: d3-format's fixed type,
which is JavaScript's ``toFixed`` of the absolute value (ties away from zero, on the exact
binary value) and a sign that a negative rounding to zero loses unless ``+`` is asked for.
"""

from __future__ import annotations

import base64
import zlib

import numpy as np
import pytest
import torch

from figures import head_detail_figure, heads_overview_figure
from figures.display_precision import at_display_precision, display_trace, display_traces, shown_decimals
from figures.wire import wire_dict
from gpt_core import PlaygroundConfig, trace_attention
from harness.charts import d3_fixed
from string_table.figure_words import figure_words


def printed(values: np.ndarray, decimals: int, plus: bool = False) -> list[str]:
    return [d3_fixed(float(v), decimals, plus) for v in np.asarray(values, dtype=np.float32).ravel()]


def test_the_browser_printing_as_emulated_here_matches_javascript_on_known_cases():
    assert d3_fixed(0.125, 2) == "0.13"  # an exact tie: JavaScript rounds it up
    assert d3_fixed(float(np.float32(0.1235)), 3) == "0.123"  # float32 0.1235 is 0.12349999...
    assert d3_fixed(-0.00001, 4) == "0.0000" and d3_fixed(-0.00001, 4, plus=True) == "−0.0000"
    assert d3_fixed(-1.23456, 4) == "−1.2346"


# Values on and around the ties of 2, 3 and 4 decimals, where rounding twice would go wrong.
HARD = np.array(
    [
        0.12349,
        0.1234999,
        0.12345,
        0.123450001,
        0.125,
        0.12499999,
        0.1250001,
        0.00005,
        0.00004999,
        -0.00004,
        -0.00005,
        -0.12345,
        0.99995,
        0.999949,
        1.0,
        0.0,
        -0.0,
        15.99995,
        17.12345,
        300.12345,
        1e-9,
        np.nan,
    ],
    dtype=np.float32,
)


@pytest.mark.parametrize("decimals", [[4], [4, 2], [4, 3], [2], [6, 4], [4, 4, 2]])
def test_every_format_prints_the_same_text_for_the_sent_value_as_for_the_exact_one(decimals):
    generator = np.random.default_rng(7)
    values = np.concatenate(
        [HARD, generator.normal(0, 3, 20_000).astype(np.float32), generator.random(20_000).astype(np.float32)]
    )
    sent = at_display_precision(values, decimals)
    assert sent.dtype == np.float32 and sent.shape == values.shape
    for shown in set(decimals):
        for plus in (False, True):
            assert printed(sent, shown, plus) == printed(values, shown, plus), (shown, plus)


def test_a_sent_value_lies_within_one_finest_digit_has_a_shorter_mantissa_and_nan_stays_nan():
    values = np.random.default_rng(3).normal(0, 2, (64, 64)).astype(np.float32)
    values[np.triu_indices(64, 1)] = np.nan
    sent = at_display_precision(values, [4, 2])
    assert np.array_equal(np.isnan(sent), np.isnan(values))
    finite = ~np.isnan(values)
    assert np.abs(sent[finite].astype(np.float64) - values[finite]).max() < 1e-4
    trailing_zeros = [(int(bits) & -int(bits)).bit_length() - 1 for bits in sent[finite].view(np.uint32) if bits]
    assert np.median(trailing_zeros) >= 8, "most mantissas end in 8 zero bits or more"


def test_what_a_trace_prints_decides_its_precision():
    assert shown_decimals({"hovertemplate": "%{y} %{x}: %{z:.4f}", "texttemplate": "%{z:.2f}"}) == [4, 2]
    assert shown_decimals({"hovertemplate": "%{z:+.4f}<extra></extra>"}) == [4]
    assert shown_decimals({"hovertemplate": "masked<extra></extra>"}) == []
    assert shown_decimals({"hovertemplate": "%{z}"}) is None, "every digit printed"
    assert shown_decimals({"hovertemplate": "%{z:.3e}"}) is None
    assert shown_decimals({"hovertemplate": "%{z:.4f}", "texttemplate": "%{z:,}"}) is None
    assert shown_decimals({"type": "heatmap"}) is None, "Plotly's own hover prints every digit"
    exact = np.array([[0.123456789]], dtype=np.float32)
    assert display_trace({"type": "heatmap", "z": exact})["z"] is exact
    shortened = display_trace({"type": "heatmap", "z": exact, "hovertemplate": "%{z:.3f}"})["z"]
    assert printed(shortened, 3) == ["0.123"] and shortened[0, 0] != exact[0, 0]


def _decoded(spec: dict) -> np.ndarray:
    array = np.frombuffer(base64.b64decode(spec["bdata"]), dtype=np.dtype(spec["dtype"]))
    return array.reshape([int(n) for n in spec["shape"].split(",")]) if "shape" in spec else array


def _torch_weights(text: str, heads: int, head_dim: int, seed: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    torch.manual_seed(0)
    result = trace_attention(text, PlaygroundConfig(heads=heads, head_dim=head_dim, seed=seed))
    trace = result.trace
    q, k = trace.queries_heads[0].double(), trace.keys_heads[0].double()  # (h, T, d)
    scores = q @ k.transpose(-1, -2) / head_dim**0.5
    T = scores.shape[-1]
    masked = scores.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), 1), float("-inf"))
    return result.labels, scores.numpy(), torch.softmax(masked, dim=-1).numpy()


def _printed_formats(trace: dict) -> list[tuple[int, bool]]:
    forms = []
    for name in ("hovertemplate", "texttemplate"):
        for part in str(trace.get(name, "")).split("%{z:")[1:]:
            form = part.split("}")[0]
            forms.append((int(form.split(".")[1][:-1]), form.startswith("+")))
    return forms


def test_the_overview_sent_prints_torchs_weights_colours_them_within_a_level_and_deflates_smaller():
    labels, _, weights = _torch_weights("the cat sat on the mat and", 4, 8, seed=11)
    figure = heads_overview_figure(weights.astype(np.float32), labels, "weights", figure_words("en"))
    built = wire_dict(figure)
    sent = wire_dict(figure, display=True)
    heatmaps = [(a, b) for a, b in zip(built["data"], sent["data"], strict=True) if a.get("type") == "heatmap"]
    assert len(heatmaps) == 4
    for head, (exact_trace, sent_trace) in enumerate(heatmaps):
        exact, shown = _decoded(exact_trace["z"]), _decoded(sent_trace["z"])
        np.testing.assert_allclose(exact, weights[head], atol=1e-6)  # the figure built stays exact
        assert np.all(exact[np.triu_indices(len(labels), 1)] == 0), "masked cells exactly 0"
        forms = _printed_formats(sent_trace)
        assert forms, "the hover prints the weight"
        for decimals, plus in forms:
            assert printed(shown, decimals, plus) == printed(weights[head], decimals, plus)
        span = sent_trace.get("zmax", 1.0) - sent_trace.get("zmin", 0.0)
        assert np.nanmax(np.abs(shown - weights[head])) / span < 1 / 512, "under half of one of 256 levels"
    exact_bytes = sum(len(zlib.compress(t["z"]["bdata"].encode())) for t, _ in heatmaps)
    sent_bytes = sum(len(zlib.compress(t["z"]["bdata"].encode())) for _, t in heatmaps)
    assert sent_bytes < 0.8 * exact_bytes, (sent_bytes, exact_bytes)


def test_the_detail_sent_prints_torchs_scores_and_written_values():
    labels, scores, weights = _torch_weights("attn", 2, 8, seed=5)
    T = len(labels)
    above = np.triu(np.ones((T, T), dtype=bool), 1)
    truth = {
        "scores": scores[1] * 8**0.5,
        "scaled_scores": scores[1],
        "masked_scores": np.where(above, np.nan, scores[1]),
        "weights": weights[1],
    }
    stages = {stage: np.where(above, -np.inf, v) if stage == "masked_scores" else v for stage, v in truth.items()}
    words = figure_words("en")
    figure = head_detail_figure({s: v.astype(np.float32) for s, v in stages.items()}, labels, 1, words)
    sent = wire_dict(figure, display=True)
    checked = set()
    for trace in sent["data"]:
        stage = next((s for s in truth if trace.get("name") == f"{words[f'stage.{s}']} · {words['fig.head']} 2"), None)
        if trace.get("type") != "heatmap" or stage is None:
            continue
        shown = _decoded(trace["z"])
        cells = ~np.isnan(shown)
        assert np.array_equal(cells, ~np.isnan(truth[stage])), stage
        forms = _printed_formats(trace)
        assert (4, False) in forms and len(forms) == 2, "the hover and the written value"
        for decimals, plus in forms:
            assert printed(shown[cells], decimals, plus) == printed(truth[stage][cells], decimals, plus), stage
        checked.add(stage)
    assert checked == set(truth)


def test_zero_stays_exactly_zero_and_a_small_value_is_not_sent_as_zero():
    """A masked weight is exactly 0 in the browser too; a weight too small to print is still
    more than 0 (the softmax gives no unmasked key exactly nothing)."""
    values = np.array([0.0, -0.0, 1e-7, 3e-5, -2e-6, 0.4, -np.inf, np.inf], dtype=np.float32)
    sent = at_display_precision(values, [4])
    assert sent[0] == 0 and not np.signbit(sent[0]) and sent[1] == 0 and np.signbit(sent[1])
    assert np.all(sent[2:4] > 0) and sent[4] < 0
    assert sent[6] == -np.inf and sent[7] == np.inf, "a masked score stays −∞"
    assert printed(sent[:6], 4) == printed(values[:6], 4)


def test_a_figures_heatmaps_made_in_one_pass_are_sent_as_each_alone():
    """``display_traces`` groups heatmaps printed alike; each trace comes out as
    ``display_trace`` makes it alone: other decimals, another shape, float64, NaN, a trace
    printed with every digit, and one that is no heatmap."""
    rng = np.random.default_rng(5)
    weights = rng.random((6, 6)).astype(np.float32)
    weights[0, 1:] = 0.0
    scores = (rng.standard_normal((4, 9)) * 3).astype(np.float64)
    scores[2, 3] = np.nan
    traces = [
        {"type": "heatmap", "z": weights, "hovertemplate": "%{z:.4f}"},
        {"type": "heatmap", "z": scores, "hovertemplate": "%{z:.2f}", "texttemplate": "%{z:.1f}"},
        {"type": "scatter", "y": np.arange(3.0)},
        {"type": "heatmap", "z": weights.T.copy(), "hovertemplate": "%{z:.4f}", "name": "second of the first kind"},
        {"type": "heatmap", "z": weights, "hovertemplate": "%{z}"},
    ]
    together = display_traces(traces)
    assert [sorted(trace) for trace in together] == [sorted(trace) for trace in traces], "every property kept"
    for made, trace in zip(together, traces, strict=True):
        alone = display_trace(trace)
        if "z" in trace:
            assert made["z"].shape == trace["z"].shape
            np.testing.assert_array_equal(made["z"], alone["z"])  # bit for bit, NaN where NaN
            assert made["z"].dtype == alone["z"].dtype
        else:
            assert made is trace
    assert together[4] is traces[4], "a z printed with every digit is sent exact"
    assert not np.array_equal(together[0]["z"], weights), "the first kind was made to its precision"
