"""The playground's weights choice: random, a shipped model of the heads experiment, or the
model this session trained. With a trained model, every view shows that model's real
stream into the chosen block, proven equal to gpt_core's trace of the model."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
import torch

from gpt_core import GPT, CharVocabulary, GPTConfig, RunSummary
from gpt_core.explore import trace_model
from harness.charts import assert_displays
from tests.apptest.conftest import open_page, open_tab
from ui.shared.models import MODEL_STATE, TrainedModel
from ui.shared.resources import shipped_model

PAGE = "pages/1_playground.py"
PROMPT = "ROMEO: what light"


def _traces(at) -> dict:
    out = {}
    for chart in at.get("plotly_chart"):
        for trace in json.loads(chart.proto.spec)["data"]:
            if trace.get("name") and trace.get("type") == "heatmap":
                out[trace["name"]] = trace
    return out


def _matrix(at, name: str) -> np.ndarray:
    from harness.charts import decode

    return decode(_traces(at)[name]["z"]).astype(np.float32)


@pytest.mark.parametrize("block", [1, 2])
def test_a_shipped_model_shows_its_real_stream_into_the_chosen_block(block):
    at = open_page(PAGE, weights="h4", block=str(block), text=PROMPT, head="2")
    assert not at.exception, at.exception
    checkpoint = shipped_model(4)
    expected = trace_model(checkpoint.model, checkpoint.vocabulary, PROMPT).layers[block - 1]
    assert_displays(_traces(at)["softmax weights · head 2"], expected.weights[0, 1].numpy())
    assert_displays(_traces(at)["raw scores QKᵀ · head 2"], expected.scores[0, 1].numpy())
    # The model fixes heads and head_dim: shown, not editable; it reads characters.
    assert not {"pg_heads", "pg_head_dim", "pg_seed"} & {box.key for box in at.number_input}
    assert not [radio for radio in at.radio if radio.key == "pg_tok"]
    assert any("h = 4 heads of d = 16" in m.value for m in at.markdown)
    assert len(at.selectbox(key="pg_head").options) == 4
    assert at.query_params["weights"] == "h4" and at.query_params["block"] == str(block)


def test_characters_the_model_lacks_and_text_beyond_its_context_are_noted():
    text = "你好 ROMEO: " + "what light through yonder window breaks" * 2
    at = open_page(PAGE, weights="h2", text=text)
    assert not at.exception
    warnings = " ".join(w.value for w in at.warning)
    assert "left out: 你 好" in warnings
    assert "at most 32 characters" in warnings
    assert len(_traces(at)["softmax weights · head 1"]["x"]) == 32
    # The link carries the text up to the last character read: it reproduces the view.
    linked = at.query_params["text"]
    again = open_page(PAGE, weights="h2", text=linked)
    np.testing.assert_array_equal(_matrix(again, "softmax weights · head 2"), _matrix(at, "softmax weights · head 2"))


def test_a_text_the_model_cannot_read_gets_its_own_example_not_a_traceback():
    at = open_page(PAGE, weights="h4", text="你好世界")
    assert not at.exception
    assert not at.error and at.get("plotly_chart")  # the note and the example: test_playground_fallback_text.py


def test_a_link_to_another_sessions_model_falls_back_to_random_weights_with_a_note():
    at = open_page(PAGE, weights="session", text="abc")
    assert not at.exception
    assert any("another session" in w.value for w in at.warning)
    assert at.query_params["weights"] == "random"
    assert {"pg_heads", "pg_head_dim"} <= {box.key for box in at.number_input}


def _tiny_model() -> TrainedModel:
    torch.manual_seed(5)
    vocabulary = CharVocabulary.from_text("abcdefgh ")
    model = GPT(GPTConfig(vocab_size=vocabulary.size, context_length=8, embedding_dim=12, heads=3, blocks=2))
    model.eval()
    run = RunSummary(heads=3, parameters=0, steps=1, wall_time=0.1, tokens_per_second=1.0, final_test_loss=None)
    return TrainedModel(model, vocabulary, "mine", "0", run, prompt_hint="abc")


def test_the_model_trained_in_this_session_can_be_chosen_and_random_weights_come_back():
    at = open_page(PAGE, text="abcdefgh abc", heads="2", head_dim="3")
    trained = _tiny_model()
    at.session_state[MODEL_STATE] = trained
    at.run()
    assert "Your model" in at.selectbox(key="pg_weights").options
    at.selectbox(key="pg_weights").set_value("session").run()
    at.selectbox(key="pg_block").set_value(2).run()
    assert not at.exception, at.exception
    expected = trace_model(trained.model, trained.vocabulary, "abcdefgh").layers[1]
    assert_displays(_traces(at)["softmax weights · head 3"], expected.weights[0, 2].numpy())
    assert any("context of 8 characters" in m.value for m in at.markdown)
    assert at.query_params["weights"] == "session" and at.query_params["block"] == "2"
    at.selectbox(key="pg_weights").set_value("random").run()
    assert at.number_input(key="pg_heads").value == 2 and at.number_input(key="pg_head_dim").value == 3
    assert "softmax weights · head 3" not in _traces(at)


def test_this_sessions_models_snippet_loads_the_file_the_train_page_downloads(tmp_path, monkeypatch):
    """The snippet names the file the Train page's "Download your model" writes (gpt_mine.pt
    for a model of the corpus "mine"): saved there, it recomputes the block's numbers."""
    from ui.shared.models import checkpoint_of

    at = open_page(PAGE, text="abcdefgh", block="2")
    trained = _tiny_model()
    at.session_state[MODEL_STATE] = trained
    at.run()
    at.selectbox(key="pg_weights").set_value("session").run()
    open_tab(at, "share")
    code = next(block.value for block in at.code if "load_checkpoint" in block.value)
    assert "load_checkpoint('gpt_mine.pt')" in code, code
    (tmp_path / "gpt_mine.pt").write_bytes(checkpoint_of(trained))
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"print": lambda *args: None}
    exec(code, namespace)
    expected = trace_model(trained.model, trained.vocabulary, "abcdefgh").layers[1].weights
    assert torch.equal(namespace["trace"].weights, expected)


def test_a_shipped_models_snippet_loads_its_checkpoint_and_recomputes_the_blocks_numbers(monkeypatch):
    at = open_tab(open_page(PAGE, weights="h2", text=PROMPT, block="2"), "share")
    keys = {button.key for button in at.get("download_button")}
    assert {"pg_download_py", "pg_download_npz", "pg_download_page"} <= keys
    code = next(block.value for block in at.code if "load_checkpoint" in block.value)
    namespace: dict = {"print": lambda *args: None}
    monkeypatch.chdir(Path(__file__).resolve().parents[2])  # the snippet names the shipped file from the clone
    exec(code, namespace)
    checkpoint = shipped_model(2)
    expected = trace_model(checkpoint.model, checkpoint.vocabulary, PROMPT).layers[1].weights
    assert torch.equal(namespace["trace"].weights, expected), "block 2 of the shipped 2-head model, recomputed"


@pytest.mark.parametrize(("lang", "pattern"), [("en", r"^About (\d+\.\d) MB: "), ("zh", r"^约 (\d+\.\d) MB：")])
def test_the_share_tab_says_how_large_the_page_is_before_its_download(downloads, lang, pattern):
    """100 tokens and 6 heads: the numbers are a sixth of the page, Plotly's script the rest."""
    at = open_tab(open_page(PAGE, text="abcdefghij" * 10, tok="char", heads="6", lang=lang), "share")
    assert not at.exception, at.exception
    name = next(name for name in downloads.names if name.endswith(".html"))
    size = len(downloads(name))
    said = [float(match.group(1)) for c in at.caption if (match := re.match(pattern, c.value))]
    assert len(said) == 1, [c.value for c in at.caption]
    assert abs(said[0] * 1e6 - size) <= 0.02 * size + 0.05e6, (said, size)  # 2 %, and the rounding to 0.1 MB
