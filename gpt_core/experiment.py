"""The book's heads experiment: the same GPT with 1, 2, 4 and 8 heads, the same embedding
size and the same budget. Pure torch; the app and scripts/heads_experiment.py call it."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import torch

from .data import Corpus
from .generate import generate
from .model import GPT, GPTConfig, GPTTrace
from .runs import RunSummary, compact_history
from .train import MAX_STEPS, HistoryPoint, Progress, TrainConfig, evaluate, train

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
            runs.append(
                _one_run(
                    corpus,
                    replace(base, heads=heads),
                    config,
                    seed,
                    steps_to_snap,
                    on_progress,
                    snapshot_ids,
                    sample_ids,
                )
            )
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
# How long it will take, from what a few steps take on this machine now

PROBE_STEPS = 2  # timed training steps per head count, after one untimed warm-up step
PROBE_TOKENS = 10  # timed sampled characters per head count


@dataclass(frozen=True)
class StepTimes:
    """What the parts of one head count's run take on this machine, in seconds."""

    train_step: float  # one optimizer step on a training batch
    forward: float  # one held-out batch through the model (an evaluation reads several)
    sample_token: float  # one generated character


def measure_step_times(
    corpus: Corpus, base: GPTConfig, train_config: TrainConfig, head_counts: tuple[int, ...] = HEAD_COUNTS
) -> dict[int, StepTimes]:
    """Time PROBE_STEPS training steps, one held-out batch and PROBE_TOKENS sampled
    characters of a fresh model per head count (its weights are thrown away)."""
    probe = replace(
        train_config, steps=PROBE_STEPS + 1, seconds=None, max_seconds=None, eval_every=MAX_STEPS, eval_batches=1
    )
    sample_ids = corpus.vocabulary.encode(SAMPLE_PROMPT)
    times = {}
    for heads in head_counts:
        model = GPT(replace(base, heads=heads), seed=probe.seed)
        history = train(model, corpus, probe).history
        start = time.perf_counter()
        evaluate(model, corpus, 1, probe.batch_size)
        forward = time.perf_counter() - start
        start = time.perf_counter()
        generate(model, sample_ids, PROBE_TOKENS, SAMPLE_TEMPERATURE, SAMPLE_TOP_K, seed=probe.seed)
        sample_token = (time.perf_counter() - start) / PROBE_TOKENS
        times[heads] = StepTimes((history[-1].elapsed - history[0].elapsed) / PROBE_STEPS, forward, sample_token)
    return times


def estimate_seconds(times: dict[int, StepTimes], corpus: Corpus, train_config: TrainConfig, seeds: int) -> float:
    """The wall time of ``run_heads_experiment`` over the head counts of ``times`` and
    ``seeds`` seeds: per run, its steps, its evaluations (every ``eval_every`` steps and
    after the last, ``eval_batches`` each), the final one over the whole test split, and
    its sample. A budget in steps only (``train_config.steps``)."""
    steps = train_config.steps
    evaluations = steps // train_config.eval_every + (steps % train_config.eval_every != 0)
    whole_split = math.ceil(len(corpus.test) / train_config.batch_size)
    per_evaluation = train_config.eval_batches if train_config.eval_batches is not None else whole_split
    batches = evaluations * per_evaluation + whole_split
    per_seed = sum(
        steps * item.train_step + batches * item.forward + SAMPLE_LENGTH * item.sample_token for item in times.values()
    )
    return seeds * per_seed


# ---------------------------------------------------------------------------------------
# The answer, from the statistics over seeds

# Fewer steps per run than this and the answer says only that the run is too short to tell:
# four times the trainer's default warmup (50 steps). Measured on Tiny Shakespeare at the
# book's size, 3 seeds: after 20 steps every head count's mean loss was 3.297-3.299 and the
# speeds of identical settings varied 2x between seeds (start-up, a busy machine); after
# 100 steps the means were 2.518-2.524, still far inside the seed spread (0.017-0.031).
MIN_VERDICT_STEPS = 200
ONE_SEED_RESOLUTION = 0.01  # with one seed, the smallest difference ever told from chance
# With one seed the noise of a final loss is taken as this fraction of the train loss's
# step-to-step noise (step_noise): in the shipped experiment (1500 steps, 3 seeds) half of
# that noise, 0.016-0.020, is about the seeds' own spread of the final loss (0.008-0.034).
STEP_NOISE_FRACTION = 0.5
STEP_NOISE_MIN_POINTS = 4  # recorded train losses in a run's late half needed to measure it
SPEED_RESOLUTION = 0.10  # with one seed, speeds within 10 % of each other are not told apart
READINGS = ("too_short", "within_noise", "clear")


@dataclass(frozen=True)
class HeadsStats:
    """One head count over its seeds."""

    heads: int
    seeds: tuple[int, ...]
    losses: tuple[float, ...]  # final held-out loss per seed, in seed order
    parameters: int
    tokens_per_second: float  # mean over seeds
    wall_time: float  # mean over seeds
    speeds: tuple[float, ...] = ()  # tokens per second per seed, in seed order

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

    @property
    def speed_spread(self) -> float:
        """Highest minus lowest tokens per second over seeds (0 with one seed)."""
        return max(self.speeds) - min(self.speeds) if self.speeds else 0.0


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
            speeds=tuple(run.tokens_per_second for run in group),
        )
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


def step_noise(history: Sequence[HistoryPoint]) -> float | None:
    """How much a run's train loss jumps between its recorded steps late in the run: the
    standard deviation of consecutive differences over the last half of ``history``, ÷ √2
    (the difference of two draws spreads √2 times as much as one draw; the loss's slow
    downward trend mostly cancels out). None with fewer than STEP_NOISE_MIN_POINTS there."""
    late = [point.train_loss for point in history[len(history) // 2 :]]
    if len(late) < STEP_NOISE_MIN_POINTS:
        return None
    jumps = [after - before for before, after in zip(late, late[1:], strict=False)]
    return statistics.stdev(jumps) / math.sqrt(2)


def one_seed_noise(runs: list[RunSummary]) -> float:
    """With one seed, how far apart two final losses may be by chance: STEP_NOISE_FRACTION
    of the median step noise of the runs, and never below ONE_SEED_RESOLUTION."""
    noises = [noise for run in runs if (noise := step_noise(run.history)) is not None]
    if not noises:
        return ONE_SEED_RESOLUTION
    return max(ONE_SEED_RESOLUTION, STEP_NOISE_FRACTION * statistics.median(noises))


def compare(stats: list[HeadsStats], one_seed: float = ONE_SEED_RESOLUTION) -> Comparison:
    """A difference counts only when it is larger than the seed spread of either head count
    (with one seed: larger than ``one_seed``, the noise of one run)."""
    best = min(stats, key=lambda item: item.mean)
    ties, worse = [], []
    for item in stats:
        if item is best:
            continue
        noise = max(item.spread, best.spread) if min(len(item.losses), len(best.losses)) > 1 else one_seed
        (ties if item.mean - best.mean <= noise else worse).append(item.heads)
    return Comparison(best.heads, tuple(ties), tuple(worse))


def speed_differs(fastest: HeadsStats, slowest: HeadsStats) -> bool:
    """Whether the fastest head count was faster by more than the noise of timing: the
    larger speed spread of the two over seeds, or with one seed SPEED_RESOLUTION."""
    if min(len(fastest.speeds), len(slowest.speeds)) > 1:
        return fastest.tokens_per_second - slowest.tokens_per_second > max(fastest.speed_spread, slowest.speed_spread)
    return fastest.tokens_per_second > (1 + SPEED_RESOLUTION) * slowest.tokens_per_second


@dataclass(frozen=True)
class Verdict:
    """Everything the written answer says, derived from the statistics."""

    seeds: int  # the fewest seeds of any head count
    steps: int  # the fewest steps any run trained
    stats: list[HeadsStats]
    at_steps: Comparison
    at_time: Comparison | None  # None when no common training time could be compared
    equal_seconds: float
    noise: float  # the largest seed spread, or with one seed one_seed_noise
    largest_gap: float  # the largest difference between the best mean loss and another's
    least_stable: int | None  # the head count whose seeds vary most (with 2+ seeds)
    fastest: int
    slowest: int
    speed_ratio: float
    speed_differs: bool  # the fastest was faster than the noise of timing allows by chance
    slower_with_more_heads: bool  # tokens per second never rises with the head count
    same_parameters: bool

    @property
    def noise_known(self) -> bool:
        return self.seeds > 1

    @property
    def reading(self) -> str:
        """One of READINGS: "too_short" (fewer than MIN_VERDICT_STEPS steps: nothing is
        claimed), "within_noise" (no head count is worse than the best by more than the
        noise), or "clear" (some head count is)."""
        if self.steps < MIN_VERDICT_STEPS:
            return "too_short"
        return "clear" if self.at_steps.worse else "within_noise"


def answer(runs: list[RunSummary]) -> Verdict:
    """What the runs show about "are more heads better?", and what they cannot show."""
    stats = heads_statistics(runs)
    if not stats:
        raise ValueError("no run reached a held-out loss")
    seeds = min(len(item.losses) for item in stats)
    one_seed = one_seed_noise(runs)
    seconds, time_stats = equal_time_statistics(runs)
    fastest = max(stats, key=lambda item: item.tokens_per_second)
    slowest = min(stats, key=lambda item: item.tokens_per_second)
    speeds = [item.tokens_per_second for item in stats]
    best = min(item.mean for item in stats)
    return Verdict(
        seeds=seeds,
        steps=min(run.steps for run in runs),
        stats=stats,
        at_steps=compare(stats, one_seed),
        at_time=compare(time_stats, one_seed) if len(time_stats) == len(stats) and seconds > 0 else None,
        equal_seconds=seconds,
        noise=max(item.spread for item in stats) if seeds > 1 else one_seed,
        largest_gap=max(item.mean for item in stats) - best,
        least_stable=max(stats, key=lambda item: item.spread).heads if seeds > 1 else None,
        fastest=fastest.heads,
        slowest=slowest.heads,
        speed_ratio=fastest.tokens_per_second / slowest.tokens_per_second,
        speed_differs=speed_differs(fastest, slowest),
        slower_with_more_heads=all(later <= earlier for earlier, later in zip(speeds, speeds[1:], strict=False)),
        same_parameters=len({item.parameters for item in stats}) == 1,
    )
