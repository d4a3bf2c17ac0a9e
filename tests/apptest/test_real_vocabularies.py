"""Real models whose vocabularies are not GPT-2's, through both pages (AppTest): a Llama with a
SentencePiece-style tokenizer (▁ for a space, <0xE5> byte pieces, BOS <s>) shows its tokens
as a byte-level model's are shown; a Qwen2 with 37 embedding rows its tokenizer has no token
for opens every tab of the explorer, never generates nor gives odds to those ids, and says
so. The tiny models are tests/conftest.py's (harness/tiny_models.py)."""

from __future__ import annotations

import json

import pytest

import gpt_core.source
from gpt_core import hf
from harness.charts import traces_by_name
from links.explorer import VIEWS
from string_table import t
from tests.apptest.conftest import open_page, open_tab
from tests.apptest.test_real_models import offered  # noqa: F401 - the fixture of the real models offered
from ui.explorer.odds_view import ODDS_CHART_KEY
from ui.explorer.views import DETAIL_CHART_KEY, GENERATION_CHART_KEY, LAYER_CHART_KEY
from ui.playground.views import DETAIL_CHART_KEY as PG_DETAIL_KEY

PLAYGROUND = "pages/1_playground.py"
EXPLORER = "pages/4_explorer.py"
SP_TEXT = "the cat café 动"
# Written by hand: the BOS, ▁ as ␣, "café" in pieces the tiny vocabulary has (é a character,
# not the byte 0xE9), 动 (not in it) as three byte pieces, each with its character.
SP_AXIS = [
    "0 · &lt;s&gt;",
    "1 · ␣the",
    "2 · ␣cat",
    "3 · ␣c",
    "4 · a",
    "5 · f",
    "6 · é",
    "7 · ␣",
    "8 · ‹e5›动",
    "9 · ‹8a›动",
    "10 · ‹a8›动",
]
PADDED_TOKENS = 300  # the padded model's tokenizer (its embedding has 337 rows)


def _chart(at, key: str) -> dict[str, dict]:
    for chart in at.get("plotly_chart"):
        if chart.proto.id.endswith(key):
            return traces_by_name(json.loads(chart.proto.spec))
    raise AssertionError(f"no chart {key}")


def _text(at) -> str:
    elements = [*at.markdown, *at.caption, *at.info, *at.warning, *at.error, *at.code]
    return " ".join(element.value for element in elements)


def test_the_playground_shows_a_sentencepiece_models_tokens(offered):  # noqa: F811
    at = open_page(PLAYGROUND, weights=offered["llama-sp"], text=SP_TEXT, block="2", head="1")
    assert not at.exception, at.exception
    assert at.query_params["weights"] == "tiny-llama-sp"
    detail = _chart(at, PG_DETAIL_KEY)
    weights = detail["softmax weights · head 1"]
    assert list(weights["x"]) == SP_AXIS and list(weights["y"]) == SP_AXIS
    assert "‹e9›" not in _text(at)
    assert any("The tokens as tiny-llama-sp reads them" in caption.value for caption in at.caption)


def test_the_explorer_shows_a_sentencepiece_models_tokens(offered, monkeypatch):  # noqa: F811
    monkeypatch.setattr(gpt_core.source, "GRID_HEADS", 4)  # its 2 × 4 heads on the map, as a real model's
    at = open_page(EXPLORER, model=offered["llama-sp"], prompt=SP_TEXT, block="2", head="3", n="3")
    assert not at.exception, at.exception
    assert at.query_params["model"] == "tiny-llama-sp"
    assert list(_chart(at, LAYER_CHART_KEY)["softmax weights · head 1"]["x"]) == SP_AXIS
    assert list(_chart(at, DETAIL_CHART_KEY)["raw scores QKᵀ · head 3"]["y"]) == SP_AXIS
    assert "‹e9›" not in _text(at)


def test_the_explorer_opens_every_tab_of_a_padded_model(offered, tiny_models):  # noqa: F811
    """Every tab opens in turn (they are lazy: only the open one is drawn): the grid with the
    detail, lines, metrics, training, generation, odds, token and combined views. The model's
    likeliest next token is one of the ids its tokenizer lacks: generation and odds choose
    among the tokenizer's only."""
    loaded = tiny_models["qwen2-padded"]
    at = open_page(
        EXPLORER,
        model=offered["qwen2-padded"],
        prompt="the cat",
        n="4",
        temp="1.5",
        seed="2",
        odds_temp="2.0",
        top_k="5",
    )
    assert not at.exception, at.exception
    assert not at.error, [error.value for error in at.error]
    for name in VIEWS:
        open_tab(at, name, "ex_view")  # no exception (open_tab asserts it)
        assert at.session_state["ex_tab"] == t(f"ex.tab.{name}"), name
        assert not at.exception, (name, at.exception)
        assert not at.error, (name, [error.value for error in at.error])
    logits = hf.trace(loaded, "the cat", logits=True).logits[0, -1]
    open_tab(at, "generate", "ex_view")
    assert int(logits.argmax()) >= PADDED_TOKENS, "the cut matters here"
    steps = hf.generate_tokens(loaded, "the cat", 4, temperature=1.5, seed=2)
    assert all(step.piece.token_id < PADDED_TOKENS for step in steps)
    generated = "the cat" + loaded.tokenizer.decode([step.piece.token_id for step in steps])
    assert any(code.value == generated for code in at.code)
    assert GENERATION_CHART_KEY in " ".join(chart.proto.id for chart in at.get("plotly_chart"))
    notes = " ".join(info.value for info in at.info)
    assert "scores for 337 token ids but its tokenizer has only 300 tokens" in notes
    open_tab(at, "odds", "ex_view")
    odds = _chart(at, ODDS_CHART_KEY)
    labels = [label for trace in odds.values() for label in trace["y"]]
    assert len(labels) == 40 and not any("&lt;id" in label or "<id" in label for label in labels)
    likeliest = hf.piece(loaded, int(logits[:PADDED_TOKENS].argmax())).label  # the tokenizer's likeliest
    assert labels[0] == f"1 · {likeliest}"
    notes = " ".join(info.value for info in at.info)
    assert "scores for 337 token ids but its tokenizer has only 300 tokens" in notes
    assert any("of 300 tokens kept" in caption.value for caption in at.caption)
    for view in ("generate", "odds"):  # both tabs say so
        zh = open_page(EXPLORER, model=offered["qwen2-padded"], prompt="the cat", lang="zh", view=view)
        assert not zh.exception, zh.exception
        assert any("它的分词器只有 300 个词元" in info.value for info in zh.info), view


def test_the_playground_opens_a_padded_model(offered):  # noqa: F811
    at = open_page(PLAYGROUND, weights=offered["qwen2-padded"], text="the cat 动", block="1", head="2")
    assert not at.exception, at.exception
    assert at.query_params["weights"] == "tiny-qwen2-padded"
    assert list(_chart(at, PG_DETAIL_KEY)["softmax weights · head 2"]["x"])[:4] == [
        "0 · t",
        "1 · h",
        "2 · e",
        "3 · ␣cat",
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_model_without_padding_shows_no_padding_note(offered, lang):  # noqa: F811
    for view in ("generate", "odds"):  # the tabs that would say so (only the open one is drawn)
        at = open_page(EXPLORER, model=offered["qwen2"], prompt="the cat", lang=lang, view=view)
        assert not at.exception, at.exception
        assert not any("300" in info.value and ("337" in info.value) for info in at.info)
        assert not any("填充" in info.value or "padding rows" in info.value for info in at.info)


@pytest.mark.parametrize("view", VIEWS)
def test_the_explorer_opens_every_tab_of_a_sentencepiece_model(offered, view):  # noqa: F811
    at = open_page(EXPLORER, model=offered["llama-sp"], prompt=SP_TEXT, view=view, n="3")
    assert not at.exception, at.exception
    assert not at.error, [error.value for error in at.error]
    assert at.query_params["view"] in (view, [view])
    assert "‹e9›" not in _text(at)
