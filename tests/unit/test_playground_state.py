"""URL parameters of the playground: every control in, every control out, bad values noted."""

from __future__ import annotations

import pytest

from gpt_core import tokenize
from gpt_core.registry import RandomProvider, Registry
from links.playground import (
    BOOK_EXAMPLE,
    MAX_TEXT_CHARS,
    PARAMS,
    PARAMS_BY_NAME,
    PRESET_TOKENIZERS,
    PRESETS,
    VERSION_PARAM,
    defaults,
    parse_query,
    repairs,
    to_query,
)
from string_table import LANGUAGES, t

SETTINGS = Registry([RandomProvider()]).settings  # what the app's registry says of random weights

PRESET_MAX_TOKENS = 8  # a preset's tokens must be readable as axis labels on a projector


def test_no_parameters_give_the_defaults_and_no_notes():
    values, notes = parse_query({}, SETTINGS)
    assert values == defaults()
    assert values["text"] == BOOK_EXAMPLE
    assert notes == []


def test_every_control_round_trips_through_the_url():
    values = defaults() | {
        "text": "a <b>c</b> 😀",
        "tok": "word",
        "heads": 16,
        "head_dim": 64,
        "input_dim": 5,
        "seed": 2**31 - 1,
        "pos": False,
        "dropout": 0.35,
        "mode": "train",
        "bias": True,
        "scale": False,
        "head": 16,
        "stage": "masked_scores",
        "row": 3,
        "col": 2,
    }
    query = to_query(values)
    assert set(query) == {param.name for param in PARAMS} | {VERSION_PARAM}
    parsed, notes = parse_query(query, SETTINGS)
    assert parsed == values and notes == []


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("heads", "abc"),
        ("heads", "0"),
        ("heads", "17"),
        ("heads", "1.5"),
        ("heads", ""),
        ("head_dim", "100000"),
        ("head_dim", "-3"),
        ("seed", "99999999999999999999"),
        ("dropout", "nan"),
        ("dropout", "0.95"),
        ("dropout", "inf"),
        ("pos", "maybe"),
        ("tok", "bpe"),
        ("mode", "TRAIN"),
        ("stage", "<script>"),
        ("row", "-2"),
        ("col", "512"),
        ("row", "512"),
        ("text", "x" * (MAX_TEXT_CHARS + 1)),
    ],
)
def test_malformed_values_fall_back_to_the_default_with_a_note(name, raw):
    values, notes = parse_query({name: raw}, SETTINGS)
    assert values[name] == defaults()[name]
    assert len(notes) == 1
    assert notes[0].name == name and notes[0].reason == "invalid" and notes[0].allowed


def test_unknown_keys_are_noted_and_lang_is_left_to_the_shell():
    values, notes = parse_query({"utm_source": "slides", "lang": "zh"}, SETTINGS)
    assert values == defaults()
    assert [(note.name, note.reason) for note in notes] == [("utm_source", "unknown")]


def test_focused_head_beyond_the_heads_falls_back_to_head_one():
    values, notes = parse_query({"heads": "2", "head": "5"}, SETTINGS)
    assert values["heads"] == 2 and values["head"] == 1
    assert notes[0].name == "head"


def test_a_models_head_is_not_held_to_the_links_heads_which_only_random_weights_take():
    """A model's heads are its own (12 in GPT-2): its link has no heads= and its head 8 stays,
    for the page to keep inside the model once it is loaded."""
    values, notes = parse_query({"weights": "gpt2", "head": "8"}, SETTINGS)
    assert values["head"] == 8 and not [note for note in notes if note.name == "head"]
    values, _ = parse_query({"weights": "random", "head": "8"}, SETTINGS)
    assert values["head"] == 1, "random weights' link takes heads (4 by default)"


@pytest.mark.parametrize(("raw", "expected"), [("1", True), ("true", True), ("ON", True), ("0", False), ("no", False)])
def test_booleans_accept_common_words(raw, expected):
    assert parse_query({"bias": raw}, SETTINGS)[0]["bias"] is expected


def test_repeated_keys_use_the_last_value():
    assert parse_query({"heads": ["2", "3"]}, SETTINGS)[0]["heads"] == 3


@pytest.mark.parametrize(
    ("name", "stale"),
    [
        ("row", "23 · !"),
        ("col", "2 · x"),
        ("head", "头 2"),
        ("tok", "按词"),
        ("stage", "softmax 权重"),
        ("mode", "训练 train"),
        ("heads", None),
        ("pos", "1"),
        ("dropout", "0.1"),
        ("text", None),
    ],
)
def test_a_stale_label_is_replaced_by_the_last_good_value(name, stale):
    """Streamlit sends a select box's choice as its label; after the labels change an old
    label arrives as a plain string, and the control must carry on."""
    last_good = defaults() | {"row": 4, "col": 1, "head": 2, "tok": "word", "stage": "scores", "mode": "train"}
    current = dict(last_good) | {name: stale}
    assert repairs(current, last_good) == {name: last_good[name]}


def test_without_a_good_value_the_default_is_used():
    assert repairs(defaults() | {"row": "x"}, {}) == {"row": defaults()["row"]}
    assert repairs(defaults(), {}) == {}


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("heads", 17, 16),
        ("heads", 0, 1),
        ("heads", -40, 1),
        ("heads", 7, 7),
        ("head_dim", 10**9, 64),
        ("input_dim", -1, 0),
        ("seed", 2**40, 2**31 - 1),
        ("heads", None, 4),
        ("heads", 3.0, 3),
    ],
)
def test_clamp_gives_the_nearest_allowed_value(name, value, expected):
    param = PARAMS_BY_NAME[name]
    clamped = param.clamp(value)
    assert clamped == expected and type(clamped) is int
    assert param.accepts(clamped)


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_has_a_tokenizer_is_short_and_its_label_shows_its_text(name):
    tokenizer = PRESET_TOKENIZERS[name]
    assert PARAMS_BY_NAME["tok"].accepts(tokenizer)
    assert len(tokenize(PRESETS[name], tokenizer)) <= PRESET_MAX_TOKENS, "readable on a projector"
    for lang in LANGUAGES:
        assert PRESETS[name] in t(f"pg.preset.{name}", lang), lang
    assert set(PRESET_TOKENIZERS) == set(PRESETS)
