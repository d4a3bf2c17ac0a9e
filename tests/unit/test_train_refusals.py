"""The trainer's refusals before a capped run, and the final evaluation's size, as pure
functions of the clock's measures (gpt_core.train._check_speed, _final_batches). Every
expected number is worked out in the test from the rules the docstrings state: a capped run
needs MIN_STEPS_IN_CAP (3) steps and its final evaluation inside the cap; Stop must be heard
within STOP_CHECK_SECONDS (0.5 s), a block's forward and backward being 2/3 of a step spread
over the blocks; a stopped run's last evaluation takes about half a second."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from gpt_core import InputError
from gpt_core.model import GPT, GPTConfig
from gpt_core.train import TrainConfig, _check_speed, _Clock, _final_batches

CONFIG = GPTConfig(vocab_size=11, context_length=8, embedding_dim=8, heads=2, blocks=1)


@dataclass
class Measures:
    """What a _Clock measured before the first step."""

    step_seconds: float
    eval_batches: int
    eval_batch_seconds: float


@pytest.fixture(scope="module")
def model() -> GPT:
    return GPT(CONFIG)


@pytest.fixture(scope="module")
def two_blocks() -> GPT:
    return GPT(GPTConfig(vocab_size=11, context_length=8, embedding_dim=8, heads=2, blocks=2))


def parameters(model: GPT) -> int:
    return sum(p.numel() for p in model.parameters())


def test_a_cap_that_holds_exactly_three_steps_and_the_evaluation_is_accepted(two_blocks):
    # 3 × 1.0 + 2 × 0.25 = 3.5 s: fits exactly (each of two blocks: 1.0 / 2 × 2 / 3 = 0.33 s)
    _check_speed(two_blocks, 3.5, Measures(1.0, 2, 0.25))


def test_a_cap_too_short_for_three_steps_is_refused_with_the_numbers_of_the_message(model):
    # needed: 3 × 1.26 + 2 × 0.1 = 3.98 s, over the cap of 3.94 s
    with pytest.raises(InputError) as caught:
        _check_speed(model, 3.94, Measures(1.26, 2, 0.1))
    error = caught.value
    assert error.code == "too_slow_for_cap"
    assert error.params == {
        "step": 1.3,
        "steps": 3,
        "cap": 3.9,
        "parameters": parameters(model),
        "largest": int(parameters(model) * 3.94 / 3.98),
    }


def test_blocks_too_slow_for_stop_to_be_heard_are_refused(model):
    # one block, 1.26 s a step: its forward and backward take 1.26 × 2 / 3 = 0.84 s > 0.5 s
    with pytest.raises(InputError) as caught:
        _check_speed(model, 600.0, Measures(1.26, 1, 0.01))
    error = caught.value
    assert error.code == "too_slow_to_stop"
    assert error.params == {
        "block": 0.8,
        "limit": 0.5,
        "parameters": parameters(model),
        "largest": int(parameters(model) * 0.5 / 0.84),
    }


def test_blocks_heard_within_exactly_the_limit_are_accepted(model):
    _check_speed(model, 600.0, Measures(0.75, 1, 0.01))  # 0.75 × 2 / 3 = 0.5 s: just in time


def test_more_blocks_share_a_step_so_each_is_quicker(two_blocks):
    _check_speed(two_blocks, 600.0, Measures(1.26, 1, 0.01))  # 1.26 / 2 × 2 / 3 = 0.42 s per block


def _clock(eval_batches: int | None, eval_batch_seconds: float) -> _Clock:
    """An uncapped run's clock whose evaluation batch took ``eval_batch_seconds``."""
    clock = _Clock(TrainConfig(steps=10, eval_batches=eval_batches), forward=0.0)
    clock.eval_batch_seconds = eval_batch_seconds
    return clock


@pytest.mark.parametrize(
    ("eval_batches", "batch_seconds", "stopped", "expected"),
    [
        (8, 0.1, False, 8),  # a finished run evaluates as configured
        (None, 0.1, False, None),  # ... the whole split when so configured
        (8, 0.1, True, 5),  # Stop: 0.5 s / 0.1 s = 5 batches, fewer than 8
        (3, 0.1, True, 3),  # ... never more than configured
        (8, 0.3, True, 1),  # 0.5 / 0.3 = 1.67: one batch
        (8, 1.0, True, 1),  # a batch slower than half a second: still one look
        (None, 0.1, True, 1),  # the whole split is too much after Stop: one batch
        (8, 0.0, True, 8),  # no measure of a batch (an uncapped run): as configured
    ],
)
def test_the_final_evaluation_is_a_quick_look_after_stop(eval_batches, batch_seconds, stopped, expected):
    config = TrainConfig(steps=10, eval_batches=eval_batches)
    assert _final_batches(config, _clock(eval_batches, batch_seconds), stopped) == expected


# --- the smaller parts of a run ---------------------------------------------------------------


def test_a_budget_of_both_kinds_is_refused_naming_both():
    with pytest.raises(InputError) as caught:
        TrainConfig(steps=10, seconds=5.0)
    assert caught.value.code == "budget_kind" and caught.value.params == {"steps": 10, "seconds": 5.0}


def test_the_last_test_loss_is_the_latest_of_several():
    from gpt_core.train import HistoryPoint, last_test_loss

    history = [
        HistoryPoint(1, 0.1, 3.0, 2.9),
        HistoryPoint(2, 0.2, 2.5),
        HistoryPoint(3, 0.3, 2.0, 1.9),
        HistoryPoint(4, 0.4, 1.5, 1.2),
    ]
    assert last_test_loss(history) == 1.2


def test_the_runs_streams_are_those_of_its_seed_plus_zero_one_and_two():
    """The batches follow the seed itself (as after torch.manual_seed(seed)), the evaluations
    seed + 1, dropout seed + 2 (the design: one stream per use, all from the run's seed)."""
    import torch

    from gpt_core.train import Generators

    streams = Generators.from_seed(7)
    for offset, stream in enumerate((streams.batches, streams.evaluation, streams.dropout)):
        expected = torch.rand(5, generator=torch.Generator().manual_seed(7 + offset))
        assert torch.equal(torch.rand(5, generator=stream), expected)


def test_the_optimizer_starts_at_the_configured_rate_with_decay_on_matrices_only(model):
    from gpt_core.train_step import optimizer_for

    optimizer = optimizer_for(model, TrainConfig(steps=10, learning_rate=0.02, weight_decay=0.3))
    decay, no_decay = optimizer.param_groups
    assert decay["lr"] == no_decay["lr"] == 0.02
    assert decay["weight_decay"] == 0.3 and no_decay["weight_decay"] == 0.0
    assert all(p.dim() >= 2 for p in decay["params"]) and all(p.dim() < 2 for p in no_decay["params"])


def test_a_budget_of_exactly_the_estimate_is_enough_and_one_byte_less_is_refused(model):
    from gpt_core.memory import estimate_training_bytes
    from gpt_core.train_step import check_memory

    estimate = estimate_training_bytes(model, 4)
    check_memory(model, TrainConfig(steps=10, batch_size=4, max_bytes=estimate))
    with pytest.raises(InputError) as caught:
        check_memory(model, TrainConfig(steps=10, batch_size=4, max_bytes=estimate - 1))
    params = caught.value.params
    assert caught.value.code == "too_large_for_memory"
    assert params["estimate_mb"] == round(estimate / 1_048_576) and params["budget_mb"] == round(
        (estimate - 1) / 1_048_576
    )
    assert params["parameters"] == parameters(model)


def test_a_budget_in_megabytes_is_named_in_megabytes(model):
    from gpt_core.train_step import check_memory

    with pytest.raises(InputError) as caught:
        check_memory(model, TrainConfig(steps=10, batch_size=4, max_bytes=5 * 1_048_576))  # the model needs ~8 MiB
    assert caught.value.params["budget_mb"] == 5 and caught.value.params["estimate_mb"] >= 8


@pytest.mark.parametrize(("step", "blocks", "expected"), [(1.2, 3, 1.2 / 3 * 2 / 3), (1.2, 1, 0.8), (0.9, 0, 0.6)])
def test_a_blocks_forward_and_backward_are_two_thirds_of_its_share_of_a_step(step, blocks, expected):
    from gpt_core.train import stop_interval

    assert stop_interval(step, blocks) == pytest.approx(expected)


@pytest.fixture
def frozen_time(monkeypatch):
    """perf_counter stands still: a clock's elapsed time is 0 and what is left is its cap."""
    import sys

    module = sys.modules["gpt_core.train"]  # the module (the package exports a function of that name)
    monkeypatch.setattr(module.time, "perf_counter", lambda: 100.0)


def test_a_clock_counts_one_evaluation_batch_for_the_whole_split():
    assert _Clock(TrainConfig(steps=10, eval_batches=None), forward=0.1).eval_batches == 1
    assert _Clock(TrainConfig(steps=10, eval_batches=8), forward=0.1).eval_batches == 8


def test_a_step_starts_while_it_and_the_evaluation_fit_exactly(frozen_time):
    # a step costs 3 forwards (0.375 s), two evaluation batches one each (0.25 s): 0.625 s
    assert _Clock(TrainConfig(steps=10, eval_batches=2, max_seconds=0.625), forward=0.125).room_for_a_step()
    assert not _Clock(TrainConfig(steps=10, eval_batches=2, max_seconds=0.62), forward=0.125).room_for_a_step()


@pytest.mark.parametrize(
    ("cap", "wanted", "expected"),
    [(None, 5, 5), (None, None, None), (1.0, 5, 5), (1.0, None, 8), (1.0, 20, 8), (0.1, 5, 1), (0.1, None, 1)],
)  # 1.0 s left at 0.125 s a batch: 8 fit; 0.1 s: none whole, but one look at least
def test_the_evaluation_takes_as_many_batches_as_fit_before_the_cap(frozen_time, cap, wanted, expected):
    clock = _Clock(TrainConfig(steps=10, max_seconds=cap), forward=0.125)
    assert clock.evaluation_batches(wanted) == expected


@pytest.fixture(scope="module")
def corpus():
    from gpt_core import build_corpus, synthetic_text

    return build_corpus("copy", synthetic_text("copy", 6000, seed=1), context_length=16)


def _small(corpus, blocks: int = 1) -> GPT:
    config = GPTConfig(vocab_size=corpus.vocabulary.size, context_length=16, embedding_dim=8, heads=2, blocks=blocks)
    return GPT(config, seed=0)


def test_stop_is_asked_before_each_step_and_each_blocks_passes_never_during_evaluation(corpus):
    from gpt_core import train

    calls = []

    def should_stop() -> bool:
        calls.append(1)
        return False

    train(
        _small(corpus),
        corpus,
        TrainConfig(steps=2, batch_size=2, eval_every=1, eval_batches=1),
        should_stop=should_stop,
    )
    # per step: once before it, once before the block's forward, once before its backward;
    # the evaluation after each step asks nothing
    assert len(calls) == 2 * 3


def test_the_first_step_is_one_adamw_step_at_the_warmup_rate(corpus):
    """One step of the run equals one written here: the batch its seed draws, the loss's
    gradients clipped to norm 1, AdamW at learning_rate × 1 / warmup_steps, decay on matrices."""
    import copy

    import torch

    from gpt_core import train

    model = _small(corpus)
    twin = copy.deepcopy(model)
    config = TrainConfig(
        steps=1,
        batch_size=4,
        learning_rate=0.01,
        warmup_steps=10,
        weight_decay=0.1,
        grad_clip=1.0,
        eval_every=100,
        eval_batches=1,
        seed=3,
    )
    train(model, corpus, config)
    indices = torch.randint(len(corpus.train), (4,), generator=torch.Generator().manual_seed(3))
    inputs, targets = corpus.train.batch(indices)
    twin.train()
    _, loss = twin(inputs, targets)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(twin.parameters(), 1.0)
    matrices = [p for p in twin.parameters() if p.dim() >= 2]
    others = [p for p in twin.parameters() if p.dim() < 2]
    torch.optim.AdamW(
        [{"params": matrices, "weight_decay": 0.1}, {"params": others, "weight_decay": 0.0}], lr=0.01 / 10
    ).step()
    for (name, trained), (_, by_hand) in zip(model.state_dict().items(), twin.state_dict().items(), strict=True):
        torch.testing.assert_close(trained, by_hand, rtol=0, atol=1e-7, msg=name)


def test_evaluations_read_the_runs_own_stream_whatever_the_global_one(corpus):
    """Each evaluation draws its batches from the run's evaluation stream (seed + 1): a run's
    held-out losses do not change with torch's global random state, and the first one is the
    model after its first step evaluated on that stream's first draws."""
    import copy

    import torch

    from gpt_core import evaluate, train

    config = TrainConfig(steps=3, batch_size=4, eval_every=1, eval_batches=2, seed=5)
    after_first = []

    def keep(progress) -> None:
        if progress.step == 1:
            after_first.append(copy.deepcopy(model))

    runs = []
    for global_seed in (11, 12):
        torch.manual_seed(global_seed)
        model = _small(corpus)
        runs.append(train(model, corpus, config, on_progress=keep))
    assert [p.test_loss for p in runs[0].history] == [p.test_loss for p in runs[1].history]
    expected = evaluate(after_first[0], corpus, 2, 4, torch.Generator().manual_seed(6))
    assert runs[0].history[0].test_loss == pytest.approx(expected, abs=1e-6)
    assert all(isinstance(p.train_loss, float) and p.train_loss > 0 for p in runs[0].history)


def test_the_final_evaluation_takes_its_configured_batches_from_the_runs_stream(corpus):
    import copy

    import torch

    from gpt_core import evaluate, train

    model = _small(corpus)
    result = train(model, corpus, TrainConfig(steps=2, batch_size=4, eval_every=100, eval_batches=3, seed=2))
    trained = copy.deepcopy(model)
    expected = evaluate(trained, corpus, 3, 4, torch.Generator().manual_seed(3))  # no evaluation before: first draws
    assert (
        result.history[-1].test_loss == pytest.approx(expected, abs=1e-6)
        and result.final_test_loss == result.history[-1].test_loss
    )


def test_a_stopped_uncapped_run_still_evaluates_its_configured_batches(corpus):
    """Without a cap nothing was timed, so Stop's quick last look does not shorten the
    evaluation: the configured batches from the run's stream."""
    import copy

    import torch

    from gpt_core import evaluate, train

    asked = []
    model = _small(corpus)
    result = train(
        model,
        corpus,
        TrainConfig(steps=50, batch_size=4, eval_every=100, eval_batches=3, seed=2),
        should_stop=lambda: asked.append(1) or len(asked) > 3,
    )  # stops between its first two steps' checks
    assert result.stopped_early and result.steps >= 1
    expected = evaluate(copy.deepcopy(model), corpus, 3, 4, torch.Generator().manual_seed(3))
    assert result.history[-1].test_loss == pytest.approx(expected, abs=1e-6)


def test_a_runs_times_are_its_own_and_a_roomy_cap_takes_every_step(corpus):
    import time

    from gpt_core import train

    started = time.perf_counter()
    result = train(
        _small(corpus), corpus, TrainConfig(steps=4, batch_size=4, eval_every=100, eval_batches=1, max_seconds=120.0)
    )
    wall = time.perf_counter() - started
    assert result.steps == 4, "a cap far beyond four steps ends none early"
    assert all(0 <= p.elapsed <= wall for p in result.history)
    assert [p.elapsed for p in result.history] == sorted(p.elapsed for p in result.history)
