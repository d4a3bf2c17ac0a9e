"""The shipped results of the heads experiment: written by scripts/heads_experiment.py,
read by the app (no training needed to show them)."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .checkpoint import Checkpoint, load_checkpoint

RESULTS_FILE = "results.json"
SNAPSHOTS_FILE = "snapshots.npz"


@dataclass
class ShippedRun:
    heads: int
    parameters: int
    steps: int
    wall_time: float
    tokens_per_second: float
    final_test_loss: float
    history: list[dict]
    sample: str
    checkpoint_file: str


@dataclass
class ShippedExperiment:
    folder: Path
    corpus: str
    corpus_sha256: str
    config: dict  # the GPT config shared by the runs (heads aside)
    train: dict  # the training config
    snapshot_prompt: str
    runs: list[ShippedRun]

    def snapshots(self, heads: int) -> dict[int, np.ndarray]:
        """step -> (blocks, h, T, T) float32 softmax weights for the snapshot prompt."""
        with np.load(self.folder / SNAPSHOTS_FILE) as archive:
            prefix = f"h{heads}_step"
            return {
                int(name.removeprefix(prefix)): archive[name].astype(np.float32)
                for name in archive.files
                if name.startswith(prefix)
            }

    def checkpoint(self, heads: int) -> Checkpoint:
        run = next(run for run in self.runs if run.heads == heads)
        return load_checkpoint(self.folder / run.checkpoint_file)


def load_experiment(folder: Path) -> ShippedExperiment | None:
    """The shipped experiment in ``folder``, or None when it is not there."""
    path = folder / RESULTS_FILE
    if not path.is_file():
        return None
    record = json.loads(path.read_text(encoding="utf-8"))
    return ShippedExperiment(
        folder=folder,
        corpus=record["corpus"],
        corpus_sha256=record["corpus_sha256"],
        config=record["config"],
        train=record["train"],
        snapshot_prompt=record["snapshot_prompt"],
        runs=[ShippedRun(**run) for run in record["runs"]],
    )


def snapshots_npz(snapshots: dict[str, np.ndarray]) -> bytes:
    out = io.BytesIO()
    np.savez_compressed(out, **{name: array.astype(np.float16) for name, array in snapshots.items()})
    return out.getvalue()
