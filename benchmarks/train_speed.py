"""Training speed at the book's size on Tiny Shakespeare.

    TINY_SHAKESPEARE=/path/to/tinyshakespeare.txt python benchmarks/train_speed.py [SECONDS] [THREADS]

The book's size: context 32, embedding 64, 2 heads, 2 blocks. Trains for a wall-time
budget (default 20 s) with the defaults of gpt_core.TrainConfig, then reports steps,
tokens per second and the held-out loss over the whole test split (the last 10 %).
Target: held-out loss ≤ 1.85 within 20 s on a 2-core CPU.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from gpt_core import GPT, GPTConfig, InputError, TrainConfig, build_corpus, evaluate, load_tiny_shakespeare, train  # noqa: E402

DEFAULT_SECONDS = 20.0
DEFAULT_THREADS = 2
EVAL_BATCH = 256


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SECONDS
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_THREADS
    try:
        text = load_tiny_shakespeare()
    except InputError as error:
        sys.exit(str(error))
    torch.set_num_threads(threads)
    corpus = build_corpus("tinyshakespeare", text, context_length=32)
    model = GPT(
        GPTConfig(vocab_size=corpus.vocabulary.size, context_length=32, embedding_dim=64, heads=2, blocks=2), seed=0
    )
    config = TrainConfig(steps=None, seconds=seconds, eval_every=10**9)  # evaluation after the budget only
    result = train(model, corpus, config)
    held_out = evaluate(model, corpus, None, EVAL_BATCH)
    report = {
        "budget_s": seconds,
        "threads": threads,
        "steps": result.steps,
        "tokens_per_second": round(result.tokens_per_second),
        "held_out_loss_full_test_split": round(held_out, 4),
        "parameters": model.parameter_count(),
        "batch_size": config.batch_size,
        "learning_rate": config.learning_rate,
    }
    sys.stdout.write(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
