"""Checkpoints: weights plus a small metadata record, loaded with weights_only=True.

Nothing is ever unpickled: torch.load(weights_only=True) accepts only tensors and plain
containers of numbers and strings.
"""

from __future__ import annotations

import io
from dataclasses import asdict, dataclass
from pathlib import Path

import torch

from .data import CharVocabulary
from .errors import InputError
from .model import GPT, GPTConfig
from .runs import RunSummary

FORMAT_VERSION = 2  # 2: GPTConfig's context_length and embedding_dim; meta holds a RunSummary


@dataclass
class CheckpointMeta:
    """What a student (and the app) needs to know about a trained model."""

    corpus: str  # a name, e.g. "tinyshakespeare"
    corpus_sha256: str
    run: RunSummary  # how it was trained: steps, time, speed, losses and the history

    def to_dict(self) -> dict:
        return {"corpus": self.corpus, "corpus_sha256": self.corpus_sha256, "run": self.run.to_dict()}

    @classmethod
    def from_dict(cls, record: dict) -> CheckpointMeta:
        return cls(record["corpus"], record["corpus_sha256"], RunSummary.from_dict(record["run"]))


@dataclass
class Checkpoint:
    model: GPT
    vocabulary: CharVocabulary
    meta: CheckpointMeta


def checkpoint_bytes(model: GPT, vocabulary: CharVocabulary, meta: CheckpointMeta, half: bool = False) -> bytes:
    """Serialize; ``half`` stores weights as float16 (half the size, for shipped assets)."""
    state = {name: (t.half() if half and t.is_floating_point() else t) for name, t in model.state_dict().items()}
    record = {
        "format": FORMAT_VERSION,
        "config": asdict(model.config),
        "chars": list(vocabulary.chars),
        "meta": meta.to_dict(),
        "state_dict": state,
    }
    out = io.BytesIO()
    torch.save(record, out)
    return out.getvalue()


def save_checkpoint(
    path: Path, model: GPT, vocabulary: CharVocabulary, meta: CheckpointMeta, half: bool = False
) -> None:
    path.write_bytes(checkpoint_bytes(model, vocabulary, meta, half))


def load_checkpoint(source: Path | bytes) -> Checkpoint:
    """Load with ``weights_only=True``: a file that needs unpickling is refused by torch.
    InputError: "checkpoint_unreadable" (not such a file), "checkpoint_format" (another
    format version), "checkpoint_mismatch" (weights that are not the described model's)."""
    data = io.BytesIO(source if isinstance(source, bytes) else Path(source).read_bytes())
    try:
        record = torch.load(data, weights_only=True, map_location="cpu")
    except Exception:  # not a torch file, or one that needs unpickling: refused either way
        raise InputError("checkpoint_unreadable") from None
    found = record.get("format") if isinstance(record, dict) else None
    if found != FORMAT_VERSION:
        raise InputError("checkpoint_format", found=found, expected=FORMAT_VERSION)
    try:
        config = GPTConfig(**record["config"])
        meta = CheckpointMeta.from_dict(record["meta"])
        chars = tuple(record["chars"])
        given = sum(tensor.numel() for tensor in record["state_dict"].values())
    except (KeyError, TypeError, AttributeError, ValueError):
        raise InputError("checkpoint_unreadable") from None
    # The model the config describes, built without memory first: a file whose config names
    # a far larger model than its weights (a changed file) is refused before any allocation.
    expected = sum(tensor.numel() for tensor in GPT(config, device="meta").state_dict().values())
    if given != expected:
        raise InputError("checkpoint_mismatch", given=given, expected=expected)
    model = GPT(config)
    state = {
        name: tensor.float() if tensor.is_floating_point() else tensor for name, tensor in record["state_dict"].items()
    }
    model.load_state_dict(state)
    model.eval()
    return Checkpoint(model=model, vocabulary=CharVocabulary(chars), meta=meta)
