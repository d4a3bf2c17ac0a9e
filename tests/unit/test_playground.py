"""gpt_core.trace_attention: the one entry point the UI calls."""

from __future__ import annotations

import pytest
import torch

from gpt_core import MAX_TOKENS, InputError, PlaygroundConfig, trace_attention
from gpt_core.playground import embed, positional_encoding


def test_book_example_traces_six_tokens_with_the_chosen_heads():
    result = trace_attention("动手学大模型", PlaygroundConfig(heads=2, head_dim=3))
    assert result.tokens == list("动手学大模型")
    assert tuple(result.trace.weights.shape) == (1, 2, 6, 6)
    assert tuple(result.trace.output.shape) == (1, 6, 6)
    assert not result.truncated


def test_same_seed_same_numbers_and_other_seed_other_numbers():
    config = PlaygroundConfig(heads=4, head_dim=8, seed=7)
    first = trace_attention("the cat sat", config).trace.weights
    again = trace_attention("the cat sat", config).trace.weights
    other = trace_attention("the cat sat", PlaygroundConfig(heads=4, head_dim=8, seed=8)).trace.weights
    assert torch.equal(first, again)
    assert not torch.equal(first, other)


def test_global_random_state_is_left_alone():
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    trace_attention("abc", PlaygroundConfig(dropout=0.5, training=True))
    assert torch.equal(torch.rand(3), expected)


def test_a_token_always_gets_the_same_vector_for_a_seed():
    x = embed(["a", "b", "a"], 8, seed=3, positional=False)
    assert torch.equal(x[0, 0], x[0, 2])
    assert not torch.equal(x[0, 0], x[0, 1])
    assert torch.equal(embed(["a"], 8, 3, False)[0, 0], x[0, 0])
    assert not torch.equal(embed(["a"], 8, 4, False)[0, 0], x[0, 0])


def test_positional_embedding_separates_repeated_tokens():
    with_positions = embed(["a", "a"], 8, seed=0, positional=True)
    assert not torch.equal(with_positions[0, 0], with_positions[0, 1])
    assert positional_encoding(5, 7).shape == (5, 7)


def test_known_values_pin_the_random_weight_mode():
    """A shared link must reproduce the same numbers wherever torch 2.13 runs."""
    weights = trace_attention("ab", PlaygroundConfig(heads=1, head_dim=2, seed=0)).trace.weights
    assert weights[0, 0, 0].tolist() == [1.0, 0.0]
    row = weights[0, 0, 1]
    assert row.sum().item() == pytest.approx(1.0, abs=1e-6)
    again = trace_attention("ab", PlaygroundConfig(heads=1, head_dim=2, seed=0)).trace.weights[0, 0, 1]
    assert torch.equal(row, again)


def test_long_text_is_cut_to_the_token_cap():
    result = trace_attention("x" * (MAX_TOKENS + 50), PlaygroundConfig())
    assert len(result.tokens) == MAX_TOKENS
    assert result.total_tokens == MAX_TOKENS + 50
    assert result.truncated


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_text_is_a_readable_error(text):
    with pytest.raises(InputError) as info:
        trace_attention(text, PlaygroundConfig())
    assert info.value.code == "empty_text"


def test_an_invisible_character_alone_is_a_visible_token():
    result = trace_attention("\u200b", PlaygroundConfig(tokenizer="word"))
    assert result.labels == ["U+200B"]


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(heads=0),
        dict(heads=17),
        dict(head_dim=0),
        dict(head_dim=65),
        dict(seed=-1),
        dict(input_dim=0),
        dict(tokenizer="bpe"),
        dict(dropout=1.0),
    ],
)
def test_config_validates_itself(kwargs):
    with pytest.raises(InputError):
        PlaygroundConfig(**kwargs)


def test_input_dim_differs_from_c():
    result = trace_attention("hello", PlaygroundConfig(heads=2, head_dim=4, input_dim=5))
    assert tuple(result.trace.x.shape) == (1, 5, 5)
    assert tuple(result.trace.context.shape) == (1, 5, 8)


def test_dropout_in_training_mode_follows_the_seed():
    config = PlaygroundConfig(dropout=0.5, training=True, seed=2)
    first = trace_attention("abcdef", config).trace.dropped_weights
    assert torch.equal(first, trace_attention("abcdef", config).trace.dropped_weights)
    assert (first == 0).sum() > (trace_attention("abcdef", PlaygroundConfig(seed=2)).trace.dropped_weights == 0).sum()
