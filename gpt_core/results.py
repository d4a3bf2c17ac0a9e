"""The shipped results of the heads experiment: written by scripts/heads_experiment.py,
read by the app (no training needed to show them). One module owns the format."""

from __future__ import annotations

import io
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from .checkpoint import Checkpoint, CheckpointMeta, load_checkpoint, save_checkpoint
from .data import Corpus
from .experiment import SNAPSHOT_PROMPT, HeadsRun
from .model import GPTConfig
from .runs import RunSummary
from .train import TrainConfig

RESULTS_FILE = "results.json"
SNAPSHOTS_FILE = "snapshots.npz"
SHIPPED_DIGITS = 4  # losses and times are stored rounded: the files stay small and diff well


@dataclass
class ShippedExperiment:
    folder: Path
    corpus: str
    corpus_sha256: str
    config: dict  # the GPT config shared by the runs (heads aside)
    train: dict  # the training config
    snapshot_prompt: str
    runs: list[RunSummary]

    def snapshots(self, heads: int) -> dict[int, np.ndarray]:
        """step -> (blocks, h, T, T) float32 softmax weights for the snapshot prompt."""
        with np.load(self.folder / SNAPSHOTS_FILE) as archive:
            prefix = f"h{heads}_step"
            return {
                int(name.removeprefix(prefix)): archive[name].astype(np.float32)
                for name in archive.files
                if name.startswith(prefix)
            }

    @property
    def head_counts(self) -> list[int]:
        return sorted({run.heads for run in self.runs})

    @property
    def seeds(self) -> list[int]:
        return sorted({run.seed for run in self.runs})

    def checkpointed_run(self, heads: int) -> RunSummary:
        """The run of ``heads`` whose weights are shipped (one seed per head count)."""
        return next(run for run in self.runs if run.heads == heads and run.checkpoint_file)

    def checkpoint(self, heads: int) -> Checkpoint:
        return load_checkpoint(self.folder / self.checkpointed_run(heads).checkpoint_file)


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
        runs=[RunSummary.from_dict(run) for run in record["runs"]],
    )


def snapshots_npz(snapshots: dict[str, np.ndarray]) -> bytes:
    out = io.BytesIO()
    np.savez_compressed(out, **{name: array.astype(np.float16) for name, array in snapshots.items()})
    return out.getvalue()


def save_experiment(
    folder: Path, corpus: Corpus, base: GPTConfig, train_config: TrainConfig, runs: list[HeadsRun]
) -> list[RunSummary]:
    """Write results.json (every run of every seed), float16 checkpoints of the first seed's
    runs and their attention snapshots; return the runs as stored."""
    folder.mkdir(parents=True, exist_ok=True)
    stored, snapshots = [], {}
    first_seed = runs[0].summary.seed if runs else 0
    for run in runs:
        summary = RunSummary.from_dict(run.summary.to_dict(SHIPPED_DIGITS))
        stored.append(summary)
        if summary.seed != first_seed:
            continue
        summary.checkpoint_file = f"heads{summary.heads}.pt"
        meta = CheckpointMeta(corpus=corpus.name, corpus_sha256=corpus.sha256, run=summary)
        save_checkpoint(folder / summary.checkpoint_file, run.model, corpus.vocabulary, meta, half=True)
        for step, weights in run.snapshots.items():
            snapshots[f"h{summary.heads}_step{step}"] = weights.numpy()
    (folder / SNAPSHOTS_FILE).write_bytes(snapshots_npz(snapshots))
    record = {
        "corpus": corpus.name,
        "corpus_sha256": corpus.sha256,
        "config": {name: value for name, value in asdict(base).items() if name != "heads"},
        "train": asdict(train_config),
        "snapshot_prompt": SNAPSHOT_PROMPT,
        "runs": [summary.to_dict() for summary in stored],
    }
    (folder / RESULTS_FILE).write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
    return stored
