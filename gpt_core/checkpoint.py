"""Checkpoints: weights plus a small metadata record, loaded with weights_only=True.

Nothing is ever unpickled: torch.load(weights_only=True) accepts only tensors and plain
containers of numbers and strings.
"""

from __future__ import annotations

import io
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch

from .data import CharVocabulary
from .model import GPT, GPTConfig

FORMAT_VERSION = 1


@dataclass
class CheckpointMeta:
    """What a student (and the app) needs to know about a trained model."""

    corpus: str  # a name, e.g. "tinyshakespeare"
    corpus_sha256: str
    steps: int
    test_loss: float
    wall_time: float  # seconds of training
    tokens_per_second: float = 0.0
    extra: dict = field(default_factory=dict)  # e.g. the loss history


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
        "meta": asdict(meta),
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
    """Load with ``weights_only=True``: a file that needs unpickling is refused by torch."""
    data = io.BytesIO(source if isinstance(source, bytes) else Path(source).read_bytes())
    record = torch.load(data, weights_only=True, map_location="cpu")
    config = GPTConfig(**record["config"])
    model = GPT(config)
    state = {
        name: tensor.float() if tensor.is_floating_point() else tensor for name, tensor in record["state_dict"].items()
    }
    model.load_state_dict(state)
    model.eval()
    return Checkpoint(
        model=model, vocabulary=CharVocabulary(tuple(record["chars"])), meta=CheckpointMeta(**record["meta"])
    )
