"""The book's heads experiment: the same GPT with 1, 2, 4 and 8 heads, the same embedding
size and the same budget. Pure torch; the app and scripts/heads_experiment.py call it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import torch

from .data import Corpus
from .generate import generate
from .model import GPT, GPTConfig, GPTTrace
from .runs import RunSummary, compact_history
from .train import Progress, TrainConfig, evaluate, train

HEAD_COUNTS = (1, 2, 4, 8)
SNAPSHOT_PROMPT = "ROMEO:\nBut soft, what light through yon"
SAMPLE_PROMPT = "ROMEO:\n"
SAMPLE_LENGTH = 200
SAMPLE_TEMPERATURE = 0.8
SAMPLE_TOP_K = 10


@dataclass
class HeadsRun:
    """One head count's run: its summary, its model and its attention snapshots."""

    summary: RunSummary
    model: GPT
    snapshots: dict[int, torch.Tensor] = field(default_factory=dict)  # step -> (blocks, h, T, T)


def attention_snapshot(model: GPT, prompt_ids: list[int]) -> torch.Tensor:
    """Every block's softmax weights for ``prompt_ids``: (blocks, h, T, T)."""
    was_training = model.training
    model.eval()
    trace = GPTTrace()
    with torch.no_grad():
        model(torch.tensor([prompt_ids[: model.config.context_length]]), trace=trace)
    model.train(was_training)
    return torch.stack([layer.weights[0] for layer in trace.layers])


def run_heads_experiment(
    corpus: Corpus,
    base: GPTConfig,
    train_config: TrainConfig,
    head_counts: tuple[int, ...] = HEAD_COUNTS,
    snapshot_steps: tuple[int, ...] = (),
    on_progress: Callable[[int, Progress], None] | None = None,
    seed: int = 0,
) -> list[HeadsRun]:
    """Train one model per head count (same seed, same data order) and sample from each."""
    snapshot_ids = corpus.vocabulary.encode(SNAPSHOT_PROMPT)
    sample_ids = corpus.vocabulary.encode(SAMPLE_PROMPT)
    runs = []
    for heads in head_counts:
        model = GPT(replace(base, heads=heads), seed=seed)
        snapshots: dict[int, torch.Tensor] = {}
        if 0 in snapshot_steps and snapshot_ids:
            snapshots[0] = attention_snapshot(model, snapshot_ids)

        def report(progress: Progress, heads: int = heads, model: GPT = model, snapshots: dict = snapshots) -> None:
            if progress.step in snapshot_steps and snapshot_ids:
                snapshots[progress.step] = attention_snapshot(model, snapshot_ids)
            if on_progress is not None:
                on_progress(heads, progress)

        result = train(model, corpus, train_config, on_progress=report)
        result.final_test_loss = evaluate(model, corpus, None, train_config.batch_size)
        if snapshot_ids:
            snapshots[result.steps] = attention_snapshot(model, snapshot_ids)
        sample = corpus.vocabulary.decode(
            generate(model, sample_ids, SAMPLE_LENGTH, SAMPLE_TEMPERATURE, SAMPLE_TOP_K, seed=seed)
        )
        result.history = compact_history(result.history)
        summary = RunSummary.from_result(heads, model.parameter_count(), result, sample)
        runs.append(HeadsRun(summary, model, snapshots))
    return runs


def answer(runs: list[RunSummary]) -> dict:
    """The numbers behind an answer to "are more heads always better?"."""
    by_heads = sorted(runs, key=lambda run: run.heads)
    best = min(runs, key=lambda run: run.final_test_loss)
    fastest = max(runs, key=lambda run: run.tokens_per_second)
    slowest = min(runs, key=lambda run: run.tokens_per_second)
    losses = [run.final_test_loss for run in runs]
    return {
        "best_heads": best.heads,
        "best_loss": best.final_test_loss,
        "most_heads": by_heads[-1].heads,
        "most_heads_loss": by_heads[-1].final_test_loss,
        "fastest_heads": fastest.heads,
        "slowest_heads": slowest.heads,
        "speed_ratio": fastest.tokens_per_second / slowest.tokens_per_second,
        "spread": max(losses) - min(losses),
        "same_parameters": len({run.parameters for run in runs}) == 1,
        "more_is_better": all(
            later.final_test_loss <= earlier.final_test_loss for earlier, later in zip(by_heads, by_heads[1:], strict=False)
        ),
    }
