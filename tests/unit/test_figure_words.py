"""Figure words by key (figures/words.py): every key a figure reads is declared, exists in
both languages and is filled by one function; a figure cannot read a word nobody filled."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from figures import FIGURE_WORDS, Words
from figures.words import LAYERS, METRICS, STAGE_WORDS
from string_table import LANGUAGES, has_text, t
from string_table.figure_words import figure_words

FIGURES = Path(__file__).resolve().parents[2] / "figures"
# text["fig.head"], text['fig.head'] and the keys built from a name: text[f"stage.{stage}"]
LITERAL_KEY = re.compile(r"""\btext\[(["'])([a-z_.]+)\1\]""")
BUILT_KEY = re.compile(r"""\btext\[f(["'])([a-z_.]+)\.\{([a-z_]+)\}\1\]""")
BUILT = {
    "stage": STAGE_WORDS,
    "ex.metric": tuple(f"ex.metric.{m}" for m in METRICS),
    "lsfig": tuple(f"lsfig.{layer}" for layer in LAYERS),
}


def _keys_read_by_figures() -> dict[str, set[str]]:
    read: dict[str, set[str]] = {}
    for path in FIGURES.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        keys = {match.group(2) for match in LITERAL_KEY.finditer(source)}
        for match in BUILT_KEY.finditer(source):
            keys.update(BUILT[match.group(2)])
        if keys:
            read[path.name] = keys
    return read


def test_figures_read_their_words_by_key_only_from_the_declared_list():
    read = _keys_read_by_figures()
    readers = {"attention.py", "grid.py", "metrics.py", "generation.py", "lines.py", "training.py", "lesson.py"}
    assert readers <= set(read)
    for module, keys in read.items():
        assert keys <= set(FIGURE_WORDS), (module, sorted(keys - set(FIGURE_WORDS)))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_figure_word_is_in_the_table_in_both_languages(lang):
    for key in FIGURE_WORDS:
        assert has_text(key), f"{key} is not in string_table/"
        assert t(key, lang).strip(), f"{key} is empty in {lang}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_function_fills_every_key(lang):
    words = figure_words(lang)
    assert set(words) == set(FIGURE_WORDS)
    assert all(words[key] == t(key, lang) for key in FIGURE_WORDS)


def test_the_languages_differ_where_they_should():
    en, zh = figure_words("en"), figure_words("zh")
    assert en["fig.head"] != zh["fig.head"] and en["stage.weights"] != zh["stage.weights"]


def test_a_word_nobody_filled_names_its_key():
    with pytest.raises(KeyError, match="fig.nonexistent"):
        Words({"fig.head": "head"})["fig.nonexistent"]
