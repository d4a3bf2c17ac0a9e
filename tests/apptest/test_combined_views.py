"""The playground's views "All heads combined" and "q·k by hand", and the explorer's tab
"Heads and layers combined": their numbers are the traced ones (the mean over heads and the
rollout computed in the test from their definition), in both languages, in the link."""

from __future__ import annotations

import re

import numpy as np
import pytest

from gpt_core import PlaygroundConfig, trace_attention
from harness.charts import assert_displays, decode
from links.playground import PRESETS
from string_table import t
from tests.apptest.conftest import chart_traces, open_page, open_tab
from tests.apptest.test_explorer_views import PROMPT, chart, expected_trace
from ui.explorer.combined_view import COMBINED_CHART_KEY
from ui.playground.combined_view import ROLLOUT_CHART_KEY

PLAYGROUND = "pages/1_playground.py"
EXPLORER = "pages/4_explorer.py"  # opened on its combined tab (view=combined): only the open tab is drawn
LANGS = ("en", "zh")


def query(at) -> dict[str, str]:
    return {key: (value[-1] if isinstance(value, list) else value) for key, value in at.query_params.items()}


def square(trace: dict) -> np.ndarray:
    T = len(trace["x"])
    return decode(trace["z"]).reshape(T, T)


def heads_mean(weights) -> np.ndarray:
    """One layer's weights (h, T, T) or (1, h, T, T) averaged over its heads, written here
    (not gpt_core.explore's): the sum of the heads over their number."""
    values = np.asarray(weights, dtype=np.float64)
    heads = values.reshape(-1, *values.shape[-2:])
    return sum(heads[h] for h in range(len(heads))) / len(heads)


def rollout_by_hand(layers) -> np.ndarray:
    """Attention rollout from its definition (Abnar & Zuidema): per layer ½ mean + ½ I with
    rows renormalised, multiplied from the first layer up (R = Â_L · … · Â_1)."""
    rollout = None
    for weights in layers:
        mean = heads_mean(weights)
        mixed = 0.5 * mean + 0.5 * np.eye(len(mean))
        mixed = mixed / mixed.sum(axis=1, keepdims=True)
        rollout = mixed if rollout is None else mixed @ rollout
    return rollout


def bold_numbers(at) -> list[float]:
    """The numbers written in bold in the page's Markdown: the q·k view's sum and scaled score."""
    return [float(number) for element in at.markdown for number in re.findall(r"\*\*(-?\d+\.\d+)\*\*", element.value)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_combined_view_shows_the_heads_mean_and_the_one_layer_rollout(lang):
    at = open_page(PLAYGROUND, view="combined", lang=lang, seed="3")
    assert not at.exception, at.exception
    assert at.session_state["pg_tab"] == t("pg.tab.combined", lang)
    weights = trace_attention(PRESETS["book"], PlaygroundConfig(seed=3)).trace.weights[0]
    traces = chart_traces(at)
    mean = heads_mean(weights)
    assert_displays(traces[t("cbfig.mean", lang)], mean)
    assert_displays(traces[t("cbfig.rollout", lang)], rollout_by_hand([weights]))
    T = mean.shape[0]
    assert_displays(traces[t("cbfig.rollout", lang)], 0.5 * mean + 0.5 * np.eye(T))  # one layer: ½ mean + ½ I
    assert traces[t("cbfig.mean", lang)]["x"][0] == "0 · 动", "the other heatmaps' labels"
    text = "\n".join(element.value for element in at.markdown)
    assert t("cb.pg_rollout", lang) in text and t("cb.rollout_note", lang) in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_qk_sum_is_the_raw_score_of_the_heatmap_cell_and_scaled_by_root_d(lang):
    at = open_page(PLAYGROUND, view="qk", lang=lang, head="2", row="4", col="1")
    assert not at.exception, at.exception
    assert at.session_state["pg_tab"] == t("pg.tab.qk", lang)
    traces = chart_traces(at)
    expected = trace_attention(PRESETS["book"], PlaygroundConfig()).trace
    raw, scaled = expected.scores[0, 1, 4, 1].item(), expected.scaled_scores[0, 1, 4, 1].item()
    assert_displays(traces[f"{t('stage.scores', lang)} · {t('fig.head', lang)} 2"], expected.scores[0, 1].numpy())
    assert_displays(
        traces[f"{t('stage.scaled_scores', lang)} · {t('fig.head', lang)} 2"], expected.scaled_scores[0, 1].numpy()
    )
    total, shown_scaled = bold_numbers(at)
    assert total == pytest.approx(raw, abs=1e-4) and shown_scaled == pytest.approx(scaled, abs=1e-4)
    assert raw / np.sqrt(8) == pytest.approx(scaled, abs=1e-6)
    products = next(trace for name, trace in traces.items() if name == t("qkfig.products", lang))
    assert float(np.sum(products["y"])) == pytest.approx(raw, abs=1e-5)
    assert not at.info, "an unmasked cell: no note about the mask"
    assert any(t("pg.tab.softmax", lang) in caption.value for caption in at.caption), "points to the softmax view"


def test_without_scaling_the_score_goes_on_unchanged():
    at = open_page(PLAYGROUND, view="qk", scale="false", row="3", col="2")
    assert not at.exception, at.exception
    raw = square(chart_traces(at)["raw scores QKᵀ · head 1"])[3, 2]
    total, unchanged = bold_numbers(at)
    assert total == unchanged == pytest.approx(raw, abs=1e-4)
    assert any("Scaling is off" in element.value for element in at.markdown)


@pytest.mark.parametrize("lang", LANGS)
def test_a_masked_cell_shows_its_score_and_says_the_mask_sets_it_to_minus_infinity(lang):
    at = open_page(PLAYGROUND, view="qk", lang=lang, row="1", col="4")
    assert not at.exception and not at.error, (at.exception, at.error)
    raw = square(chart_traces(at)[f"{t('stage.scores', lang)} · {t('fig.head', lang)} 1"])[1, 4]
    assert bold_numbers(at)[0] == pytest.approx(raw, abs=1e-4), "the score exists"
    assert len(at.info) == 1 and "−∞" in at.info[0].value and t("qk.masked", lang, row=1, col=4) == at.info[0].value


@pytest.mark.parametrize("view", ["qk", "combined"])
def test_the_views_are_in_the_link_and_back(view):
    at = open_page(PLAYGROUND, seed="5")
    assert query(at)["view"] == "softmax", "the softmax calculator stays the first view opened"
    open_tab(at, view)
    assert query(at)["view"] == view
    again = open_page(PLAYGROUND, **query(at))
    assert not again.exception and again.session_state["pg_tab"] == t(f"pg.tab.{view}")
    open_tab(again, "softmax")
    assert query(again)["view"] == "softmax" and len(again.dataframe) == 1


def test_the_qk_view_follows_the_chosen_cell():
    at = open_page(PLAYGROUND, view="qk")
    at.selectbox(key="pg_row").set_value(2).run()
    at.selectbox(key="pg_col").set_value(2).run()
    raw = square(chart_traces(at)["raw scores QKᵀ · head 1"])[2, 2]
    assert bold_numbers(at)[0] == pytest.approx(raw, abs=1e-4)
    assert query(at)["view"] == "qk"


@pytest.mark.parametrize("lang", LANGS)
def test_the_explorer_combines_the_chosen_blocks_heads_or_rolls_out_all_blocks(lang):
    at = open_page(EXPLORER, view="combined", model="h4", prompt=PROMPT, block="2", lang=lang)
    assert not at.exception, at.exception
    assert t("ex.tab.combined", lang) in [tab.label for tab in at.tabs]
    layers = [layer.weights for layer in expected_trace(4).layers]
    assert len(layers) >= 2, "rolled out over more than one block: the order of the product matters"
    mean = chart(at, COMBINED_CHART_KEY)["data"][0]
    assert mean["name"] == t("cbfig.mean", lang) and query(at).get("combine", "mean") == "mean"
    assert_displays(mean, heads_mean(layers[1]))
    at.segmented_control(key="ex_combine").set_value("rollout").run()
    assert not at.exception, at.exception
    rollout = chart(at, COMBINED_CHART_KEY)["data"][0]
    assert rollout["name"] == t("cbfig.rollout", lang) and query(at)["combine"] == "rollout"
    assert_displays(rollout, rollout_by_hand(layers))
    assert any(t("cb.rollout_note", lang) == element.value for element in at.markdown), "what rollout assumes"


def test_an_explorer_link_opens_the_rollout_and_a_bad_choice_falls_back_with_a_note():
    at = open_page(EXPLORER, view="combined", model="h2", prompt=PROMPT, combine="rollout")
    assert not at.exception and at.segmented_control(key="ex_combine").value == "rollout"
    assert chart(at, COMBINED_CHART_KEY)["data"][0]["name"] == "attention rollout"
    bad = open_page(EXPLORER, view="combined", model="h2", prompt=PROMPT, combine="<b>median</b>")
    assert not bad.exception and bad.segmented_control(key="ex_combine").value == "mean"
    assert any("combine" in warning.value for warning in bad.warning), [w.value for w in bad.warning]


def test_a_trained_models_block_gives_its_own_qk_and_combined_numbers():
    at = open_page(PLAYGROUND, weights="h4", block="2", text=PROMPT, view="qk", head="3", row="6", col="5")
    assert not at.exception, at.exception
    layer = expected_trace(4).layers[1]
    assert bold_numbers(at)[0] == pytest.approx(layer.scores[0, 2, 6, 5].item(), abs=1e-4)
    assert bold_numbers(at)[1] == pytest.approx(layer.scaled_scores[0, 2, 6, 5].item(), abs=1e-4)
    open_tab(at, "combined")
    assert_displays(chart_traces(at)["mean over heads"], heads_mean(layer.weights))


@pytest.mark.parametrize("family", ["gpt2", "llama"])
def test_a_real_models_qk_and_rollout_are_its_own(family, tiny_model_folders, tiny_models, monkeypatch):
    from gpt_core import hf

    monkeypatch.setenv("ATTENTION_MODELS", ",".join(str(folder) for folder in tiny_model_folders.values()))
    text = "the cat sat on the mat"
    expected = hf.trace(tiny_models[family], text)
    layer = expected.layers[1]
    at = open_page(PLAYGROUND, weights=f"tiny-{family}", block="2", text=text, view="qk", head="2", row="3", col="1")
    assert not at.exception, at.exception
    total, scaled = bold_numbers(at)
    assert total == pytest.approx(layer.scores[0, 1, 3, 1].item(), abs=1e-4)
    assert scaled == pytest.approx(layer.scaled_scores[0, 1, 3, 1].item(), abs=1e-4)
    explorer = open_page(EXPLORER, view="combined", model=f"tiny-{family}", prompt=text, combine="rollout")
    assert not explorer.exception, explorer.exception
    rollout = chart(explorer, COMBINED_CHART_KEY)["data"][0]
    assert_displays(rollout, rollout_by_hand(list(expected.weights)))
    assert "layers" in chart(explorer, COMBINED_CHART_KEY)["layout"]["title"]["text"], "a real model has layers"


@pytest.mark.parametrize("lang", LANGS)
def test_the_playgrounds_rollout_of_a_two_layer_model_runs_through_both_layers(
    lang, tiny_model_folders, tiny_models, monkeypatch
):
    from gpt_core import hf

    monkeypatch.setenv("ATTENTION_MODELS", ",".join(str(folder) for folder in tiny_model_folders.values()))
    text = "the cat sat on the mat"
    layers = list(hf.trace(tiny_models["gpt2"], text).weights)
    assert len(layers) == 2, "the tiny GPT-2 has two layers"
    assert not np.allclose(rollout_by_hand(layers), rollout_by_hand(layers[:1]), atol=1e-4), "the second layer counts"
    at = open_page(PLAYGROUND, weights="tiny-gpt2", block="1", text=text, view="combined", lang=lang)
    assert not at.exception, at.exception
    traces = chart_traces(at)
    assert_displays(traces[t("cbfig.mean", lang)], heads_mean(layers[0]))
    assert_displays(traces[t("cbfig.rollout", lang)], rollout_by_hand(layers))
    title = chart(at, ROLLOUT_CHART_KEY)["layout"]["title"]["text"]
    assert t("ex.combined_rollout_title", lang, blocks=2, units=t("cb.layers", lang)) in title
    text_shown = "\n".join(element.value for element in at.markdown)
    where = t("ex.layer_n", lang, n=1)
    assert t("cb.pg_rollout_layers", lang, blocks=2, units=t("cb.layers", lang), where=where) in text_shown


def test_a_long_sum_is_written_out_for_its_first_channels_and_counts_the_rest():
    at = open_page(PLAYGROUND, view="qk", head_dim="16", lang="zh")
    assert not at.exception, at.exception
    raw = square(chart_traces(at)["原始分数 QKᵀ · 头 1"])[5, 0]
    assert bold_numbers(at)[0] == pytest.approx(raw, abs=1e-4)
    assert any(t("qk.more_terms", "zh", more=8) in element.value for element in at.markdown)
    assert any("√16" in element.value for element in at.markdown)
