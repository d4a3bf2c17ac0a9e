"""Real models in the playground and the explorer, through AppTest: the host offers tiny
GPT-2, Llama and Qwen2 models (ATTENTION_MODELS, local folders built by tests/conftest.py);
every view shows the numbers gpt_core.hf computes; the link carries the model and its layer;
a model that is not offered, or cannot be had, says so and the page works on."""

from __future__ import annotations

import json

import numpy as np
import pytest

import gpt_core.source
from gpt_core import hf
from harness.charts import assert_displays, decode, part_of, traces_by_name
from harness.file_server import unused_local_url
from tests.apptest.conftest import csv_matrix, open_page, open_tab
from ui.explorer.views import DETAIL_CHART_KEY, LAYER_CHART_KEY, MAP_CHART_KEY
from ui.playground.views import DETAIL_CHART_KEY as PG_DETAIL_KEY

PLAYGROUND = "pages/1_playground.py"
EXPLORER = "pages/4_explorer.py"
TEXT = "the cat sat on the mat 动手"
FAMILIES = ("gpt2", "llama", "qwen2")


@pytest.fixture
def offered(tiny_model_folders, monkeypatch):
    monkeypatch.setenv("ATTENTION_MODELS", ",".join(str(folder) for folder in tiny_model_folders.values()))
    return {family: f"tiny-{family}" for family in tiny_model_folders}


def _chart(at, key: str) -> dict[str, dict]:
    for chart in at.get("plotly_chart"):
        if chart.proto.id.endswith(key):
            return traces_by_name(json.loads(chart.proto.spec))
    raise AssertionError(f"no chart {key}")


def _z(trace: dict, T: int) -> np.ndarray:
    return decode(trace["z"]).reshape(T, T)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("layer", [1, 2])
def test_the_playground_shows_a_real_models_layer(family, layer, offered, tiny_models, downloads):
    at = open_page(PLAYGROUND, weights=offered[family], block=str(layer), text=TEXT, head="2")
    assert not at.exception, at.exception
    expected = hf.trace(tiny_models[family], TEXT)
    stages = expected.layers[layer - 1]
    detail = _chart(at, PG_DETAIL_KEY)
    assert_displays(detail["softmax weights · head 2"], stages.weights[0, 1].numpy())
    assert_displays(detail["raw scores QKᵀ · head 2"], stages.scores[0, 1].numpy())
    # The numbers themselves, exactly: the share tab's CSV of the head shown (the chart
    # sends them at the precision it prints).
    open_tab(at, "share")
    np.testing.assert_array_equal(csv_matrix(downloads("scores_head2.csv")), stages.scores[0, 1].numpy())
    at.selectbox(key="pg_csv_stage").set_value("weights").run()
    np.testing.assert_array_equal(csv_matrix(downloads("weights_head2.csv")), stages.weights[0, 1].numpy())
    # The model fixes heads, head_dim and the tokenizer: shown, not editable.
    assert not {"pg_heads", "pg_head_dim", "pg_seed"} & {box.key for box in at.number_input}
    assert not [radio for radio in at.radio if radio.key == "pg_tok"]
    facts = " ".join(m.value for m in at.markdown)
    assert f"h_kv = {expected.h_kv} key/value heads" in facts
    assert at.query_params["weights"] == offered[family] and at.query_params["block"] == str(layer)
    shapes = " ".join(code.value for code in open_tab(at, "shapes").code)
    assert ("repeat_kv" in shapes) == (expected.h_kv != 4)
    snippet = " ".join(code.value for code in open_tab(at, "share").code)
    assert "hf.load(" in snippet  # the snippet that recomputes these numbers


def test_a_real_models_link_reproduces_its_numbers(offered):
    at = open_page(PLAYGROUND, weights=offered["qwen2"], block="2", text=TEXT, head="3")
    again = open_page(PLAYGROUND, **dict(at.query_params))
    assert not again.exception
    first, second = _chart(at, PG_DETAIL_KEY), _chart(again, PG_DETAIL_KEY)
    assert first["softmax weights · head 3"]["z"] == second["softmax weights · head 3"]["z"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_folders_model_is_said_to_be_one_not_the_hub_model_of_its_family(offered, lang):
    at = open_page(PLAYGROUND, weights=offered["gpt2"], text=TEXT, lang=lang)
    assert not at.exception, at.exception
    said = {"en": "not the gpt2 model of the Hugging Face Hub", "zh": "不是 Hugging Face Hub 上的 gpt2 模型"}[lang]
    assert any(said in m.value and "tiny-gpt2" in m.value for m in at.markdown), [m.value for m in at.markdown]


def test_choosing_a_real_model_in_the_box_keeps_the_text(offered):
    at = open_page(PLAYGROUND, text=TEXT, tok="word")
    at.selectbox(key="pg_weights").set_value(offered["gpt2"]).run()
    assert not at.exception
    assert at.text_area(key="pg_text").value == TEXT
    assert at.query_params["weights"] == offered["gpt2"]
    assert any("The tokens as tiny-gpt2 reads them" in caption.value for caption in at.caption)


def test_a_model_the_server_does_not_offer_falls_back_with_a_note(offered):
    at = open_page(PLAYGROUND, weights="someone/elses-model", text=TEXT)
    assert not at.exception
    assert any("someone/elses\\-model" in w.value or "someone/elses-model" in w.value for w in at.warning)
    assert at.query_params["weights"] == "random"
    ex = open_page(EXPLORER, model="someone/elses-model")
    assert not ex.exception and ex.query_params["model"] == "h4"
    assert any("which is not here" in w.value for w in ex.warning)


def test_an_offered_model_that_cannot_be_downloaded_says_how_to_fetch_it(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTENTION_MODELS", "tiny-org/not-fetched")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    monkeypatch.setenv("HF_ENDPOINT", unused_local_url().rsplit("/", 1)[0])
    at = open_page(PLAYGROUND, weights="tiny-org/not-fetched", text=TEXT)
    assert not at.exception
    message = " ".join(e.value for e in at.error)
    assert "tiny-org/not-fetched" in message and "scripts/fetch_models.py" in message
    ex = open_page(EXPLORER, model="tiny-org/not-fetched", lang="zh")
    assert not ex.exception
    assert any("fetch_models.py" in e.value for e in ex.error)
    assert ex.get("plotly_chart")  # the shipped model instead: the page works on


@pytest.fixture
def mapped(monkeypatch):
    """A grid holds at most 4 heads: the tiny models (2 layers × 4 heads) open on the map, as a
    real model of 12 × 12 heads does."""
    monkeypatch.setattr(gpt_core.source, "GRID_HEADS", 4)


def test_a_tiny_real_model_opens_on_the_grid_and_a_model_past_a_screens_grid_on_the_map(offered, monkeypatch):
    """Map or grid is a rule on the heads there are (layers × heads against GRID_HEADS), not on
    where the weights come from: 2 × 4 heads fit a grid, and a shipped model past the bound maps."""
    at = open_page(EXPLORER, model=offered["gpt2"], prompt=TEXT)
    assert not at.exception, at.exception
    keys = {chart.proto.id for chart in at.get("plotly_chart")}
    assert any("ex_grid" in key for key in keys) and not any(MAP_CHART_KEY in key for key in keys), keys
    monkeypatch.setattr(gpt_core.source, "GRID_HEADS", 2)
    at = open_page(EXPLORER, model="h2", prompt="ROMEO: what")  # 2 blocks × 2 heads > 2
    assert not at.exception, at.exception
    assert _chart(at, MAP_CHART_KEY) and _chart(at, LAYER_CHART_KEY)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_explorer_maps_every_layer_and_head_of_a_real_model(family, offered, tiny_models, mapped):
    at = open_page(EXPLORER, model=offered[family], prompt=TEXT, block="2", head="3", metric="first")
    assert not at.exception, at.exception
    expected = hf.trace(tiny_models[family], TEXT)
    T = len(expected.pieces)
    layer = _chart(at, LAYER_CHART_KEY)
    lower = np.tril(np.ones((T, T), dtype=bool))
    for head in range(4):  # every head of the chosen layer (the masked half is drawn as −∞, not numbers)
        trace = layer[f"softmax weights · head {head + 1}"]
        assert_displays(part_of(trace, _z(trace, T)[lower]), expected.weights[1][0, head].numpy()[lower])
    from gpt_core.explore import head_metrics

    firsts = np.stack([head_metrics(w[0])["first"].numpy() for w in expected.weights])
    assert_displays(next(iter(_chart(at, MAP_CHART_KEY).values())), firsts, exact_atol=1e-6)
    detail = _chart(at, DETAIL_CHART_KEY)
    assert_displays(detail["raw scores QKᵀ · head 3"], expected.layers[1].scores[0, 2].numpy())
    assert at.query_params["model"] == offered[family]


def test_the_explorer_scores_induction_and_generates_token_by_token(offered, tiny_models, mapped):
    at = open_page(EXPLORER, model=offered["llama"], prompt="the cat", metric="induction", n="4", view="generate")
    assert not at.exception, at.exception
    from gpt_core.explore import induction_scores

    weights, offset = hf.induction_weights(tiny_models["llama"])
    expected = np.stack([induction_scores(w[0], hf.INDUCTION_TOKENS, offset).numpy() for w in weights])
    assert_displays(next(iter(_chart(at, MAP_CHART_KEY).values())), expected, exact_atol=1e-6)
    steps = hf.generate_tokens(tiny_models["llama"], "the cat", 4)
    generated = "the cat" + tiny_models["llama"].tokenizer.decode([step.piece.token_id for step in steps])
    assert any(code.value == generated for code in at.code)


def test_the_explorer_changes_layer_and_head_and_the_link_follows(offered):
    at = open_page(EXPLORER, model=offered["qwen2"], prompt=TEXT)
    at.selectbox(key="ex_block").set_value(2).run()
    at.selectbox(key="ex_head").set_value(4).run()
    assert not at.exception
    assert (at.query_params["block"], at.query_params["head"]) == ("2", "4")
    again = open_page(EXPLORER, **dict(at.query_params))
    assert again.selectbox(key="ex_block").value == 2 and again.selectbox(key="ex_head").value == 4


def test_first_use_downloads_the_model_once_for_every_session(monkeypatch, tmp_path):
    from harness.hub_server import serve_hub
    from harness.tiny_models import build_tiny_model

    build_tiny_model("gpt2", tmp_path / "hub" / "tiny-org" / "hub-gpt2")
    monkeypatch.setenv("ATTENTION_MODELS", "tiny-org/hub-gpt2")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    with serve_hub(tmp_path / "hub") as (endpoint, requests):
        monkeypatch.setenv("HF_ENDPOINT", endpoint)
        at = open_page(PLAYGROUND, weights="tiny-org/hub-gpt2", text=TEXT)
        assert not at.exception and not at.error
        assert any(line.startswith("GET") and line.endswith("model.safetensors") for line in requests)
        assert list((tmp_path / "cache").glob("models--tiny-org--hub-gpt2/snapshots/*/model.safetensors"))
        before = len(requests)
        other = open_page(EXPLORER, model="tiny-org/hub-gpt2", lang="zh")  # another student, another page
        assert not other.exception and other.query_params["model"] == "tiny-org/hub-gpt2"
        assert len(requests) == before  # one copy: no second download
