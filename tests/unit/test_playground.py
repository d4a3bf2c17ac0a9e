"""gpt_core.trace_attention: the one entry point the UI calls."""

from __future__ import annotations

import math
import zlib

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from gpt_core import MAX_TOKENS, InputError, PlaygroundConfig, trace_attention
from gpt_core.playground import embed, positional_encoding
from tests.helpers import assert_close


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


def _reference_inputs(tokens: list[str], dim: int, seed: int) -> torch.Tensor:
    """The playground's input vectors from their definition (gpt_core/playground.py's
    docstring and README), written out without gpt_core: a token's vector is
    ``torch.randn(dim)`` from a generator seeded with CRC-32 of its UTF-8 bytes (started
    from the seed), plus the sinusoid of its position, sin on even and cos on odd channels."""
    rows = []
    for position, token in enumerate(tokens):
        generator = torch.Generator().manual_seed(zlib.crc32(token.encode("utf-8"), seed))
        vector = torch.randn(dim, generator=generator)
        angles = [position / 10_000 ** ((channel - channel % 2) / dim) for channel in range(dim)]
        waves = [math.sin(a) if channel % 2 == 0 else math.cos(a) for channel, a in enumerate(angles)]
        rows.append(vector + torch.tensor(waves, dtype=torch.float32))
    return torch.stack(rows).unsqueeze(0)


@pytest.mark.parametrize("bias", [False, True])
def test_numbers_equal_an_independent_reference_built_from_torch_layers(bias):
    """A shared link must reproduce the same numbers wherever torch 2.13 runs: the weights are
    torch's own nn.Linear initialisation after manual_seed(seed), in the book's order (query,
    key, value, output), and the attention is torch's own scaled_dot_product_attention."""
    text, seed, h, d = "to be or not", 5, 2, 3
    result = trace_attention(text, PlaygroundConfig(heads=h, head_dim=d, seed=seed, qkv_bias=bias))
    C = h * d
    torch.manual_seed(seed)
    query, key, value = (nn.Linear(C, C, bias=bias) for _ in range(3))
    output_layer = nn.Linear(C, C)
    assert result.tokens == list(text), "characters, one token each"
    x = _reference_inputs(list(text), C, seed)  # (1, T, C), without gpt_core's embed
    T = x.shape[1]

    def heads(layer):
        return layer(x).view(1, T, h, d).transpose(1, 2)  # (1, h, T, d)

    with torch.no_grad():
        context = F.scaled_dot_product_attention(heads(query), heads(key), heads(value), is_causal=True)
        expected = output_layer(context.transpose(1, 2).reshape(1, T, C))
        scores = heads(query) @ heads(key).transpose(-2, -1) / math.sqrt(d)
        future = torch.ones(T, T, dtype=torch.bool).triu(1)
        weights = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
    assert_close(result.trace.output, expected, 1e-6, "output vs SDPA reference")
    assert_close(result.trace.weights, weights, 1e-6, "weights vs reference")


def test_positional_encoding_is_the_sinusoid_of_the_paper():
    T, dim = 7, 6
    encoding = positional_encoding(T, dim)
    for pos in range(T):
        for i in range(0, dim, 2):
            angle = pos / 10_000 ** (i / dim)
            assert encoding[pos, i].item() == pytest.approx(math.sin(angle), abs=1e-6)
            assert encoding[pos, i + 1].item() == pytest.approx(math.cos(angle), abs=1e-6)


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


def test_bad_settings_name_what_was_given():
    with pytest.raises(InputError) as raised:
        PlaygroundConfig(tokenizer="bpe")
    assert raised.value.params == {"name": "tokenizer", "choices": ["char", "word"], "value": "bpe"}
    with pytest.raises(InputError) as raised:
        PlaygroundConfig(dropout=1.5)
    assert raised.value.params == {"dropout": 1.5}


def test_a_trace_may_read_more_tokens_than_the_pages_limit_when_asked():
    result = trace_attention("a" * 300, PlaygroundConfig(), max_tokens=MAX_TOKENS + 20)
    assert result.trace.weights.shape == (1, 4, MAX_TOKENS + 20, MAX_TOKENS + 20)
