"""The string table: every UI string in every language, every core error translatable."""

from __future__ import annotations

import string

import pytest

from gpt_core import InputError
from gpt_core.errors import MESSAGES
from string_table import LANGUAGES, STRINGS, error_text, t


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", [k for k in STRINGS if not k.startswith("error.")])
def test_every_ui_string_exists_in_every_language_with_the_same_placeholders(key):
    entry = STRINGS[key]
    assert set(entry) == set(LANGUAGES), key
    assert len({frozenset(_fields(text)) for text in entry.values()}) == 1, key


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_core_error_has_a_translation_with_the_same_placeholders(code):
    entry = STRINGS[f"error.{code}"]
    for lang in LANGUAGES:
        if lang != "en":
            assert _fields(entry[lang]) == _fields(MESSAGES[code]), (code, lang)


def test_error_text_translates_and_falls_back_to_english():
    error = InputError("out_of_range", name="heads", low=1, high=16, value=40)
    assert error_text(error, "en") == str(error)
    assert "heads" in error_text(error, "zh") and "之间" in error_text(error, "zh")
    assert error_text(RuntimeError("plain"), "zh") == "plain"


def test_t_formats_params():
    assert t("app.name", "zh") == STRINGS["app.name"]["zh"]
    assert t("pg.c_equals", "en", h=4, d=8, C=32) == "C = h × d = 4 × 8 = **32**"
    assert t("pg.truncated", "zh", total=200, shown=128) == "这段文字有 200 个词元；只显示前 128 个（本页的上限）。"
    assert t("tr.done", "fr", steps=3, loss="2.5") == "Trained 3 steps: held-out loss 2.5.", "unknown language: English"


def test_every_input_error_the_core_raises_passes_exactly_its_messages_placeholders():
    """A raise site missing a placeholder would fail with KeyError instead of a message; an
    extra parameter would never reach a translation."""
    import ast
    from pathlib import Path

    import gpt_core

    sites = 0
    for path in sorted(Path(gpt_core.__file__).parent.rglob("*.py")):  # gpt_core/hf/ too
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "InputError":
                code = node.args[0].value
                assert code in MESSAGES, (path.name, node.lineno, code)
                assert {keyword.arg for keyword in node.keywords} == _fields(MESSAGES[code]), (path.name, node.lineno)
                sites += 1
    assert sites >= 20


def test_an_input_error_keeps_its_code_and_params_for_translation():
    error = InputError("dropout_range", dropout=1.5)
    assert isinstance(error, ValueError)
    assert error.code == "dropout_range" and error.params == {"dropout": 1.5}
    assert str(error) == MESSAGES["dropout_range"].format(dropout=1.5) == "dropout must be in [0, 1) (got 1.5)."
