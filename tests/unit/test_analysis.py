"""Per-head statistics and the row softmax calculator agree with torch."""

from __future__ import annotations

import math

import pytest
import torch

from gpt_core import PlaygroundConfig, head_statistics, softmax_steps, tokenize, trace_attention, truncate_text
from tests.helpers import assert_close


def _causal(weights_rows):
    return torch.tensor(weights_rows, dtype=torch.float64).unsqueeze(0)


def test_previous_token_head_scores_one_on_previous_token_and_zero_entropy():
    T = 5
    weights = torch.zeros(1, T, T, dtype=torch.float64)
    weights[0, 0, 0] = 1.0
    for i in range(1, T):
        weights[0, i, i - 1] = 1.0
    stats = head_statistics(weights)
    assert stats["previous_token"].item() == 1.0
    assert stats["entropy"].item() == 0.0
    assert stats["max_weight"].item() == 1.0
    assert stats["first_token"].item() == pytest.approx(1 / (T - 1))


def test_uniform_causal_head_has_the_largest_entropy():
    T = 4
    weights = torch.tril(torch.ones(T, T, dtype=torch.float64))
    weights = (weights / weights.sum(-1, keepdim=True)).unsqueeze(0)
    stats = head_statistics(weights)
    expected = sum(math.log(i + 1) for i in range(T)) / T
    assert stats["entropy"].item() == pytest.approx(expected)
    assert stats["first_token"].item() == pytest.approx((1 / 2 + 1 / 3 + 1 / 4) / 3)


def test_statistics_have_one_value_per_head():
    result = trace_attention("the cat sat on the mat", PlaygroundConfig(heads=3, head_dim=4))
    stats = head_statistics(result.trace.weights[0])
    assert all(value.shape == (3,) for value in stats.values())
    assert head_statistics(torch.ones(2, 1, 1))["previous_token"].tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match=r"\(h, T, T\)"):
        head_statistics(torch.ones(2, 3))


def test_softmax_steps_equal_torch_softmax_and_masked_keys_get_exp_zero():
    result = trace_attention("abcdef", PlaygroundConfig(heads=2, head_dim=4))
    row = result.trace.masked_scores[0, 1, 3]  # head 1, query 3
    steps = softmax_steps(row)
    assert_close(steps.weights, result.trace.weights[0, 1, 3].to(torch.float64), 1e-6, "weights")
    assert steps.exps[4:].tolist() == [0.0, 0.0]
    assert math.isinf(steps.scores[5].item()) and steps.scores[5].item() < 0
    assert steps.total == pytest.approx(steps.exps.sum().item())
    assert steps.exps.max().item() == 1.0, "the largest score gives exp(0) = 1"


def test_softmax_steps_do_not_overflow_on_huge_scores():
    steps = softmax_steps(torch.tensor([1000.0, 999.0, float("-inf")]))
    assert torch.isfinite(steps.weights).all()
    assert steps.weights.sum().item() == pytest.approx(1.0)


@pytest.mark.parametrize("tokenizer", ["char", "word"])
@pytest.mark.parametrize("text", ["Hello, brave new world!", "动手学 大模型", "a  b\n c", "x"])
@pytest.mark.parametrize("n", [1, 2, 3, 50])
def test_truncated_text_holds_exactly_the_first_tokens(tokenizer, text, n):
    assert tokenize(truncate_text(text, tokenizer, n), tokenizer) == tokenize(text, tokenizer)[:n]


def test_two_tokens_already_have_a_previous_and_a_first_token():
    """T = 2: query 1's previous token is its first token; both statistics are its weight there."""
    weights = _causal([[1.0, 0.0], [0.75, 0.25]])
    stats = head_statistics(weights)
    assert stats["previous_token"].item() == 0.75
    assert stats["first_token"].item() == 0.75
    assert stats["max_weight"].item() == pytest.approx((1.0 + 0.75) / 2)


def test_statistics_keep_the_dtype_of_the_weights_even_for_one_token():
    for T in (1, 3):
        stats = head_statistics(torch.ones(2, T, T, dtype=torch.float64) / T)
        assert all(value.dtype == torch.float64 for value in stats.values()), T


@pytest.mark.parametrize("shape", [(2, 3), (1, 3, 4), (2, 2, 2, 2)])
def test_weights_that_are_not_h_by_t_by_t_are_refused(shape):
    with pytest.raises(ValueError, match=r"\(h, T, T\)"):
        head_statistics(torch.ones(shape))


def test_softmax_steps_are_in_float64_whatever_the_input_dtype():
    steps = softmax_steps(torch.tensor([0.5, -1.0, float("-inf")], dtype=torch.float32))
    assert steps.scores.dtype == steps.exps.dtype == steps.weights.dtype == torch.float64
    expected = torch.softmax(torch.tensor([0.5, -1.0, float("-inf")], dtype=torch.float64), dim=0)
    assert_close(steps.weights, expected, 1e-15, "float64 softmax")
    assert steps.row_max == 0.5 and steps.weights.sum().item() == pytest.approx(1.0, abs=1e-15)
