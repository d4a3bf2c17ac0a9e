"""The training-step memory estimate (gpt_core.memory), written out by hand: float32 numbers for
the weights, their gradients, AdamW's two moments and one temporary copy (5 per parameter);
every block's activations (20 numbers per position and channel, plus 4 for the embeddings and
the final norm); 3 attention matrices per head and block; 3 copies of the logits; and 8 MiB
whatever the model. And the largest model that fits a budget: the same heads, blocks and
context with a smaller head_dim, else one channel per head and fewer blocks."""

from __future__ import annotations

import pytest

from gpt_core.memory import estimate_training_bytes, largest_fitting_parameters
from gpt_core.model import GPT, GPTConfig

MIB = 2**20


def parameters(config: GPTConfig) -> int:
    return sum(p.numel() for p in GPT(config).parameters())


@pytest.mark.parametrize(
    ("config", "batch", "activations", "attention", "logits"),
    [
        # positions = batch × context; each term written with the config's numbers
        (
            GPTConfig(vocab_size=11, context_length=8, embedding_dim=8, heads=2, blocks=1),
            4,
            32 * 8 * (20 * 1 + 4),
            3 * 4 * 2 * 8**2 * 1,
            3 * 32 * 11,
        ),
        (
            GPTConfig(vocab_size=13, context_length=16, embedding_dim=12, heads=4, blocks=3),
            3,
            48 * 12 * (20 * 3 + 4),
            3 * 3 * 4 * 16**2 * 3,
            3 * 48 * 13,
        ),
        (
            GPTConfig(vocab_size=5, context_length=4, embedding_dim=6, heads=3, blocks=2),
            7,
            28 * 6 * (20 * 2 + 4),
            3 * 7 * 3 * 4**2 * 2,
            3 * 28 * 5,
        ),
    ],
)
def test_the_estimate_adds_up_what_a_step_keeps(config, batch, activations, attention, logits):
    numbers = 5 * parameters(config) + activations + attention + logits
    assert estimate_training_bytes(config, batch) == numbers * 4 + 8 * MIB
    assert estimate_training_bytes(GPT(config), batch) == numbers * 4 + 8 * MIB  # a model, or its config


# heads 2, head_dim 4, 3 blocks: the candidates in order are head_dim 3, 2, 1 with 3 blocks,
# then head_dim 1 with 2 blocks, then with 1 block.
BASE = GPTConfig(vocab_size=11, context_length=8, embedding_dim=8, heads=2, blocks=3)
BATCH = 4


def shrunk(head_dim: int, blocks: int = 3) -> GPTConfig:
    return GPTConfig(vocab_size=11, context_length=8, embedding_dim=2 * head_dim, heads=2, blocks=blocks)


@pytest.mark.parametrize(
    ("budget_of", "expected"),
    [
        (shrunk(3), shrunk(3)),  # a budget of exactly its estimate fits
        (shrunk(2), shrunk(2)),
        (shrunk(1), shrunk(1)),
        (shrunk(1, blocks=2), shrunk(1, blocks=2)),
        (shrunk(1, blocks=1), shrunk(1, blocks=1)),
    ],
)
def test_the_largest_fitting_model_is_the_first_smaller_one_that_fits(budget_of, expected):
    budget = estimate_training_bytes(budget_of, BATCH)
    assert largest_fitting_parameters(BASE, BATCH, budget) == parameters(expected)
    assert largest_fitting_parameters(BASE, BATCH, budget - 1) < parameters(expected)  # one byte less: smaller


def test_a_budget_for_more_than_the_model_names_the_next_smaller_one():
    """The model itself was refused: the answer is always smaller than it, never larger."""
    assert largest_fitting_parameters(BASE, BATCH, 10**12) == parameters(shrunk(3))


def test_a_budget_nothing_fits_names_no_model():
    assert largest_fitting_parameters(BASE, BATCH, 1) == 0
