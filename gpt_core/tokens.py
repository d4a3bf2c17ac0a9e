"""Tokenizers over Unicode text, and visible, safe display labels for tokens."""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

from .errors import InputError

Tokenizer = Literal["char", "word"]
TOKENIZERS: tuple[str, ...] = ("char", "word")

# Visible stand-ins for characters that would otherwise show as nothing (or move text).
_STAND_INS = {
    " ": "␣",
    "\n": "⏎",
    "\r": "␍",
    "\t": "⇥",
}
_DOTTED_CIRCLE = "◌"  # the base a lone combining mark is shown on
# Categories that draw nothing or change the layout: controls, format (zero-width, bidi),
# separators other than the plain space, private use, unassigned and surrogates.
_INVISIBLE_CATEGORIES = {"Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cn", "Cs"}
_COMBINING_CATEGORIES = {"Mn", "Me", "Mc"}

# A word is a run of letters/digits; each CJK ideograph, kana or hangul syllable, and each
# other visible symbol stands alone. Whitespace separates words and is dropped.
_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_WORD_PATTERN = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+|[^\w\s]")


def normalize(text: str) -> str:
    """NFC-normalize, so é typed as e + ◌́ is one token, as it is for the reader."""
    return unicodedata.normalize("NFC", text)


def char_tokens(text: str) -> list[str]:
    """One token per Unicode code point after NFC: ``动手学大模型`` is 6 tokens."""
    return list(normalize(text))


def word_tokens(text: str) -> list[str]:
    """Words, single CJK characters and single punctuation marks; whitespace is dropped."""
    return _WORD_PATTERN.findall(normalize(text))


def tokenize(text: str, tokenizer: Tokenizer = "char") -> list[str]:
    """Split ``text`` with the named tokenizer ("char" or "word")."""
    if tokenizer == "char":
        return char_tokens(text)
    if tokenizer == "word":
        return word_tokens(text)
    raise InputError("unknown_choice", name="tokenizer", choices=list(TOKENIZERS), value=tokenizer)


def truncate_text(text: str, tokenizer: Tokenizer, max_tokens: int) -> str:
    """The start of ``text`` (normalized) that holds its first ``max_tokens`` tokens.

    ``tokenize(truncate_text(text, tok, n), tok) == tokenize(text, tok)[:n]``.
    """
    text = normalize(text)
    if tokenizer == "char":
        return text[:max_tokens]
    matches = list(_WORD_PATTERN.finditer(text))
    if len(matches) <= max_tokens:
        return text
    return text[: matches[max_tokens - 1].end()]


def _char_label(char: str, alone: bool) -> str:
    if char in _STAND_INS:
        return _STAND_INS[char]
    category = unicodedata.category(char)
    if category in _INVISIBLE_CATEGORIES:
        return f"U+{ord(char):04X}"
    if alone and category in _COMBINING_CATEGORIES:
        return _DOTTED_CIRCLE + char
    return char


def display_label(token: str) -> str:
    """A visible label for ``token``: invisible and control characters become stand-ins.

    Space -> ␣, newline -> ⏎, tab -> ⇥, zero-width and bidirectional controls -> ``U+200D``
    and the like, a lone combining mark sits on ◌. The label is plain text (escape it
    before it reaches HTML or Plotly).
    """
    if token == "":
        return "∅"
    alone = len(token) == 1
    return "".join(_char_label(char, alone) for char in token)


_RIGHT_TO_LEFT = {"R", "AL"}
_LEFT_TO_RIGHT_MARK = "\u200e"
_FIRST_STRONG_ISOLATE, _POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"
POSITION_SEPARATOR = " · "


def position_label(position: int, label: str) -> str:
    """``"3 · a"``: a token's position and label, reading left to right even when the label
    is Arabic or Hebrew (the label is then isolated, so "3 ·" stays in front)."""
    if any(unicodedata.bidirectional(char) in _RIGHT_TO_LEFT for char in label):
        label = _FIRST_STRONG_ISOLATE + label + _POP_DIRECTIONAL_ISOLATE
        return f"{_LEFT_TO_RIGHT_MARK}{position}{POSITION_SEPARATOR}{label}"
    return f"{position}{POSITION_SEPARATOR}{label}"


def display_labels(tokens: list[str]) -> list[str]:
    """Labels for a sequence; repeated tokens keep their own positions (the caller indexes)."""
    return [display_label(token) for token in tokens]
