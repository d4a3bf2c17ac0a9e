"""The book's heads experiment: the same GPT with 1, 2, 4 and 8 heads, the same embedding
size and the same budget. Pure torch; the app and scripts/heads_experiment.py call it."""

from __future__ import annotations

import statistics
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
    seeds: tuple[int, ...] = (0,),
) -> list[HeadsRun]:
    """Train one model per head count and seed, and sample from each.

    A seed sets the initial weights, the batches and the sampling (``train_config.seed`` is
    replaced by it), so the head counts of one seed see the same data in the same order.
    Attention snapshots are taken for the first seed only. ``on_progress(heads, progress)``.
    """
    snapshot_ids = corpus.vocabulary.encode(SNAPSHOT_PROMPT)
    sample_ids = corpus.vocabulary.encode(SAMPLE_PROMPT)
    runs = []
    for seed in seeds:
        config = replace(train_config, seed=seed)
        steps_to_snap = snapshot_steps if seed == seeds[0] else ()
        for heads in head_counts:
            runs.append(_one_run(corpus, replace(base, heads=heads), config, seed, steps_to_snap, on_progress,
                                 snapshot_ids, sample_ids))  # fmt: skip
    return runs


def _one_run(corpus, config, train_config, seed, snapshot_steps, on_progress, snapshot_ids, sample_ids) -> HeadsRun:
    heads = config.heads
    model = GPT(config, seed=seed)
    snapshots: dict[int, torch.Tensor] = {}
    if 0 in snapshot_steps and snapshot_ids:
        snapshots[0] = attention_snapshot(model, snapshot_ids)

    def report(progress: Progress) -> None:
        if progress.step in snapshot_steps and snapshot_ids:
            snapshots[progress.step] = attention_snapshot(model, snapshot_ids)
        if on_progress is not None:
            on_progress(heads, progress)

    result = train(model, corpus, train_config, on_progress=report)
    result.final_test_loss = evaluate(model, corpus, None, train_config.batch_size)
    if snapshot_steps and snapshot_ids:
        snapshots[result.steps] = attention_snapshot(model, snapshot_ids)
    sample = corpus.vocabulary.decode(
        generate(model, sample_ids, SAMPLE_LENGTH, SAMPLE_TEMPERATURE, SAMPLE_TOP_K, seed=seed)
    )
    result.history = compact_history(result.history)
    summary = RunSummary.from_result(heads, model.parameter_count(), result, sample, seed=seed)
    return HeadsRun(summary, model, snapshots)


# ---------------------------------------------------------------------------------------
# The answer, from the statistics over seeds


ONE_SEED_RESOLUTION = 0.01  # with one seed, differences below this cannot be told from chance


@dataclass(frozen=True)
class HeadsStats:
    """One head count over its seeds."""

    heads: int
    seeds: tuple[int, ...]
    losses: tuple[float, ...]  # final held-out loss per seed, in seed order
    parameters: int
    tokens_per_second: float  # mean over seeds
    wall_time: float  # mean over seeds

    @property
    def mean(self) -> float:
        return statistics.fmean(self.losses)

    @property
    def sd(self) -> float:
        """Sample standard deviation over seeds (0 with one seed)."""
        return statistics.stdev(self.losses) if len(self.losses) > 1 else 0.0

    @property
    def low(self) -> float:
        return min(self.losses)

    @property
    def high(self) -> float:
        return max(self.losses)

    @property
    def spread(self) -> float:
        """The seed spread: highest minus lowest loss over seeds."""
        return self.high - self.low


def heads_statistics(runs: list[RunSummary]) -> list[HeadsStats]:
    """Per head count (ascending), over the runs that reached a held-out loss."""
    by_heads: dict[int, list[RunSummary]] = {}
    for run in sorted(runs, key=lambda run: (run.heads, run.seed)):
        if run.final_test_loss is not None:
            by_heads.setdefault(run.heads, []).append(run)
    return [
        HeadsStats(
            heads=heads,
            seeds=tuple(run.seed for run in group),
            losses=tuple(float(run.final_test_loss) for run in group),
            parameters=group[0].parameters,
            tokens_per_second=statistics.fmean(run.tokens_per_second for run in group),
            wall_time=statistics.fmean(run.wall_time for run in group),
        )  # fmt: skip
        for heads, group in by_heads.items()
    ]


def loss_at_time(run: RunSummary, seconds: float) -> float | None:
    """The run's held-out loss after ``seconds`` of training, interpolated between its
    evaluations; None outside them."""
    points = [(point.elapsed, point.test_loss) for point in run.history if point.test_loss is not None]
    for (t0, y0), (t1, y1) in zip(points, points[1:], strict=False):
        if t0 <= seconds <= t1:
            return y0 if t1 == t0 else y0 + (y1 - y0) * (seconds - t0) / (t1 - t0)
    if points and points[-1][0] == seconds:
        return points[-1][1]
    return None


def equal_time_statistics(runs: list[RunSummary]) -> tuple[float, list[HeadsStats]]:
    """Each head count's loss after the same training time: the shortest run's last
    evaluation time (every run has trained that long). Returns (seconds, statistics)."""
    ends = [max((p.elapsed for p in run.history if p.test_loss is not None), default=0.0) for run in runs]
    seconds = min(ends, default=0.0)
    at_time = []
    for run in runs:
        loss = loss_at_time(run, seconds)
        if loss is not None:
            at_time.append(replace(run, final_test_loss=loss, history=[]))
    return seconds, heads_statistics(at_time)


@dataclass(frozen=True)
class Comparison:
    """Which head counts can be told apart, by one loss statistic."""

    best: int  # the head count with the lowest mean loss
    ties: tuple[int, ...]  # others whose difference from the best is within the noise
    worse: tuple[int, ...]  # others clearly worse: the difference exceeds the noise


def compare(stats: list[HeadsStats]) -> Comparison:
    """A difference counts only when it is larger than the seed spread of either head count
    (with one seed: larger than ONE_SEED_RESOLUTION)."""
    best = min(stats, key=lambda item: item.mean)
    ties, worse = [], []
    for item in stats:
        if item is best:
            continue
        noise = max(item.spread, best.spread) if min(len(item.losses), len(best.losses)) > 1 else ONE_SEED_RESOLUTION
        (ties if item.mean - best.mean <= noise else worse).append(item.heads)
    return Comparison(best.heads, tuple(ties), tuple(worse))


@dataclass(frozen=True)
class Verdict:
    """Everything the written answer says, derived from the statistics."""

    seeds: int  # the fewest seeds of any head count
    stats: list[HeadsStats]
    at_steps: Comparison
    at_time: Comparison | None  # None when no common training time could be compared
    equal_seconds: float
    least_stable: int | None  # the head count whose seeds vary most (with 2+ seeds)
    fastest: int
    slowest: int
    speed_ratio: float
    slower_with_more_heads: bool  # tokens per second never rises with the head count
    same_parameters: bool

    @property
    def noise_known(self) -> bool:
        return self.seeds > 1


def answer(runs: list[RunSummary]) -> Verdict:
    """What the runs show about "are more heads better?", and what they cannot show."""
    stats = heads_statistics(runs)
    if not stats:
        raise ValueError("no run reached a held-out loss")
    seconds, time_stats = equal_time_statistics(runs)
    fastest = max(stats, key=lambda item: item.tokens_per_second)
    slowest = min(stats, key=lambda item: item.tokens_per_second)
    speeds = [item.tokens_per_second for item in stats]
    seeds = min(len(item.losses) for item in stats)
    return Verdict(
        seeds=seeds, stats=stats, at_steps=compare(stats),
        at_time=compare(time_stats) if len(time_stats) == len(stats) and seconds > 0 else None,
        equal_seconds=seconds,
        least_stable=max(stats, key=lambda item: item.spread).heads if seeds > 1 else None,
        fastest=fastest.heads, slowest=slowest.heads,
        speed_ratio=fastest.tokens_per_second / slowest.tokens_per_second,
        slower_with_more_heads=all(later <= earlier for earlier, later in zip(speeds, speeds[1:], strict=False)),
        same_parameters=len({item.parameters for item in stats}) == 1,
    )  # fmt: skip
