"""Reading text as a real model reads it: its tokenizer's pieces, each with what it stands for
(whole characters, a piece of a character's bytes, a special token, or an id past the
tokenizer) and a label a person can read, whatever the tokenizer's spelling (GPT-2's byte
alphabet or SentencePiece's ``▁`` and ``<0x..>`` byte pieces)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import torch

from ..errors import InputError
from ..tokens import display_label
from ..window import LONGEST_TEXT_TOKENS
from .model import Piece, RealModel, Spelling

MAX_REAL_TOKENS = LONGEST_TEXT_TOKENS  # the app reads at most this many tokens of a text (or the model's context)


def _byte_decoder() -> dict[str, int]:
    """GPT-2's byte-level alphabet: the printable character that stands for each byte."""
    visible = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars = list(visible)
    extra = 0
    for byte in range(256):
        if byte not in visible:
            visible.append(byte)
            chars.append(256 + extra)
            extra += 1
    return {chr(char): byte for byte, char in zip(visible, chars, strict=True)}


_BYTE_DECODER = _byte_decoder()
_BYTE_TOKEN = re.compile(r"<0x([0-9A-Fa-f]{2})>")
_SENTENCEPIECE_SPACE = "▁"


def _types(component: Any) -> Iterator[str]:
    """The types of a tokenizers component and of the steps of a Sequence of them."""

    def walk(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            if isinstance(node.get("type"), str):
                yield node["type"]
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value)

    if component is None:
        return iter(())
    return walk(json.loads(component.__getstate__()))


def spelling(tokenizer) -> Spelling:
    """How ``tokenizer`` spells its tokens: byte-level (GPT-2, Qwen2, Llama-3, SmolLM2: a
    ByteLevel pre-tokenizer or decoder) or not (SentencePiece's ``▁the`` and ``<0xE5>``, whose
    "é" is the character é, not the byte 0xE9 of GPT-2's alphabet)."""
    backend = tokenizer.backend_tokenizer
    byte_level = any(kind == "ByteLevel" for part in (backend.pre_tokenizer, backend.decoder) for kind in _types(part))
    return Spelling(byte_level, frozenset(tokenizer.all_special_ids), len(tokenizer))


def _token_bytes(token: str, byte_level: bool) -> bytes | None:
    """The bytes a token stands for, when its spelling says: every character of a byte-level
    token (GPT-2's alphabet), a SentencePiece ``<0x..>`` byte piece. None: its characters."""
    if byte_level:
        if token and all(char in _BYTE_DECODER for char in token):
            return bytes(_BYTE_DECODER[char] for char in token)
        return None
    match = _BYTE_TOKEN.fullmatch(token)
    return bytes([int(match.group(1), 16)]) if match else None


def no_token_label(token_id: int) -> str:
    """``<id 300>``: an id the tokenizer has no token for (a padded embedding's extra row)."""
    return f"<id {token_id}>"


def piece(loaded: RealModel, token_id: int, source: str = "") -> Piece:
    """Token ``token_id`` of ``loaded``'s tokenizer as the app shows it (``source``: the
    characters of the text it was read from; a lone byte piece has none)."""
    return _piece(loaded.tokenizer, loaded.spelling, token_id, source)


def _piece(tokenizer, spelling: Spelling, token_id: int, source: str) -> Piece:
    token = tokenizer.convert_ids_to_tokens(token_id) if 0 <= token_id < spelling.size else None
    if token is None:  # past the tokenizer: a padded embedding's extra row
        label = no_token_label(token_id)
        return Piece(token_id, "none", label, label, "")
    if token_id in spelling.special:
        return Piece(token_id, "special", token, token, "")
    raw = _token_bytes(token, spelling.byte_level)
    if raw is None:  # its spelling is its text: SentencePiece's ▁ is a space
        text = token.replace(_SENTENCEPIECE_SPACE, " ")
        return Piece(token_id, "text", text, display_label(text), source)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        hex_bytes = " ".join(f"{byte:02x}" for byte in raw)
        label = f"‹{hex_bytes}›{display_label(source) if source else ''}"
        return Piece(token_id, "bytes", hex_bytes, label, source)
    return Piece(token_id, "text", text, display_label(text), source)


def read(loaded: RealModel, text: str, max_tokens: int = MAX_REAL_TOKENS) -> tuple[list[Piece], int, str]:
    """The tokens the model reads of ``text`` (its BOS included when its tokenizer adds one), at
    most its context or ``max_tokens``; how many more the text had; the text they cover."""
    if not text.strip():
        raise InputError("empty_text")
    encoded = loaded.tokenizer(text, add_special_tokens=True, return_offsets_mapping=True)
    ids, offsets = list(encoded["input_ids"]), list(encoded["offset_mapping"])
    if not ids:
        raise InputError("no_tokens", tokenizer=loaded.description.family)
    limit = min(loaded.description.context or max_tokens, max_tokens)
    special = loaded.spelling.special
    kept = ids[:limit]
    pieces = [piece(loaded, i, text[a:b]) for i, (a, b) in zip(kept, offsets[:limit], strict=True)]
    end = max((b for i, (_, b) in zip(kept, offsets[:limit], strict=True) if i not in special), default=0)
    return pieces, len(ids) - len(kept), text[:end] if len(ids) > limit else text


def token_logits(loaded: RealModel, logits: torch.Tensor) -> torch.Tensor:
    """``logits`` (..., embedding rows) restricted to the tokenizer's ids: the first
    ``len(tokenizer)``. A padded embedding's extra rows (Qwen2.5: 151,936 rows for 151,665
    tokens) are no token, so odds and generation give them no probability; the ids of the
    rest are unchanged."""
    return logits[..., : loaded.spelling.size]
