"""A model whose embedding has more rows than its tokenizer has tokens (the tiny Qwen2 of
tests/conftest.py: 337 rows, 300 tokens) says, where it generates, that the 37 extra ids are
never chosen, in both languages; a model without padding says nothing of the kind."""

from __future__ import annotations

import pytest

from string_table import t
from tests.apptest.conftest import open_page
from tests.apptest.test_real_models import offered  # noqa: F401 - the fixture of the real models offered

EXPLORER = "pages/4_explorer.py"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_generation_tab_of_a_padded_model_says_its_extra_ids_are_never_chosen(offered, lang):  # noqa: F811
    at = open_page(EXPLORER, model=offered["qwen2-padded"], prompt="the cat", view="generate", n="3", lang=lang)
    assert not at.exception, at.exception
    assert not at.error
    expected = t("odds.padded", lang, rows=337, vocab=300, extra=37)  # written from the model's sizes
    assert expected in [info.value for info in at.info]


def test_a_model_without_padding_has_no_such_note(offered):  # noqa: F811
    at = open_page(EXPLORER, model=offered["gpt2"], prompt="the cat", view="generate", n="3")
    assert not at.exception, at.exception
    assert not [info for info in at.info if "padding" in info.value]
