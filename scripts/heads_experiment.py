"""Reproduce the shipped heads experiment (assets/heads_experiment/).

    TINY_SHAKESPEARE=/path/to/tinyshakespeare.txt python scripts/heads_experiment.py [STEPS] [--seeds 0 1 2]

Trains the book's GPT (context 32, embedding 64, 2 blocks) with 1, 2, 4 and 8 heads for
the same number of steps on Tiny Shakespeare, once per seed (default 0, 1, 2), then writes
the loss histories, speeds and samples of every run, and for the first seed float16
checkpoints and attention snapshots of a fixed prompt taken during training.
The corpus is found as gpt_core.find_tiny_shakespeare() finds it (checksum verified).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from gpt_core import GPTConfig, InputError, Progress, TrainConfig, build_corpus, load_tiny_shakespeare  # noqa: E402
from gpt_core.experiment import run_heads_experiment  # noqa: E402
from gpt_core.results import save_experiment  # noqa: E402

OUTPUT = ROOT / "assets" / "heads_experiment"
DEFAULT_STEPS = 1500
SNAPSHOT_STEPS = (0, 25, 50, 100, 200, 500, 1000)  # and the last step
DEFAULT_SEEDS = (0, 1, 2)
TORCH_THREADS = 2
# The book's size: context 32, embedding 64, 2 blocks (heads vary).
BOOK_CONFIG = dict(context_length=32, embedding_dim=64, blocks=2)
EVAL_EVERY = 100


def report(heads: int, progress: Progress) -> None:
    if progress.test_loss is not None:
        sys.stderr.write(f"heads={heads} step={progress.step} test_loss={progress.test_loss:.3f}\n")


def main() -> None:
    args = sys.argv[1:]
    seeds = DEFAULT_SEEDS
    if "--seeds" in args:
        at = args.index("--seeds")
        seeds = tuple(int(value) for value in args[at + 1 :])
        args = args[:at]
    steps = int(args[0]) if args else DEFAULT_STEPS
    try:
        text = load_tiny_shakespeare()
    except InputError as error:
        sys.exit(str(error))
    torch.set_num_threads(TORCH_THREADS)
    corpus = build_corpus("tinyshakespeare", text, context_length=BOOK_CONFIG["context_length"])
    base = GPTConfig(vocab_size=corpus.vocabulary.size, heads=1, **BOOK_CONFIG)
    train_config = TrainConfig(steps=steps, eval_every=EVAL_EVERY)
    runs = run_heads_experiment(
        corpus, base, train_config, snapshot_steps=SNAPSHOT_STEPS, on_progress=report, seeds=seeds
    )
    for summary in save_experiment(OUTPUT, corpus, base, train_config, runs):
        sys.stdout.write(
            f"heads={summary.heads} seed={summary.seed}: loss {summary.final_test_loss}, "
            f"{summary.tokens_per_second} tok/s\n"
        )


if __name__ == "__main__":
    main()
