"""Reproduce the shipped heads experiment (assets/heads_experiment/).

    TINY_SHAKESPEARE=/path/to/tinyshakespeare.txt python scripts/heads_experiment.py [STEPS]

Trains the book's GPT (context 32, embedding 64, 2 blocks) with 1, 2, 4 and 8 heads for
the same number of steps on Tiny Shakespeare, then writes float16 checkpoints, the loss
histories, samples, and attention snapshots of a fixed prompt taken during training.
The corpus is found as gpt_core.find_tiny_shakespeare() finds it (checksum verified).
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from gpt_core import (  # noqa: E402
    CheckpointMeta,
    GPTConfig,
    InputError,
    TrainConfig,
    build_corpus,
    load_tiny_shakespeare,
    save_checkpoint,
)
from gpt_core.experiment import SNAPSHOT_PROMPT, compact_history, run_heads_experiment  # noqa: E402
from gpt_core.results import RESULTS_FILE, SNAPSHOTS_FILE, snapshots_npz  # noqa: E402

OUTPUT = ROOT / "assets" / "heads_experiment"
DEFAULT_STEPS = 1500
SNAPSHOT_STEPS = (0, 50, 200, 500)
TORCH_THREADS = 2


def main() -> None:
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_STEPS
    try:
        text = load_tiny_shakespeare()
    except InputError as error:
        sys.exit(str(error))
    torch.set_num_threads(TORCH_THREADS)
    corpus = build_corpus("tinyshakespeare", text, context_size=32)
    base = GPTConfig(vocab_size=corpus.vocabulary.size, context_size=32, embedding_size=64, heads=1, blocks=2)
    train_config = TrainConfig(steps=steps, eval_every=100)

    def report(heads: int, progress) -> None:
        if progress.test_loss is not None:
            sys.stderr.write(f"heads={heads} step={progress.step} test_loss={progress.test_loss:.3f}\n")

    runs = run_heads_experiment(corpus, base, train_config, snapshot_steps=SNAPSHOT_STEPS, on_progress=report)
    OUTPUT.mkdir(parents=True, exist_ok=True)
    records, snapshots = [], {}
    for run in runs:
        name = f"heads{run.heads}.pt"
        meta = CheckpointMeta(
            corpus=corpus.name, corpus_sha256=corpus.sha256, steps=run.result.steps,
            test_loss=run.result.final_test_loss, wall_time=run.result.elapsed,
            tokens_per_second=run.result.tokens_per_second,
        )  # fmt: skip
        save_checkpoint(OUTPUT / name, run.model, corpus.vocabulary, meta, half=True)
        records.append(
            {
                "heads": run.heads,
                "parameters": run.parameters,
                "steps": run.result.steps,
                "wall_time": round(run.result.elapsed, 2),
                "tokens_per_second": round(run.result.tokens_per_second),
                "final_test_loss": round(run.result.final_test_loss, 4),
                "history": [{k: round(v, 4) for k, v in r.items()} for r in compact_history(run.result.history)],
                "sample": run.sample,
                "checkpoint_file": name,
            }
        )
        for step, weights in run.snapshots.items():
            snapshots[f"h{run.heads}_step{step}"] = weights.numpy()
    (OUTPUT / SNAPSHOTS_FILE).write_bytes(snapshots_npz(snapshots))
    result = {
        "corpus": corpus.name,
        "corpus_sha256": corpus.sha256,
        "config": {k: v for k, v in asdict(base).items() if k != "heads"},
        "train": asdict(train_config),
        "snapshot_prompt": SNAPSHOT_PROMPT,
        "runs": records,
    }
    (OUTPUT / RESULTS_FILE).write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    for record in records:
        sys.stdout.write(
            f"heads={record['heads']}: loss {record['final_test_loss']}, {record['tokens_per_second']} tok/s\n"
        )


if __name__ == "__main__":
    main()
