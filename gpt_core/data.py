"""Corpora and the book's character dataset: windows of context_length with a stride,
split 90/10 into train and test.

Tiny Shakespeare is read from a path the user gives (``TINY_SHAKESPEARE`` or a data
folder) or downloaded once and cached, its checksum verified. User text must be UTF-8.
Synthetic corpora need nothing downloaded.
"""

from __future__ import annotations

import hashlib
import os
import random
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import torch

from .errors import InputError

TINY_SHAKESPEARE_SHA256 = "86c4e6aa9db7c042ec79f339dcb96d42b0075e16b8fc2e86bf0ca57e2dc565ed"
TINY_SHAKESPEARE_CHARS = 1_115_394
TINY_SHAKESPEARE_URL = "https://raw.githubusercontent.com/karpathy/char-rnn/master/data/tinyshakespeare/input.txt"
TINY_SHAKESPEARE_ENV = "TINY_SHAKESPEARE"  # a path to the file
DATA_DIR_ENV = "GPT_DATA_DIR"  # a folder holding tinyshakespeare.txt
CACHE_DIR_ENV = "GPT_CACHE_DIR"  # where a downloaded corpus is kept (default ~/.cache/seeing-attention)
URL_ENV = "TINY_SHAKESPEARE_URL"  # another source for the download (a mirror, a local server)
CACHE_DIR_NAME = "seeing-attention"
TINY_SHAKESPEARE_FILE = "tinyshakespeare.txt"
DOWNLOAD_TIMEOUT_S = 30
TRAIN_FRACTION = 0.9  # the book's 90/10 split
MAX_VOCAB = 256  # distinct characters a user corpus may have (more is likely not text)
MAX_CORPUS_BYTES = 5_000_000
SYNTHETIC_KINDS = ("copy", "previous", "induction")


# --- tokenizer and dataset ---------------------------------------------------------


@dataclass(frozen=True)
class CharVocabulary:
    """Characters <-> ids, as in the book: the sorted set of the corpus's characters."""

    chars: tuple[str, ...]

    @classmethod
    def from_text(cls, text: str) -> CharVocabulary:
        return cls(tuple(sorted(set(text))))

    @property
    def size(self) -> int:
        return len(self.chars)

    def encode(self, text: str) -> list[int]:
        index = {char: i for i, char in enumerate(self.chars)}
        return [index[char] for char in text if char in index]

    def decode(self, ids: list[int]) -> str:
        return "".join(self.chars[i] for i in ids)

    def unknown(self, text: str) -> set[str]:
        """Characters of ``text`` the vocabulary does not have."""
        return set(text) - set(self.chars)


class CharDataset(torch.utils.data.Dataset):
    """Windows of ``context_length`` ids and the same shifted by one, every ``stride`` ids."""

    def __init__(self, ids: list[int] | torch.Tensor, context_length: int, stride: int | None = None) -> None:
        self.ids = torch.as_tensor(ids, dtype=torch.long)
        self.context_length = context_length
        self.stride = stride if stride is not None else max(1, context_length // 2)
        if len(self.ids) <= context_length:
            raise InputError("corpus_too_short_for_window", chars=len(self.ids), context_length=context_length)
        self.starts = torch.arange(0, len(self.ids) - context_length, self.stride)

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, index: int) -> tuple[torch.Tensor, torch.Tensor]:
        start = int(self.starts[index])
        window = self.ids[start : start + self.context_length + 1]
        return window[:-1], window[1:]

    def batch(self, indices: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(B,) window indices -> inputs and targets, both (B, context_length)."""
        offsets = self.starts[indices].unsqueeze(1) + torch.arange(self.context_length + 1)  # (B, T+1)
        windows = self.ids[offsets]
        return windows[:, :-1], windows[:, 1:]


@dataclass
class Corpus:
    """A text with its vocabulary and the train/test datasets of the book."""

    name: str
    text: str
    vocabulary: CharVocabulary
    train: CharDataset
    test: CharDataset
    sha256: str


def build_corpus(name: str, text: str, context_length: int, stride: int | None = None) -> Corpus:
    """Vocabulary from the whole text; the first 90 % trains, the last 10 % tests."""
    if not text.strip():
        raise InputError("empty_text")
    vocabulary = CharVocabulary.from_text(text)
    if vocabulary.size > MAX_VOCAB:
        raise InputError("vocab_too_large", size=vocabulary.size, limit=MAX_VOCAB)
    ids = vocabulary.encode(text)
    cut = int(len(ids) * TRAIN_FRACTION)
    train_ids, test_ids = ids[:cut], ids[cut:]
    minimum = (context_length + 1) * 10
    if len(ids) < minimum or len(test_ids) <= context_length:
        raise InputError("corpus_too_short", chars=len(ids), context_length=context_length, minimum=minimum)
    return Corpus(
        name=name,
        text=text,
        vocabulary=vocabulary,
        train=CharDataset(train_ids, context_length, stride),
        test=CharDataset(test_ids, context_length, stride),
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
    )


# --- Tiny Shakespeare ----------------------------------------------------------------


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def corpus_cache_dir() -> Path:
    """Where a downloaded corpus is kept: $GPT_CACHE_DIR, else $XDG_CACHE_HOME or ~/.cache,
    in a folder of this app's own."""
    if os.environ.get(CACHE_DIR_ENV):
        return Path(os.environ[CACHE_DIR_ENV])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / CACHE_DIR_NAME


def tiny_shakespeare_url() -> str:
    return os.environ.get(URL_ENV) or TINY_SHAKESPEARE_URL


def tiny_shakespeare_candidates() -> list[Path]:
    """Where the corpus may lie, in order: $TINY_SHAKESPEARE, $GPT_DATA_DIR, ./data, the
    download cache, ../shared/data."""
    candidates = []
    if os.environ.get(TINY_SHAKESPEARE_ENV):
        candidates.append(Path(os.environ[TINY_SHAKESPEARE_ENV]))
    if os.environ.get(DATA_DIR_ENV):
        candidates.append(Path(os.environ[DATA_DIR_ENV]) / TINY_SHAKESPEARE_FILE)
    root = Path(__file__).resolve().parents[1]
    candidates += [
        root / "data" / TINY_SHAKESPEARE_FILE,
        corpus_cache_dir() / TINY_SHAKESPEARE_FILE,
        root.parent / "shared" / "data" / TINY_SHAKESPEARE_FILE,
    ]
    return candidates


def find_tiny_shakespeare() -> Path | None:
    """The first candidate path whose checksum is right, or None."""
    for path in tiny_shakespeare_candidates():
        if path.is_file() and sha256_of(path) == TINY_SHAKESPEARE_SHA256:
            return path
    return None


def load_tiny_shakespeare() -> str:
    """The verified text from the first place it is found, or InputError saying where to put it."""
    path = find_tiny_shakespeare()
    if path is None:
        raise InputError("corpus_missing", env=TINY_SHAKESPEARE_ENV)
    return read_verified(path)


def read_verified(path: Path, sha256: str | None = None) -> str:
    """The file's text, or InputError if its checksum is not ``sha256`` (default: Tiny Shakespeare's)."""
    sha256 = sha256 or TINY_SHAKESPEARE_SHA256
    actual = sha256_of(path)
    if actual != sha256:
        raise InputError("checksum_mismatch", path=str(path), expected=sha256[:12], actual=actual[:12])
    return path.read_text(encoding="utf-8")


def download_tiny_shakespeare(cache_dir: Path | None = None, url: str | None = None, sha256: str | None = None) -> Path:
    """Download once into ``cache_dir`` (default ``corpus_cache_dir()``) from ``url``
    (default ``tiny_shakespeare_url()``) and verify; a wrong file is deleted, never used.
    Offline or unreachable: InputError("download_failed")."""
    cache_dir = cache_dir or corpus_cache_dir()
    url = url or tiny_shakespeare_url()
    sha256 = sha256 or TINY_SHAKESPEARE_SHA256
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError("cache_unwritable", path=str(cache_dir), reason=error.strerror or str(error)) from None
    target = cache_dir / TINY_SHAKESPEARE_FILE
    if target.is_file() and sha256_of(target) == sha256:
        return target
    partial = target.with_suffix(".part")
    try:
        with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT_S) as reply, partial.open("wb") as out:
            out.write(reply.read(MAX_CORPUS_BYTES))
    except (OSError, ValueError) as error:  # URLError, timeouts, refused connections, bad URLs
        partial.unlink(missing_ok=True)
        reason = getattr(error, "reason", None) or error
        raise InputError("download_failed", url=url, reason=str(reason)) from None
    actual = sha256_of(partial)
    if actual != sha256:
        partial.unlink()
        raise InputError("checksum_mismatch", path=url, expected=sha256[:12], actual=actual[:12])
    partial.replace(target)
    return target


# --- user text -------------------------------------------------------------------------


def decode_user_text(data: bytes, max_bytes: int = MAX_CORPUS_BYTES) -> str:
    """Uploaded or pasted bytes as text: UTF-8 only, no binary, not too large."""
    if len(data) > max_bytes:
        raise InputError("corpus_too_large", size=len(data), limit=max_bytes)
    if b"\x00" in data:
        raise InputError("not_text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError("not_utf8", position=error.start) from None
    return text.replace("\r\n", "\n")


# --- synthetic corpora -----------------------------------------------------------------


def synthetic_text(kind: str, length: int = 60_000, seed: int = 0) -> str:
    """Text with a structure one attention head can learn, recognisable to a student.

    - ``copy``: ``abcfe=abcfe.`` a random word, "=", the same word again;
    - ``previous``: runs of the alphabet, ``defghijk.`` — the next letter follows the previous one;
    - ``induction``: ``xq ... xq``: random letter pairs, repeated later in the same line —
      predicting the second letter needs looking back at what followed the first.
    """
    if kind not in SYNTHETIC_KINDS:
        raise InputError("unknown_choice", name="kind", choices=list(SYNTHETIC_KINDS), value=kind)
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    pieces: list[str] = []
    size = 0
    while size < length:
        if kind == "copy":
            word = "".join(rng.choice(letters[:8]) for _ in range(rng.randint(3, 6)))
            piece = f"{word}={word}."
        elif kind == "previous":
            start = rng.randrange(20)
            piece = letters[start : start + rng.randint(4, 7)] + "."
        else:
            pairs = ["".join(rng.choice(letters) for _ in range(2)) for _ in range(3)]
            line = pairs + rng.sample(pairs, 3)
            piece = " ".join(line) + "\n"
        pieces.append(piece)
        size += len(piece)
    return "".join(pieces)[:length]
