"""Every select box whose options are the tokens, the model's layers or words of the page's
language shows, after a change of tokens, model or language, the label of the value it holds
now. A browser keeps a box's shown label until a run sends it one (the proto's ``set_value``
with ``raw_value``): AppTest re-labels every run, so these tests read what the run sent."""

from __future__ import annotations

import torch

from gpt_core import GPT, CharVocabulary, GPTConfig, RunSummary
from tests.apptest.conftest import open_page, open_tab
from ui.shared.models import MODEL_STATE, TrainedModel

PLAYGROUND = "pages/1_playground.py"
EXPLORER = "pages/4_explorer.py"


def shown(at, key: str, before: str) -> str:
    """The label a browser shows in the box ``key`` after the last run when it showed
    ``before``: the label the run sent, else the one it had."""
    box = at.selectbox(key=key)
    return box.proto.raw_value if box.proto.set_value else before


def labels(at, *keys: str) -> dict[str, str]:
    """What each box holds, by the label of its value (what a browser shows on a first visit)."""
    return {key: at.selectbox(key=key).options[at.selectbox(key=key).index] for key in keys}


def _three_block_model() -> TrainedModel:
    torch.manual_seed(3)
    vocabulary = CharVocabulary.from_text("abcdefgh ")
    model = GPT(GPTConfig(vocab_size=vocabulary.size, context_length=8, embedding_dim=12, heads=3, blocks=3))
    model.eval()
    run = RunSummary(heads=3, parameters=0, steps=1, wall_time=0.1, tokens_per_second=1.0, final_test_loss=None)
    return TrainedModel(model, vocabulary, "mine", "0", run, prompt_hint="bad cab")


def test_words_instead_of_characters_relabel_the_query_and_key_boxes():
    at = open_page(PLAYGROUND, text="the cat sat on the mat", row="3", col="1")
    before = labels(at, "pg_row", "pg_col")
    assert before == {"pg_row": "3 · ␣", "pg_col": "1 · h"}
    at.radio(key="pg_tok").set_value("word").run()
    assert not at.exception, at.exception
    assert shown(at, "pg_row", before["pg_row"]) == "3 · on"
    assert shown(at, "pg_col", before["pg_col"]) == "1 · cat"


def test_a_model_that_leaves_characters_out_relabels_the_query_box():
    # Random weights read 你 and 好; the shipped model lacks them and reads " cat".
    at = open_page(PLAYGROUND, text="你好 cat", row="3", col="1")
    before = labels(at, "pg_row", "pg_col")
    assert before == {"pg_row": "3 · c", "pg_col": "1 · 好"}
    at.selectbox(key="pg_weights").set_value("h4").run()
    assert not at.exception, at.exception
    assert shown(at, "pg_row", before["pg_row"]) == "3 · t"
    assert shown(at, "pg_col", before["pg_col"]) == "1 · c"


def test_a_model_of_three_blocks_relabels_the_block_box():
    at = open_page(PLAYGROUND, weights="h4", text="bad cab")
    at.session_state[MODEL_STATE] = _three_block_model()
    at.run()
    before = labels(at, "pg_block")["pg_block"]
    assert before == "block 1 of 2"
    at.selectbox(key="pg_weights").set_value("session").run()
    assert not at.exception, at.exception
    assert shown(at, "pg_block", before) == "block 1 of 3"


def test_the_share_tabs_boxes_follow_the_language():
    at = open_tab(open_page(PLAYGROUND, head="2"), "share")
    before = labels(at, "pg_csv_stage", "pg_csv_head", "pg_head")
    assert before["pg_head"] == "head 2"
    at.selectbox(key="language_select").set_value("zh").run()
    assert not at.exception, at.exception
    assert shown(at, "pg_head", before["pg_head"]) == "头 2"
    assert shown(at, "pg_csv_head", before["pg_csv_head"]) == labels(at, "pg_csv_head")["pg_csv_head"]
    assert shown(at, "pg_csv_head", before["pg_csv_head"]).startswith("头")
    assert before["pg_csv_stage"] == "raw scores QKᵀ"
    assert shown(at, "pg_csv_stage", before["pg_csv_stage"]) == "原始分数 QKᵀ"


def test_the_explorers_token_box_names_the_other_models_token():
    at = open_page(EXPLORER, model="h4", prompt="ROMEO: what", token="2", view="lines")
    assert not at.exception, at.exception
    before = labels(at, "ex_token", "ex_block")
    assert before["ex_token"] == "2 · M"
    at.session_state[MODEL_STATE] = _three_block_model()
    at.run()
    at.selectbox(key="ex_model").set_value("session").run()
    assert not at.exception, at.exception
    # The same prompt, read by a model that knows only "abcdefgh ": " ha" is what it keeps.
    assert shown(at, "ex_token", before["ex_token"]) == "2 · a"
    assert shown(at, "ex_block", before["ex_block"]) == "block 1"
