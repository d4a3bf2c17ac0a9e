"""Training: AdamW, warmup then cosine decay, gradient clipping, held-out evaluation.

The trainer knows nothing of the UI: it reports through a callback and stops when
``should_stop()`` says so (checked between steps and between blocks inside a step). Seeded, so a run is reproducible.
This module is the loop and its clock against a wall-time cap; the run's records are in
``train_records``, one step and held-out evaluation in ``train_step`` (both exported here too).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import replace

import torch

from .data import Corpus
from .errors import InputError
from .model import GPT
from .train_records import MAX_SECONDS, MAX_STEPS, HistoryPoint, Progress, TrainConfig, TrainResult, last_test_loss
from .train_step import Generators, check_memory, evaluate, learning_rate_at, optimizer_for, training_step

__all__ = [  # the records and the step's helpers, importable from here as before the split
    "MAX_SECONDS",
    "MAX_STEPS",
    "Generators",
    "HistoryPoint",
    "Progress",
    "TrainConfig",
    "TrainResult",
    "evaluate",
    "forward_seconds",
    "last_test_loss",
    "learning_rate_at",
    "stop_interval",
    "train",
]

# Under a wall-time cap, a model must be able to take at least this many steps (and its
# final evaluation) inside it, judged before the first step; else the run is refused.
MIN_STEPS_IN_CAP = 3
# A training step (forward, backward, optimizer) costs about this many forward passes of
# the same batch; an evaluation batch costs one.
STEP_COST_IN_FORWARDS = 3.0
PROBE_PASSES = 2  # forward passes timed before a capped run (the faster one counts)
# Stop is checked before each block's forward and backward inside a step, so a run ends
# within about this long of the press; a capped run whose blocks take longer is refused.
STOP_CHECK_SECONDS = 0.5


@torch.no_grad()
def forward_seconds(model: GPT, corpus: Corpus, batch_size: int) -> float:
    """About how long one forward pass of a batch takes: one window's forward, timed, times
    the batch (an estimate made before training, from the model and its context)."""
    was_training = model.training
    model.eval()
    inputs, targets = corpus.train.batch(torch.zeros(1, dtype=torch.long))
    timings = []
    for _ in range(PROBE_PASSES):  # the first pass also pays torch's one-time set-up
        start = time.perf_counter()
        model(inputs, targets)
        timings.append(time.perf_counter() - start)
    model.train(was_training)
    return min(timings) * batch_size


class _Stopped(Exception):
    """Raised inside a step when ``should_stop()`` says so: the half-done step is dropped."""


class _StopChecks:
    """``should_stop`` asked before every block's forward and backward while a training step
    runs (not during evaluation), so Stop need not wait for a whole step of a large model."""

    def __init__(self, model: GPT, should_stop: Callable[[], bool] | None) -> None:
        self.should_stop = should_stop
        self.active = False
        self.handles = []
        if should_stop is not None:
            for block in model.blocks:
                self.handles.append(block.register_forward_pre_hook(self._check))
                self.handles.append(block.register_full_backward_pre_hook(self._check))

    def _check(self, *_) -> None:
        if self.active and self.should_stop():
            raise _Stopped

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()


def stop_interval(step_seconds: float, blocks: int) -> float:
    """About the longest time between two stop checks inside a step of ``step_seconds``: a
    block's forward and backward (a step's time spread over them, the backward twice the
    forward)."""
    return step_seconds / max(1, blocks) * 2 / STEP_COST_IN_FORWARDS


class _Clock:
    """A run's wall time against its cap: a step starts only when it, and the final
    evaluation after it, still fit (the slowest step so far is the measure)."""

    def __init__(self, config: TrainConfig, forward: float) -> None:
        self.cap = config.max_seconds
        self.start = time.perf_counter()
        self.step_seconds = forward * STEP_COST_IN_FORWARDS
        self.eval_batch_seconds = forward
        self.eval_batches = config.eval_batches or 1

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def left(self) -> float:
        return math.inf if self.cap is None else self.cap - self.elapsed()

    def room_for_a_step(self) -> bool:
        return self.left() >= self.step_seconds + self.eval_batches * self.eval_batch_seconds

    def evaluation_batches(self, wanted: int | None) -> int | None:
        """``wanted`` batches, or as many as fit before the cap (at least one)."""
        if self.cap is None:
            return wanted
        fitting = max(1, int(self.left() / max(self.eval_batch_seconds, 1e-9)))
        return fitting if wanted is None else min(wanted, fitting)


def _check_speed(model: GPT, cap: float, clock: _Clock) -> None:
    """Refuse, before any step, a capped run whose model is too slow: fewer than
    ``MIN_STEPS_IN_CAP`` steps (and the final evaluation) fit in ``cap``, or its blocks take
    longer than ``STOP_CHECK_SECONDS`` between two stop checks. The refusal names the largest
    model that would do (a step's time grows about as the parameters do)."""
    needed = MIN_STEPS_IN_CAP * clock.step_seconds + clock.eval_batches * clock.eval_batch_seconds
    if needed > cap:
        parameters = sum(p.numel() for p in model.parameters())
        raise InputError(
            "too_slow_for_cap",
            step=round(clock.step_seconds, 1),
            steps=MIN_STEPS_IN_CAP,
            cap=round(cap, 1),
            parameters=parameters,
            largest=int(parameters * cap / needed),
        )
    interval = stop_interval(clock.step_seconds, model.config.blocks)
    if interval > STOP_CHECK_SECONDS:
        parameters = sum(p.numel() for p in model.parameters())
        raise InputError(
            "too_slow_to_stop",
            block=round(interval, 1),
            limit=STOP_CHECK_SECONDS,
            parameters=parameters,
            largest=int(parameters * STOP_CHECK_SECONDS / interval),
        )


def _final_batches(config: TrainConfig, clock: _Clock, stopped_early: bool) -> int | None:
    """The final evaluation's batches: fewer when the cap is near, and a quick last look
    (about STOP_CHECK_SECONDS of it) when Stop was pressed."""
    batches = clock.evaluation_batches(config.eval_batches)
    if stopped_early and clock.eval_batch_seconds > 0:
        batches = min(batches or config.eval_batches or 1, max(1, int(STOP_CHECK_SECONDS / clock.eval_batch_seconds)))
    return batches


def _steps(
    model: GPT,
    corpus: Corpus,
    config: TrainConfig,
    optimizer: torch.optim.Optimizer,
    generators: Generators,
    clock: _Clock,
    checks: _StopChecks,
    history: list[HistoryPoint],
    on_progress: Callable[[Progress], None] | None,
    budget_used: Callable[[float], float],
) -> bool:
    """The run's steps, appended to ``history``; True when Stop ended it (between steps, or
    inside one: that step is dropped, the weights stay those of the last whole step)."""
    start = clock.start
    tokens_per_step = config.batch_size * corpus.train.context_length
    while (fraction := budget_used(time.perf_counter() - start)) < 1.0 and clock.room_for_a_step():
        if checks.should_stop is not None and checks.should_stop():
            return True
        step = len(history)
        learning_rate = learning_rate_at(fraction, step, config)
        for group in optimizer.param_groups:
            group["lr"] = learning_rate
        began = time.perf_counter()
        checks.active = True
        try:
            train_loss = training_step(model, corpus, config, optimizer, generators)
        except _Stopped:
            optimizer.zero_grad(set_to_none=True)
            return True
        finally:
            checks.active = False
        clock.step_seconds = max(clock.step_seconds, time.perf_counter() - began)
        elapsed = time.perf_counter() - start
        evaluated = None
        if (step + 1) % config.eval_every == 0 and clock.room_for_a_step():
            evaluated = evaluate(model, corpus, config.eval_batches, config.batch_size, generators.evaluation)
        history.append(HistoryPoint(step + 1, elapsed, train_loss, evaluated))
        if on_progress is not None:
            tokens_per_second = (step + 1) * tokens_per_step / max(elapsed, 1e-9)
            on_progress(Progress(history[-1], learning_rate, tokens_per_second, min(1.0, budget_used(elapsed))))
    return False


def train(
    model: GPT,
    corpus: Corpus,
    config: TrainConfig,
    on_progress: Callable[[Progress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> TrainResult:
    """Train ``model`` in place on ``corpus.train``; evaluate on ``corpus.test``.

    With ``config.max_seconds``, the run returns within that cap, its final evaluation
    included (on fewer test batches when time is short): a step starts only while it and
    the evaluation fit. A model too slow to take ``MIN_STEPS_IN_CAP`` steps inside the cap
    is refused with InputError("too_slow_for_cap") before its first step, and one whose
    blocks are too slow for Stop to be heard within about STOP_CHECK_SECONDS with
    InputError("too_slow_to_stop"). ``should_stop`` is asked between steps and before every
    block's forward and backward inside one (a step it interrupts is dropped)."""
    check_memory(model, config)
    generators = Generators.from_seed(config.seed)
    optimizer = optimizer_for(model, config)
    model.train()
    tokens_per_step = config.batch_size * corpus.train.context_length
    history: list[HistoryPoint] = []
    clock = _Clock(config, forward_seconds(model, corpus, config.batch_size) if config.max_seconds else 0.0)
    if config.max_seconds is not None:
        _check_speed(model, config.max_seconds, clock)
    start = clock.start

    def budget_used(elapsed: float) -> float:
        used = len(history) / config.steps if config.steps is not None else elapsed / config.seconds
        return used if config.max_seconds is None else max(used, elapsed / config.max_seconds)

    checks = _StopChecks(model, should_stop)
    try:
        stopped_early = _steps(
            model, corpus, config, optimizer, generators, clock, checks, history, on_progress, budget_used
        )
    finally:
        checks.remove()
    train_elapsed = time.perf_counter() - start  # the final evaluation is not training time
    if history and history[-1].test_loss is None:
        test_loss = evaluate(
            model, corpus, _final_batches(config, clock, stopped_early), config.batch_size, generators.evaluation
        )
        history[-1] = replace(history[-1], test_loss=test_loss)
    model.eval()
    steps = len(history)
    return TrainResult(
        steps=steps,
        elapsed=train_elapsed,
        tokens_per_second=steps * tokens_per_step / max(train_elapsed, 1e-9),
        final_test_loss=history[-1].test_loss if history else float("nan"),
        stopped_early=stopped_early,
        history=history,
    )
