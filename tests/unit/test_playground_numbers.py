"""The playground's numbers from their definitions: inputs, weights, caps and validation."""

from __future__ import annotations

import math
import zlib

import pytest
import torch

from gpt_core import MAX_HEAD_DIM, MAX_HEADS, MAX_INPUT_DIM, InputError, PlaygroundConfig, trace_attention
from gpt_core.playground import MAX_SEED, build_attention, embed, positional_encoding
from gpt_core.reproduce import COMPUTE_THREADS, use_compute_threads
from tests.helpers import assert_close


@pytest.mark.parametrize(
    ("name", "low", "high"),
    [("heads", 1, MAX_HEADS), ("head_dim", 1, MAX_HEAD_DIM), ("input_dim", 1, MAX_INPUT_DIM), ("seed", 0, MAX_SEED)],
)
def test_each_bound_is_accepted_and_one_beyond_it_is_refused_with_its_code(name, low, high):
    for value in (low, high):
        assert getattr(PlaygroundConfig(**{name: value}), name) == value
    for value in (low - 1, high + 1):
        with pytest.raises(InputError) as info:
            PlaygroundConfig(**{name: value})
        assert info.value.code == "out_of_range"
        assert info.value.params == {"name": name, "low": low, "high": high, "value": value}


def test_dropout_must_lie_in_zero_to_one():
    assert PlaygroundConfig(dropout=0.0).dropout == 0.0
    for dropout in (-0.01, 1.0):
        with pytest.raises(InputError) as info:
            PlaygroundConfig(dropout=dropout)
        assert info.value.code == "dropout_range"


@pytest.mark.parametrize("scale", [True, False])
def test_scaling_off_leaves_the_scores_undivided_and_on_divides_by_root_head_dim(scale):
    d = 9
    trace = trace_attention("scale me", PlaygroundConfig(heads=2, head_dim=d, scale=scale)).trace
    expected = trace.scores / math.sqrt(d) if scale else trace.scores
    assert_close(trace.scaled_scores, expected, 1e-6, "scaled scores")
    assert build_attention(PlaygroundConfig(scale=scale)).scale is scale


def test_the_dropout_mask_is_drawn_from_a_generator_seeded_with_the_seed():
    """The documented derivation: keep a weight where torch.rand (from Generator().manual_seed(seed),
    over the (1, h, T, T) weights) is at least p, and scale the kept ones by 1 / (1 - p)."""
    p, seed = 0.4, 11
    result = trace_attention("dropout!", PlaygroundConfig(heads=2, head_dim=4, seed=seed, dropout=p, training=True))
    weights = result.trace.weights
    keep = torch.rand(weights.shape, generator=torch.Generator().manual_seed(seed)) >= p
    assert_close(result.trace.dropped_weights, weights * keep / (1 - p), 1e-7, "dropped weights")
    assert not torch.equal(result.trace.dropped_weights, weights)


def test_evaluation_mode_keeps_every_weight_even_with_dropout():
    trace = trace_attention("no dropout here", PlaygroundConfig(dropout=0.5, training=False)).trace
    assert torch.equal(trace.dropped_weights, trace.weights)


def test_input_vectors_are_token_vectors_plus_the_positions():
    tokens = ["a", "b", "a"]
    with_positions = embed(tokens, 6, seed=2, positional=True)
    without = embed(tokens, 6, seed=2, positional=False)
    assert with_positions.shape == without.shape == (1, 3, 6)
    assert_close(with_positions[0] - without[0], positional_encoding(3, 6), 1e-6, "the positions alone")


def test_each_tokens_vector_is_drawn_from_its_own_seeded_generator_wherever_it_comes():
    tokens = ["to", "be", "or", "not", "to", "be"]
    x = embed(tokens, 5, seed=7, positional=False)[0]
    for position, token in enumerate(tokens):  # the definition: crc32 of the token, seeded by the seed
        generator = torch.Generator().manual_seed(zlib.crc32(token.encode("utf-8"), 7))
        assert torch.equal(x[position], torch.randn(5, generator=generator)), (position, token)
    assert not torch.equal(x[0], x[1])


@pytest.mark.parametrize("dim", [1, 5, 8])
def test_positional_encoding_starts_at_sin_0_cos_0_and_stays_in_minus_one_to_one(dim):
    encoding = positional_encoding(9, dim)
    assert encoding.shape == (9, dim)
    assert encoding[0, 0::2].eq(0).all() and encoding[0, 1::2].eq(1).all()
    assert encoding.abs().max().item() <= 1.0
    assert encoding[1, 0].item() == pytest.approx(math.sin(1.0)), "channel 0 turns one radian per position"


def test_input_dim_sets_the_width_of_the_input_vectors_only():
    config = PlaygroundConfig(heads=2, head_dim=4, input_dim=3)
    assert (config.embedding_dim, config.output_dim) == (3, 8)
    assert PlaygroundConfig(heads=2, head_dim=4).embedding_dim == 8
    module = build_attention(config)
    assert module.query_layer.in_features == 3 and module.output_layer.out_features == 8


def test_a_smaller_token_cap_cuts_the_text_and_says_so():
    result = trace_attention("abcdefgh", PlaygroundConfig(), max_tokens=5)
    assert result.tokens == list("abcde") and result.total_tokens == 8 and result.truncated
    assert result.trace.weights.shape[-1] == 5
    exact = trace_attention("abcde", PlaygroundConfig(), max_tokens=5)
    assert not exact.truncated


def test_word_tokens_are_traced_with_their_labels():
    result = trace_attention("Hi, you !", PlaygroundConfig(tokenizer="word"))
    assert result.tokens == ["Hi", ",", "you", "!"] and result.labels == result.tokens


def test_use_compute_threads_sets_the_apps_thread_count():
    torch.set_num_threads(COMPUTE_THREADS + 1)
    try:
        use_compute_threads()
        assert torch.get_num_threads() == COMPUTE_THREADS
    finally:
        torch.set_num_threads(COMPUTE_THREADS)
