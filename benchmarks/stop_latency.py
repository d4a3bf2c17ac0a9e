"""How soon Stop ends a training run, for models up to the largest the Train page accepts.

    python benchmarks/stop_latency.py

For each model (the page's default, then larger ones, up to one whose blocks take nearly
gpt_core.train.STOP_CHECK_SECONDS), a capped run (60 s, as the page's) trains in a thread;
after a few steps the stop flag is set, as the Stop button does, and the time until
train() returns (its quick last evaluation included) is measured. One torch thread, as
every session of the server. Prints JSON.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/stop_latency.py`
    sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from gpt_core import GPT, GPTConfig, InputError, TrainConfig, build_corpus, synthetic_text, train  # noqa: E402
from gpt_core.train import STOP_CHECK_SECONDS  # noqa: E402

CAP_S = 60.0  # the Train page's cap
STOP_AFTER_S = 4.0  # the press comes this long after the run began (its probe included)
MODELS = [  # (heads, head_dim, blocks, context, batch)
    (4, 16, 2, 64, 64),
    (8, 32, 4, 64, 64),
    (16, 32, 4, 64, 64),
    (16, 64, 4, 64, 64),
]


def measure(heads: int, head_dim: int, blocks: int, context: int, batch: int) -> dict:
    corpus = build_corpus("copy", synthetic_text("copy", 60_000), context_length=context)
    model = GPT(
        GPTConfig(
            vocab_size=corpus.vocabulary.size,
            context_length=context,
            embedding_dim=heads * head_dim,
            heads=heads,
            blocks=blocks,
        )
    )
    stop = threading.Event()
    outcome: dict = {}
    pressed: list[float] = []

    def run() -> None:
        try:
            outcome["result"] = train(
                model, corpus, TrainConfig(steps=3000, batch_size=batch, max_seconds=CAP_S), should_stop=stop.is_set
            )
        except InputError as error:
            outcome["refused"] = error.code
        outcome["ended"] = time.perf_counter()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(STOP_AFTER_S)
    pressed.append(time.perf_counter())
    stop.set()
    thread.join()
    row = {
        "model": f"h={heads} d={head_dim} blocks={blocks} context={context} batch={batch}",
        "parameters": model.parameter_count(),
    }
    if "refused" in outcome:
        return {**row, "refused": outcome["refused"]}
    result = outcome["result"]
    return {
        **row,
        "steps": result.steps,
        "step_s": round(result.elapsed / max(1, result.steps), 2),
        "stop_to_return_s": round(max(0.0, outcome["ended"] - pressed[0]), 2),
    }


def main() -> None:
    torch.set_num_threads(1)
    rows = [measure(*model) for model in MODELS]
    sys.stdout.write(json.dumps({"stop_check_s": STOP_CHECK_SECONDS, "runs": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
