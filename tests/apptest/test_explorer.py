"""The trained-heads explorer through AppTest: model and prompt in, the grid and the chosen
head's stages out (the numbers gpt_core.explore computes); the view in the URL and back;
this session's own model; odd links fall back with a note."""

from __future__ import annotations

import json

import numpy as np
import torch

from gpt_core import GPT, CharVocabulary, GPTConfig, RunSummary
from gpt_core.explore import trace_model
from harness.charts import assert_displays, decode, part_of, traces_by_name
from tests.apptest.conftest import open_page, open_tab
from ui.explorer.views import DETAIL_CHART_KEY, GRID_CHART_KEY, TRAINING_CHART_KEY
from ui.shared.models import MODEL_STATE, TrainedModel
from ui.shared.resources import shipped_model

PAGE = "pages/4_explorer.py"
VIEW_KEY = "ex_view"  # the open tab below the grid (lazy: only it is drawn); the link's view=


def _charts(at) -> dict[str, dict]:
    """Each chart's named traces, by the chart's key."""
    found = {}
    for chart in at.get("plotly_chart"):
        for key in (GRID_CHART_KEY, DETAIL_CHART_KEY, TRAINING_CHART_KEY):
            if chart.proto.id.endswith(key):
                found[key] = traces_by_name(json.loads(chart.proto.spec))
    return found


def _z(trace: dict, T: int) -> np.ndarray:
    return decode(trace["z"]).reshape(T, T)


def test_model_and_prompt_in_grid_and_detail_out():
    prompt = "ROMEO:\nBut soft"
    at = open_page(PAGE, model="h2", prompt=prompt, block="2", head="2")
    assert not at.exception, at.exception
    expected = trace_model(shipped_model(2).model, shipped_model(2).vocabulary, prompt)
    T = len(prompt)
    charts = _charts(at)
    grid = charts[GRID_CHART_KEY]
    assert len(grid) == 2 * 2
    for block, layer in enumerate(expected.layers):
        for head in range(2):
            trace = grid[f"block {block + 1} · head {head + 1}"]
            lower = np.tril(np.ones((T, T), dtype=bool))
            assert_displays(part_of(trace, _z(trace, T)[lower]), layer.weights[0, head].numpy()[lower])
    detail = charts[DETAIL_CHART_KEY]
    assert_displays(detail["softmax weights · head 2"], expected.layers[1].weights[0, 1].numpy())
    assert_displays(detail["raw scores QKᵀ · head 2"], expected.layers[1].scores[0, 1].numpy())


def test_the_view_goes_into_the_url_and_a_link_reproduces_it():
    at = open_page(PAGE)
    assert not at.exception
    assert at.query_params["model"] == ["h4"] or at.query_params["model"] == "h4"
    at.selectbox(key="ex_model").set_value("h8").run()
    at.selectbox(key="ex_block").set_value(2).run()
    at.selectbox(key="ex_head").set_value(7).run()
    open_tab(at, "metrics", VIEW_KEY)
    at.segmented_control(key="ex_metric").set_value("entropy").run()
    open_tab(at, "training", VIEW_KEY)
    at.select_slider(key="ex_step").set_value(100).run()
    assert not at.exception
    query = {key: (value[-1] if isinstance(value, list) else value) for key, value in at.query_params.items()}
    assert (query["model"], query["block"], query["head"], query["metric"], query["step"], query["view"]) == (
        "h8",
        "2",
        "7",
        "entropy",
        "100",
        "training",
    )
    again = open_page(PAGE, **query)
    assert not again.exception
    assert again.session_state[VIEW_KEY] == "training"  # the link's tab is the open one
    assert (
        again.selectbox(key="ex_model").value,
        again.selectbox(key="ex_block").value,
        again.selectbox(key="ex_head").value,
        again.select_slider(key="ex_step").value,
    ) == ("h8", 2, 7, 100)
    open_tab(again, "metrics", VIEW_KEY)
    assert again.segmented_control(key="ex_metric").value == "entropy"
    assert not again.warning


def test_characters_the_model_lacks_are_listed_and_long_text_is_cut():
    at = open_page(PAGE, model="h4", prompt="Héllo wörld " * 6)
    assert not at.exception
    warnings = " ".join(w.value for w in at.warning)
    assert "é" in warnings and "ö" in warnings
    assert "at most 32" in warnings, "the cut note, a warning as in the playground"


def test_an_empty_or_unreadable_prompt_is_a_clear_message():
    for prompt in ("   ", "ééé"):
        at = open_page(PAGE, prompt=prompt)
        assert not at.exception
        assert at.error and not at.get("plotly_chart")


def _tiny_model() -> TrainedModel:
    torch.manual_seed(5)
    vocabulary = CharVocabulary.from_text("abcdefgh ")
    model = GPT(GPTConfig(vocab_size=vocabulary.size, context_length=8, embedding_dim=12, heads=3, blocks=2))
    model.eval()
    run = RunSummary(heads=3, parameters=0, steps=1, wall_time=0.1, tokens_per_second=1.0, final_test_loss=None)
    return TrainedModel(model, vocabulary, "mine", "0", run, prompt_hint="abcabc")


def test_the_model_trained_in_this_session_is_explored_and_has_no_snapshots():
    at = open_page(PAGE)
    trained = _tiny_model()
    at.session_state[MODEL_STATE] = trained
    at.run()
    at.selectbox(key="ex_model").set_value("session").run()
    open_tab(at, "training", VIEW_KEY)  # the scrubber's tab: here a note instead
    assert at.query_params["model"] in ("session", ["session"])
    expected = trace_model(trained.model, trained.vocabulary, "abcabc")
    grid = _charts(at)[GRID_CHART_KEY]
    assert len(grid) == 2 * 3
    trace = grid["block 2 · head 3"]
    assert_displays(part_of(trace, _z(trace, 6)[5]), expected.layers[1].weights[0, 2, 5].numpy())
    assert any("kept no attention while it trained" in info.value for info in at.info)
    assert not at.select_slider, "no training scrubber"


def test_a_link_to_another_sessions_model_shows_h4_with_a_note():
    at = open_page(PAGE, model="session", head="3")
    assert not at.exception
    assert any("another session" in w.value and "h = 4" in w.value for w in at.warning)
    assert at.selectbox(key="ex_model").value == "h4" and at.selectbox(key="ex_head").value == 3


def test_odd_values_in_a_link_fall_back_visibly():
    at = open_page(PAGE, model="h2", head="5", block="x", step="7", metric="<b>", token="99", view="training")
    assert not at.exception
    shown = " ".join(w.value for w in at.warning)
    for name in ("head", "block", "step", "metric", "token"):
        assert name in shown, name
    assert "<b>" not in shown.replace("\\<b\\>", ""), "the odd value is shown literally, never as HTML"
    assert at.selectbox(key="ex_head").value == 1 and at.select_slider(key="ex_step").value == 1500
