"""The types the package's modules share: a loaded model, how its tokenizer spells, one
token as the model reads it (so that loading, reading and tracing import these, never each
other's names)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..source import Description


@dataclass(frozen=True)
class Spelling:
    """How a tokenizer spells its tokens, read once when its model is loaded (not per token)."""

    byte_level: bool  # GPT-2's byte alphabet (a ByteLevel pre-tokenizer or decoder): "Ġthe", "åĬ"
    special: frozenset[int]  # the ids of its special tokens (BOS, EOS, …)
    size: int  # len(tokenizer): ids from here on (a padded embedding's extra rows) are no token


@dataclass(frozen=True)
class Piece:
    """One token as the model reads it."""

    token_id: int
    kind: str  # "text" (whole characters), "bytes" (a piece of a character), "special" (BOS, …)
    # or "none" (an id the tokenizer has no token for: a padded embedding's extra row)
    text: str  # what it stands for: its characters, its bytes as hex, the special token's name, "<id N>"
    label: str  # a visible label: a leading space as ␣, a byte piece with its character
    source: str  # the characters of the text it was read from (a byte piece: its whole character)


@dataclass(frozen=True)
class RealModel:
    """A loaded model (eval mode, shared read-only), its tokenizer and its description."""

    model: Any  # a transformers PreTrainedModel
    tokenizer: Any
    description: Description
    folder: Path
    spelling: Spelling
