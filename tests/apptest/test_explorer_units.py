"""A real model has layers, the book's GPT blocks: the explorer's layer box, its headings,
its captions, its buttons and its charts' names say which, in English and in Chinese."""

from __future__ import annotations

import re

import pytest

from tests.apptest.conftest import open_page
from tests.apptest.test_one_name import box_options, shown_texts
from tests.apptest.test_real_models import offered  # noqa: F401  (a fixture)
from ui.shared.resources import shipped_model

EXPLORER = "pages/4_explorer.py"
BLOCK_WORD = {"en": r"\bblocks?\b", "zh": "块"}
REAL_VIEWS = ("detail", "lines", "odds", "generate", "combined")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_real_models_explorer_says_layer_and_the_shipped_models_block(offered, lang):  # noqa: F811
    for view in REAL_VIEWS:
        at = open_page(EXPLORER, lang=lang, model=offered["gpt2"], view=view)
        assert not at.exception, at.exception
        assert box_options(at, "ex_block") == {"en": ["layer 1", "layer 2"], "zh": ["第 1 层", "第 2 层"]}[lang]
        texts = shown_texts(at)
        said = [text for text in texts if re.search(BLOCK_WORD[lang], text, flags=re.IGNORECASE)]
        assert not said, (view, said)
    real = {
        "detail": {"en": "Layer 1 · head 1: ", "zh": "第 1 层 · 头 1："},
        "odds": {"en": "What the last query read: layer 1 · head 1", "zh": "最后一个查询读了什么：第 1 层 · 头 1"},
    }
    shipped = {
        "detail": {"en": "Block 1 · head 1: ", "zh": "块 1 · 头 1："},
        "odds": {"en": "What the last query read: block 1 · head 1", "zh": "最后一个查询读了什么：块 1 · 头 1"},
    }
    blocks = shipped_model(4).model.config.blocks
    for model, headings in ((offered["gpt2"], real), ("h4", shipped)):
        for view, heading in headings.items():
            at = open_page(EXPLORER, lang=lang, model=model, view=view)
            assert any(s.value.startswith(heading[lang]) for s in at.subheader), [s.value for s in at.subheader]
    word = {"en": "block {n}", "zh": "块 {n}"}[lang]
    assert box_options(at, "ex_block") == [word.format(n=n) for n in range(1, blocks + 1)]
