"""A capped run against a clock the test controls: gpt_core.train reads its time from
``time.perf_counter`` in its own module, which these tests replace by a clock that moves
only when a training step "takes" the seconds the test gives it. The cap's forward timing
(``forward_seconds``) is replaced by a measure written here, and the evaluations the run asks
for are recorded (then run for real). Every expected number is worked out in the test from
the rules the docstrings state: a step costs 3 forwards, an evaluation batch one; a step
starts only while it (the slowest so far) and the final evaluation fit; the budget's share
used is the larger of the steps done and the cap's time gone; after Stop the final
evaluation is about half a second of batches, never more than fit before the cap."""

from __future__ import annotations

import importlib
import math
from types import SimpleNamespace

import pytest
import torch

from gpt_core import GPT, GPTConfig, TrainConfig, build_corpus, synthetic_text

TRAINING = importlib.import_module("gpt_core.train")  # the module: the package exports a function of that name
START = 1000.0  # the clock's reading when the run starts: every time below is a sum of binary fractions


class FakeClock:
    """``perf_counter`` that stands still until a step moves it."""

    def __init__(self) -> None:
        self.now = START

    def perf_counter(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(TRAINING, "time", SimpleNamespace(perf_counter=fake.perf_counter))
    return fake


@pytest.fixture(scope="module")
def corpus():
    """The corpus, and a first model built once: torch imports its compiler the first time
    a model is made (seconds on a busy machine), a cost of the process, not of a test."""
    corpus = build_corpus("copy", synthetic_text("copy", 2000), context_length=8)
    _model(corpus)
    return corpus


def _model(corpus) -> GPT:
    return GPT(GPTConfig(vocab_size=corpus.vocabulary.size, context_length=8, embedding_dim=8, heads=2, blocks=1))


@pytest.fixture
def machine(monkeypatch, clock):
    """Steps that take the seconds of ``machine.step_seconds`` in turn (the clock moves as the
    step begins, so a Stop check inside it already sees the later time), a cap's forward
    timing of ``machine.forward`` seconds, and the evaluations' batch counts in
    ``machine.evaluations``."""
    torch.set_num_threads(1)
    state = SimpleNamespace(step_seconds=[], forward=0.0625, forward_calls=[], evaluations=[], clock=clock)
    real_step, real_evaluate = TRAINING.training_step, TRAINING.evaluate

    def step(*args, **kwargs):
        clock.now += state.step_seconds.pop(0)
        return real_step(*args, **kwargs)

    def forward_seconds(model, corpus, batch_size):
        state.forward_calls.append(batch_size)
        return state.forward

    def evaluate(model, corpus, batches, batch_size, generator=None):
        state.evaluations.append(batches)
        return real_evaluate(model, corpus, batches, batch_size, generator)

    monkeypatch.setattr(TRAINING, "training_step", step)
    monkeypatch.setattr(TRAINING, "forward_seconds", forward_seconds)
    monkeypatch.setattr(TRAINING, "evaluate", evaluate)
    return state


def test_a_steps_budget_under_a_cap_reports_the_share_of_the_cap_gone_and_follows_it(corpus, machine):
    """100 steps under a 4 s cap, each step 1 s: after each step the cap's share (1/4, 2/4,
    3/4) is larger than the steps' (1/100 ...); a fourth step (1 s, the slowest so far, and
    one 0.0625 s evaluation batch) no longer fits in the 1 s left. The learning rate follows
    the same share (no warmup: a cosine from 0.01 down to 0.001 over the budget)."""
    machine.step_seconds = [1.0, 1.0, 1.0]
    seen = []
    config = TrainConfig(steps=100, max_seconds=4.0, batch_size=4, eval_batches=1, warmup_steps=0, learning_rate=0.01)
    result = TRAINING.train(_model(corpus), corpus, config, on_progress=seen.append)
    assert machine.forward_calls == [4], "a capped run times one batch's forward pass, once"
    assert [progress.fraction for progress in seen] == [0.25, 0.5, 0.75]
    assert [progress.elapsed for progress in seen] == [1.0, 2.0, 3.0]
    # each step's rate is set from the share used when it starts: 0, 1/4, 2/4 of the cap
    expected = [0.001 + 0.5 * 0.009 * (1 + math.cos(math.pi * share)) for share in (0, 0.25, 0.5)]
    assert [progress.learning_rate for progress in seen] == pytest.approx(expected, rel=1e-6)
    assert result.steps == 3 and result.elapsed == 3.0 and not result.stopped_early
    assert result.tokens_per_second == 3 * 4 * 8 / 3.0
    assert machine.evaluations == [1], "the final evaluation: the one configured batch fits (1 s left)"


def test_a_step_that_overruns_the_cap_reports_the_budget_as_done_not_more(corpus, machine):
    """Two steps of 1 s, then one of 2.5 s that starts with 2 s left (room for the slowest
    step, 1 s, and an evaluation batch) and ends 0.5 s past the 4 s cap: 4.5 / 4 of the cap
    is gone, but the progress says the budget is done, 1.0."""
    machine.step_seconds = [1.0, 1.0, 2.5]
    seen = []
    config = TrainConfig(steps=100, max_seconds=4.0, batch_size=4, eval_batches=1)
    result = TRAINING.train(_model(corpus), corpus, config, on_progress=seen.append)
    assert [progress.fraction for progress in seen] == [0.25, 0.5, 1.0]
    assert result.steps == 3 and result.elapsed == 4.5
    assert machine.evaluations == [1], "past the cap: still one look"


def test_stop_near_the_cap_evaluates_only_the_batches_that_fit_before_it(corpus, machine):
    """A 4 s cap, 8 evaluation batches of 0.0625 s each. The first step takes 1 s; the second
    starts with 3 s left and runs to 3.75 s, where Stop (pressed from 3.5 s on) ends it inside.
    0.25 s are left: 4 batches fit, fewer than the 8 configured and fewer than the 8 a
    half-second look after Stop would read, so the final evaluation reads 4."""
    machine.step_seconds = [1.0, 2.75]
    config = TrainConfig(steps=100, max_seconds=4.0, batch_size=4, eval_batches=8)
    result = TRAINING.train(_model(corpus), corpus, config, should_stop=lambda: machine.clock.now >= START + 3.5)
    assert result.stopped_early and result.steps == 1 and result.elapsed == 3.75
    assert machine.evaluations == [4]
    assert result.history[-1].test_loss == result.final_test_loss is not None


def test_an_uncapped_run_times_no_forward_pass_and_evaluates_as_configured_after_stop(corpus, machine):
    """Without a cap nothing is timed before the first step, so nothing shortens the final
    evaluation after Stop: it reads the 8 batches configured (a measured forward of 0.125 s
    would have cut it to the 4 of half a second)."""
    machine.step_seconds = [1.0, 1.0, 1.0]
    machine.forward = 0.125
    config = TrainConfig(steps=100, batch_size=4, eval_batches=8)
    result = TRAINING.train(_model(corpus), corpus, config, should_stop=lambda: machine.clock.now >= START + 2.5)
    assert machine.forward_calls == []
    assert result.stopped_early and result.steps == 2 and result.elapsed == 3.0
    assert machine.evaluations == [8]
