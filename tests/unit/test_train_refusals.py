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
    assert error.params == {"step": 1.3, "steps": 3, "cap": 3.9, "parameters": parameters(model),
                            "largest": int(parameters(model) * 3.94 / 3.98)}  # fmt: skip


def test_blocks_too_slow_for_stop_to_be_heard_are_refused(model):
    # one block, 1.26 s a step: its forward and backward take 1.26 × 2 / 3 = 0.84 s > 0.5 s
    with pytest.raises(InputError) as caught:
        _check_speed(model, 600.0, Measures(1.26, 1, 0.01))
    error = caught.value
    assert error.code == "too_slow_to_stop"
    assert error.params == {"block": 0.8, "limit": 0.5, "parameters": parameters(model),
                            "largest": int(parameters(model) * 0.5 / 0.84)}  # fmt: skip


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
)  # fmt: skip
def test_the_final_evaluation_is_a_quick_look_after_stop(eval_batches, batch_seconds, stopped, expected):
    config = TrainConfig(steps=10, eval_batches=eval_batches)
    assert _final_batches(config, _clock(eval_batches, batch_seconds), stopped) == expected
