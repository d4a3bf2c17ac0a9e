"""Heads and layers combined (mean over heads, attention rollout) and one score's q·k by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from gpt_core import PlaygroundConfig, qk_products, trace_attention
from gpt_core.explore import attention_rollout, mean_over_heads

# Two layers of two heads over T = 3 tokens, small numbers to follow by hand.
LAYER_1 = torch.tensor(
    [
        [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.5, 0.0]],
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.0, 0.5]],
    ]
)
LAYER_2 = torch.tensor(
    [
        [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    ]
)
# By hand: mean over heads A1 = [[1,0,0],[.5,.5,0],[.5,.25,.25]], A2 = [[1,0,0],[.5,.5,0],[0,.5,.5]];
# Â = ½A + ½I (rows already sum to 1): Â1 = [[1,0,0],[.25,.75,0],[.25,.125,.625]],
# Â2 = [[1,0,0],[.25,.75,0],[0,.25,.75]]; rollout = Â2 · Â1:
ROLLOUT = np.array(
    [
        [1.0, 0.0, 0.0],
        [0.4375, 0.5625, 0.0],
        [0.25, 0.28125, 0.46875],
    ]
)
# The other order, Â1 · Â2, differs in its last row: [0.28125, 0.25, 0.46875].


def random_weights(layers: int, h: int, T: int, seed: int = 0) -> list[torch.Tensor]:
    generator = torch.Generator().manual_seed(seed)
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
    return [
        torch.softmax(torch.randn(h, T, T, generator=generator).masked_fill(future, float("-inf")), -1)
        for _ in range(layers)
    ]


def test_mean_over_heads_by_hand():
    means = mean_over_heads([LAYER_1, LAYER_2])
    np.testing.assert_array_equal(means[0].numpy(), [[1, 0, 0], [0.5, 0.5, 0], [0.5, 0.25, 0.25]])
    np.testing.assert_array_equal(means[1].numpy(), [[1, 0, 0], [0.5, 0.5, 0], [0, 0.5, 0.5]])


def test_two_layer_rollout_by_hand_multiplies_from_the_first_layer_up():
    rollout = attention_rollout([LAYER_1, LAYER_2]).numpy()
    np.testing.assert_allclose(rollout, ROLLOUT, rtol=0, atol=1e-12)
    swapped = attention_rollout([LAYER_2, LAYER_1]).numpy()
    assert not np.allclose(swapped, ROLLOUT), "the order of the layers matters"


def test_one_layer_is_half_its_mean_plus_half_identity_renormalised():
    weights = random_weights(1, 4, 6, seed=3)[0]
    mixed = 0.5 * weights.double().mean(0) + 0.5 * torch.eye(6, dtype=torch.float64)
    expected = mixed / mixed.sum(-1, keepdim=True)
    torch.testing.assert_close(attention_rollout([weights]), expected, rtol=0, atol=1e-12)


def test_rows_are_renormalised_when_a_layers_rows_do_not_sum_to_one():
    weights = torch.tensor([[[2.0, 0.0], [1.0, 1.0]]])  # rows sum to 2
    # ½A + ½I = [[1.5, 0], [.5, 1]]: rows renormalised to [[1, 0], [1/3, 2/3]]
    np.testing.assert_allclose(attention_rollout([weights]).numpy(), [[1, 0], [1 / 3, 2 / 3]], atol=1e-12)


@pytest.mark.parametrize("layers", [1, 2, 5])
def test_rollout_rows_sum_to_one_and_the_future_is_exactly_zero(layers):
    rollout = attention_rollout(random_weights(layers, 3, 7, seed=layers))
    torch.testing.assert_close(rollout.sum(-1), torch.ones(7, dtype=torch.float64), rtol=0, atol=1e-12)
    assert torch.all(torch.triu(rollout, 1) == 0), "causal: no query draws on a later token"
    assert torch.all(rollout >= 0)


def test_batched_and_unbatched_weights_give_the_same_rollout():
    weights = random_weights(3, 2, 5, seed=1)
    batched = [layer.unsqueeze(0) for layer in weights]
    assert torch.equal(attention_rollout(batched), attention_rollout(weights))
    for one, other in zip(mean_over_heads(batched), mean_over_heads(weights), strict=True):
        assert torch.equal(one, other)


def test_numpy_weights_are_read_too():
    weights = random_weights(2, 2, 4, seed=5)
    assert torch.equal(attention_rollout([w.numpy() for w in weights]), attention_rollout(weights))


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ([], r"^attention rollout needs the weights of at least one layer \(got an empty list\)$"),
        (
            [torch.ones(2, 3, 3) / 3, torch.ones(2, 4, 4) / 4],
            "^layer 1 has T = 4 tokens, layer 0 has T = 3: every layer must read the same tokens$",
        ),
        ([torch.ones(2, 4, 3, 3) / 3], r"^layer 0: weights \(B, h, T, T\) must hold one sequence, got B = 2$"),
        ([torch.ones(3, 3)], "shape"),
        ([torch.ones(2, 3, 4)], "shape"),
    ],
)
def test_bad_weights_raise_a_clear_error(weights, message):
    with pytest.raises(ValueError, match=message):
        attention_rollout(weights)
    with pytest.raises(ValueError, match=message):
        mean_over_heads(weights)


@pytest.mark.parametrize("scale", [True, False])
def test_the_products_sum_to_the_raw_score_and_scale_as_the_layer_does(scale):
    config = PlaygroundConfig(heads=3, head_dim=5, seed=2, scale=scale)
    trace = trace_attention("attention", config).trace
    T = trace.scores.shape[-1]
    for head in range(3):
        for row in range(T):
            for col in range(T):
                qk = qk_products(trace, head, row, col)
                assert qk.products.shape == (5,)
                assert abs(qk.total - trace.scores[0, head, row, col].item()) <= 1e-6
                assert abs(qk.scaled - trace.scaled_scores[0, head, row, col].item()) <= 1e-6
                assert qk.divisor == (math.sqrt(5) if scale else 1.0)
                assert qk.scaled == qk.total / qk.divisor
                assert qk.masked == (col > row)


def test_the_products_are_q_times_k_and_their_sum_is_torchs_q_at_k_transposed():
    trace = trace_attention("to be or not", PlaygroundConfig(heads=2, head_dim=4, seed=7, tokenizer="word")).trace
    q, k = trace.queries_heads[0, 1].double(), trace.keys_heads[0, 1].double()
    logits = q @ k.T
    qk = qk_products(trace, 1, 2, 1)
    torch.testing.assert_close(qk.q, q[2])
    torch.testing.assert_close(qk.k, k[1])
    torch.testing.assert_close(qk.products, q[2] * k[1])
    assert abs(qk.total - logits[2, 1].item()) <= 1e-12


def test_the_softmax_of_the_scaled_scores_of_a_row_is_the_traces_weights():
    trace = trace_attention("动手学大模型", PlaygroundConfig(seed=4)).trace
    row = 4
    scaled = torch.tensor([qk_products(trace, 2, row, col).scaled for col in range(row + 1)], dtype=torch.float64)
    torch.testing.assert_close(
        torch.softmax(scaled, -1), trace.weights[0, 2, row, : row + 1].double(), atol=1e-6, rtol=0
    )


@pytest.mark.parametrize(
    ("head", "row", "col", "message"),
    [
        (4, 0, 0, "head must be between 0 and 3 (got 4)"),
        (0, 6, 0, "row must be between 0 and 5 (got 6)"),
        (0, 0, -1, "col must be between 0 and 5 (got -1)"),
    ],
)
def test_a_cell_outside_the_trace_raises_a_clear_error(head, row, col, message):
    trace = trace_attention("动手学大模型", PlaygroundConfig()).trace
    with pytest.raises(ValueError) as raised:
        qk_products(trace, head, row, col)
    assert str(raised.value) == message


@pytest.mark.parametrize("missing", ["queries_heads", "keys_heads", "scores", "scaled_scores"])
def test_a_trace_without_one_of_its_parts_says_so(missing):
    import dataclasses

    trace = trace_attention("动手学大模型", PlaygroundConfig()).trace
    partial = dataclasses.replace(trace, **{missing: None})
    with pytest.raises(ValueError) as raised:
        qk_products(partial, 0, 1, 0)
    assert str(raised.value) == "the trace has no per-head queries, keys and scores (was it filled by a forward pass?)"


def test_the_divisor_is_read_from_the_layers_own_numbers():
    """1 when nothing was divided, √d within float tolerance (relative 1e-4, or 1e-6 for
    tiny scores), else the factor itself, read at the largest score."""
    from gpt_core.analysis import _divisor

    scores = torch.tensor([[1.5, -4.0], [0.25, 3.0]])
    assert _divisor(scores, scores.clone(), 4) == 1.0
    assert _divisor(scores, scores / 3, 4) == pytest.approx(3.0, rel=1e-6), "another factor than √4"
    assert _divisor(scores, scores / 2 * (1 + 5e-5), 4) == 2.0, "√d within the relative tolerance"
    tiny = torch.tensor([[1e-4, -2e-4], [3e-4, 1e-4]])
    assert _divisor(tiny, tiny / 2 + 5e-7, 4) == 2.0, "√d within the absolute tolerance"
