"""The lesson's numbers: each step's claim holds on the live computation."""

from __future__ import annotations

import pytest
import torch

from gpt_core import InputError, PlaygroundConfig, build_attention, embed, trace_attention
from gpt_core.lesson import BOOK_TEXT, head_by_head, head_channels, parameter_counts, scaling_table, zero_columns

HEAD_BY_HEAD_TOLERANCE = 1e-6


def test_the_book_example_has_six_tokens_and_row_3_is_zero_exactly_after_position_3():
    trace = trace_attention(BOOK_TEXT, PlaygroundConfig(heads=4, head_dim=8)).trace
    assert trace.weights.shape == (1, 4, 6, 6)
    for head in range(4):
        assert zero_columns(trace.weights[0, head, 3]) == [4, 5]
        assert torch.all(trace.weights[0, head, 3, :4] > 0)


def test_the_same_number_of_parameters_for_every_head_count_at_one_embedding():
    counts = parameter_counts(64)
    totals = {heads: count["total"] for heads, count in counts.items()}
    assert len(set(totals.values())) == 1, totals
    assert totals[1] == 4 * 64 * 64 + 64, "Q, K, V without bias, the output projection with one"
    with pytest.raises(InputError, match="divisible") as refused:  # 64 is not divisible by 3: the layer refuses
        parameter_counts(64, (3,))
    assert refused.value.code == "heads_not_divisor"


@pytest.mark.parametrize(("heads", "head_dim", "bias"), [(1, 16, False), (4, 8, False), (8, 4, True), (3, 5, True)])
def test_head_by_head_from_sliced_weights_equals_the_batched_layer(heads, head_dim, bias):
    config = PlaygroundConfig(heads=heads, head_dim=head_dim, seed=7, qkv_bias=bias)
    module = build_attention(config)
    x = embed(list(BOOK_TEXT), config.embedding_dim, config.seed, True)
    difference = (head_by_head(module, x) - module(x)).abs().max().item()
    assert difference < HEAD_BY_HEAD_TOLERANCE


def test_head_channels_are_consecutive_blocks_covering_every_channel_once():
    blocks = [head_channels(4, 8, head) for head in range(1, 5)]
    assert [list(b) for b in blocks][1] == list(range(8, 16))
    assert sorted(c for b in blocks for c in b) == list(range(32))
    with pytest.raises(ValueError):
        head_channels(4, 8, 5)


def test_without_scaling_the_scores_spread_and_the_softmax_saturates_as_head_dim_grows():
    rows = scaling_table(tokens=6)
    spreads = [row.score_std for row in rows]
    maxima = [row.max_weight for row in rows]
    assert spreads == sorted(spreads) and maxima == sorted(maxima)
    assert rows[-1].max_weight > 0.9, "head_dim 256: one key takes nearly all the weight"
    for row in rows:
        assert row.scaled_std == pytest.approx(1.0, abs=0.1)
        assert row.score_std == pytest.approx(row.head_dim**0.5, rel=0.1)
        assert row.scaled_max_weight < 0.5


def test_the_scaling_table_is_one_query_against_the_keys_per_sample_from_the_seed():
    """The numbers recomputed here from the definition: for each head_dim in turn, 2000 rows of
    one unit-variance query against ``tokens`` keys, drawn in that order from seed 0; the
    spread of the scores, then of the scores ÷ √d; the mean largest weight of each row."""
    generator = torch.Generator().manual_seed(0)
    rows = scaling_table(tokens=6, head_dims=(4, 16))
    for row, d in zip(rows, (4, 16), strict=True):
        q = torch.randn(2000, d, generator=generator)
        k = torch.randn(2000, 6, d, generator=generator)
        scores = torch.einsum("sd,std->st", q, k)
        scaled = scores / d**0.5
        assert row.head_dim == d
        assert row.score_std == pytest.approx(scores.std().item(), rel=1e-5)
        assert row.scaled_std == pytest.approx(scaled.std().item(), rel=1e-5)
        assert row.max_weight == pytest.approx(torch.softmax(scores, 1).max(1).values.mean().item(), rel=1e-5)
        assert row.scaled_max_weight == pytest.approx(torch.softmax(scaled, 1).max(1).values.mean().item(), rel=1e-5)


@pytest.mark.parametrize(("heads", "head_dim"), [(1, 4), (4, 8), (8, 4)])
def test_the_shapes_the_lesson_asks_about_are_the_traced_ones(heads, head_dim):
    trace = trace_attention(BOOK_TEXT, PlaygroundConfig(heads=heads, head_dim=head_dim)).trace
    assert trace.scores.shape[-2:] == (6, 6), "step 1: QKᵀ is T × T"
    assert trace.queries_heads.shape == (1, heads, 6, head_dim), "step 2: the transpose puts the heads first"
    assert trace.context.shape == (1, 6, heads * head_dim), "step 4: the merge gives (B, T, C)"
    names = [step.name for step in trace.shape_steps]
    assert names.index("context") < len(names) - 1, "the merge steps follow the context"


@pytest.mark.parametrize("head", [0, -1, 5])
def test_a_head_outside_one_to_heads_is_refused(head):
    with pytest.raises(ValueError, match="outside 1..4"):
        head_channels(4, 8, head)


def test_head_by_head_without_scaling_equals_the_unscaled_layer():
    config = PlaygroundConfig(heads=4, head_dim=8, seed=3, scale=False)
    module = build_attention(config)
    x = embed(list(BOOK_TEXT), config.embedding_dim, config.seed, True)
    difference = (head_by_head(module, x) - module(x)).abs().max().item()
    assert difference < HEAD_BY_HEAD_TOLERANCE
    scaled = build_attention(PlaygroundConfig(heads=4, head_dim=8, seed=3))
    assert (head_by_head(scaled, x) - module(x)).abs().max().item() > 1e-3, "scaling changes the numbers"


def test_parameter_counts_with_bias_add_one_bias_per_projection():
    counts = parameter_counts(64, (1, 4), qkv_bias=True)
    for per_head in counts.values():
        assert per_head["total"] == 4 * 64 * 64 + 4 * 64, "Q, K, V and the output projection, each with a bias"
        assert per_head["query_layer"] == per_head["output_layer"] == 64 * 64 + 64
        assert sum(count for name, count in per_head.items() if name != "total") == per_head["total"]


def test_example_scores_are_unscaled_dot_products_whose_spread_grows_like_root_head_dim():
    from gpt_core.lesson import example_scores

    for head_dim in (16, 64, 256):
        scores = example_scores(4000, head_dim, seed=1)
        assert scores.shape == (4000,)
        # one fixed q: the scores are k·q with k ~ N(0, I), so their sd is |q|, about √head_dim
        # (|q|/√head_dim has a relative spread of about 1/√(2 head_dim): 0.18 at 16)
        assert scores.std().item() == pytest.approx(head_dim**0.5, rel=0.25)
    assert torch.equal(example_scores(6, 4, seed=2), example_scores(6, 4, seed=2))


def test_zero_columns_are_only_the_exactly_zero_weights():
    row = torch.tensor([0.5, 1e-9, 0.0, 0.4999999990, 0.0])
    assert zero_columns(row) == [2, 4]


def test_the_lessons_random_numbers_come_from_their_seed_alone():
    """The same page shows the same table to every student: the numbers depend on the seed
    (default 0) and never on torch's global random state, which other sessions move."""
    from gpt_core.lesson import example_scores

    torch.manual_seed(1)
    first = scaling_table(tokens=6, head_dims=(4, 16))
    torch.manual_seed(2)
    assert scaling_table(tokens=6, head_dims=(4, 16)) == first
    assert scaling_table(tokens=6, head_dims=(4, 16), seed=0) == first, "seed 0 by default"
    assert scaling_table(tokens=6, head_dims=(4, 16), seed=1) != first
    torch.manual_seed(3)
    scores = example_scores(6, 4)
    torch.manual_seed(4)
    assert torch.equal(example_scores(6, 4), scores) and torch.equal(example_scores(6, 4, seed=0), scores)
    assert not torch.equal(example_scores(6, 4, seed=1), scores)
