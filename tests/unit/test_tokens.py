"""Tokenizers and display labels: every token visible, every position kept."""

from __future__ import annotations

import pytest

from gpt_core import InputError, char_tokens, display_label, display_labels, tokenize, word_tokens


def test_book_example_is_six_character_tokens():
    assert char_tokens("动手学大模型") == ["动", "手", "学", "大", "模", "型"]


def test_char_tokens_are_nfc_normalized():
    decomposed = "cafe\u0301"
    assert char_tokens(decomposed) == ["c", "a", "f", "é"]


def test_repeated_tokens_stay_separate_positions():
    assert char_tokens("aaa") == ["a", "a", "a"]
    assert display_labels(["a", "a"]) == ["a", "a"]


def test_word_tokens_split_words_punctuation_and_cjk_characters():
    assert word_tokens("Hello, world!") == ["Hello", ",", "world", "!"]
    assert word_tokens("动手学 大模型") == ["动", "手", "学", "大", "模", "型"]
    assert word_tokens("  \n\t ") == []


def test_unknown_tokenizer_is_a_readable_error():
    with pytest.raises(InputError, match="tokenizer must be one of"):
        tokenize("abc", "bpe")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("token", "label"),
    [
        (" ", "␣"),
        ("\n", "⏎"),
        ("\t", "⇥"),
        ("\r", "␍"),
        ("\u200d", "U+200D"),  # zero-width joiner
        ("\u200b", "U+200B"),  # zero-width space
        ("\u202e", "U+202E"),  # right-to-left override
        ("\u2066", "U+2066"),  # left-to-right isolate
        ("\x00", "U+0000"),
        ("\x1b", "U+001B"),
        ("\u00a0", "U+00A0"),  # no-break space
        ("\u0301", "◌\u0301"),  # lone combining mark
        ("", "∅"),
        ("a", "a"),
        ("😀", "😀"),
        ("م", "م"),
    ],
)
def test_invisible_and_control_characters_get_visible_labels(token, label):
    assert display_label(token) == label


def test_every_label_of_a_hostile_text_is_visible():
    text = "a\u200b\u202e\x07 \n<b>x</b>😀\u0301"
    for label in display_labels(char_tokens(text)):
        assert label.strip() == label and label != ""
        assert not any(ord(c) < 32 for c in label)


def test_position_labels_read_left_to_right_even_for_right_to_left_tokens():
    from gpt_core import position_label

    assert position_label(3, "a") == "3 · a"
    arabic = position_label(0, "م")
    assert arabic.startswith("\u200e0 · ") and arabic.endswith("\u2068م\u2069")
    assert position_label(1, "שלום").count("\u2069") == 1


def test_a_combining_mark_keeps_its_base_and_gets_a_dotted_circle_only_alone():
    assert display_label("q\u0301") == "q\u0301", "no precomposed q́: the mark sits on its own base"
    assert display_label("\u0301") == "◌\u0301"
    assert display_labels(char_tokens("q\u0301")) == ["q", "◌\u0301"]


def test_a_label_mixing_left_to_right_and_right_to_left_letters_is_isolated():
    from gpt_core import position_label

    label = position_label(2, "aم")
    assert label == "\u200e2 · \u2068aم\u2069"
    assert position_label(12, "a1") == "12 · a1", "no isolation without right-to-left letters"


@pytest.mark.parametrize("tokenizer", ["char", "word"])
def test_tokenize_dispatches_to_the_named_tokenizer(tokenizer):
    text = "Hi, 世界 e\u0301!"
    expected = char_tokens(text) if tokenizer == "char" else word_tokens(text)
    assert tokenize(text, tokenizer) == expected
    assert tokenize(text) == char_tokens(text), "the default tokenizer is char"


def test_an_unknown_tokenizer_error_names_the_choices():
    with pytest.raises(InputError) as info:
        tokenize("abc", "bpe")  # type: ignore[arg-type]
    assert info.value.code == "unknown_choice"
    assert info.value.params["choices"] == ["char", "word"] and info.value.params["value"] == "bpe"


def test_a_text_of_exactly_the_limit_is_kept_whole_with_its_trailing_space():
    from gpt_core.tokens import truncate_text

    assert truncate_text("the cat ", "word", 2) == "the cat "
    assert truncate_text("the cat sat", "word", 2).rstrip() == "the cat"
