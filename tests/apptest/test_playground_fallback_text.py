"""A model chosen while the box holds a text it cannot read shows the model's own example
instead, with a note in the student's language; the student's text stays in the box."""

from __future__ import annotations

import json

import pytest
import torch

from gpt_core import GPT, CharVocabulary, GPTConfig, RunSummary
from gpt_core.explore import trace_model
from harness.charts import assert_displays
from tests.apptest.conftest import open_page
from ui.shared.models import MODEL_STATE, TrainedModel
from ui.shared.resources import shipped_experiment, shipped_model

PAGE = "pages/1_playground.py"
BOOK_EXAMPLE = "动手学大模型"  # the playground's default text: no character of Tiny Shakespeare
NOTE = {"en": "cannot read your text", "zh": "读不了你的文字"}
FIRST_HEAD = {"en": "softmax weights · head 1", "zh": "softmax 权重 · 头 1"}  # the chart's trace of head 1
KEPT = {"en": "Your text stays in the box", "zh": "你的文字还在上面的输入框里"}


def _weights(at, lang: str = "en") -> dict:
    """The trace of head 1's softmax weights."""
    for chart in at.get("plotly_chart"):
        for trace in json.loads(chart.proto.spec)["data"]:
            if trace.get("name") == FIRST_HEAD[lang] and trace.get("type") == "heatmap":
                return trace
    raise AssertionError("no softmax chart of head 1")


def _session_model() -> TrainedModel:
    torch.manual_seed(7)
    vocabulary = CharVocabulary.from_text("abcdefgh ")
    model = GPT(GPTConfig(vocab_size=vocabulary.size, context_length=8, embedding_dim=12, heads=3, blocks=2))
    model.eval()
    run = RunSummary(heads=3, parameters=0, steps=1, wall_time=0.1, tokens_per_second=1.0, final_test_loss=None)
    return TrainedModel(model, vocabulary, "mine", "0", run, prompt_hint="bad cab")


def _fell_back(at, lang: str, student_text: str, shown: str, named: str) -> None:
    """The page drew ``shown`` instead of ``student_text``, its note naming it (``named``: a
    part of it as the note writes it, on one line)."""
    assert not at.exception, at.exception
    assert not at.error, [error.value for error in at.error]
    notes = " ".join(warning.value for warning in at.warning)
    assert NOTE[lang] in notes and KEPT[lang] in notes and named in notes, notes
    assert at.text_area(key="pg_text").value == student_text  # kept to edit
    assert at.query_params["text"] == shown  # the link reproduces what is drawn


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_shipped_model_shows_its_own_example_for_a_text_it_cannot_read(lang):
    at = open_page(PAGE, weights="h4", text="你好世界", lang=lang)
    checkpoint = shipped_model(4)
    own = shipped_experiment().snapshot_prompt[: checkpoint.model.config.context_length]
    _fell_back(at, lang, "你好世界", own, "But soft, what light")
    expected = trace_model(checkpoint.model, checkpoint.vocabulary, own).layers[0].weights[0, 0].numpy()
    assert_displays(_weights(at, lang), expected)


def test_the_sessions_model_shows_its_own_prompt_for_the_book_example():
    at = open_page(PAGE)
    assert at.text_area(key="pg_text").value == BOOK_EXAMPLE
    trained = _session_model()
    at.session_state[MODEL_STATE] = trained
    at.run()
    at.selectbox(key="pg_weights").set_value("session").run()
    _fell_back(at, "en", BOOK_EXAMPLE, "bad cab", "“bad cab”")
    expected = trace_model(trained.model, trained.vocabulary, "bad cab").layers[0].weights[0, 0].numpy()
    assert_displays(_weights(at), expected)
    # A text the model can read is drawn as soon as the student writes it.
    at.text_area(key="pg_text").set_value("ace").run()
    assert not at.exception and not at.error
    assert "cannot read your text" not in " ".join(warning.value for warning in at.warning)
    assert at.query_params["text"] == "ace"
