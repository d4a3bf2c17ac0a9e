"""One token, every head: its row (what it reads) and column (who reads it) in every layer
and head, and its strongest links."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from gpt_core import PlaygroundConfig, strongest_links, token_attention, trace_attention
from gpt_core.token_view import Link


@pytest.fixture(scope="module")
def layers() -> list[torch.Tensor]:
    """Two layers of real softmax weights, (1, h, T, T) each: 3 heads, 7 tokens."""
    return [
        trace_attention(
            "the cat sat on the mat today", PlaygroundConfig(heads=3, head_dim=4, seed=seed, tokenizer="word")
        ).trace.weights
        for seed in (1, 2)
    ]


@pytest.mark.parametrize("position", [0, 3, 6])
def test_rows_and_columns_are_the_slices_of_the_weights(layers, position):
    token = token_attention(layers, position)
    assert token.position == position and (token.layers, token.heads, token.tokens) == (2, 3, 7)
    for layer, weights in enumerate(layers):
        assert torch.equal(token.rows[layer], weights[0, :, position, :])
        assert torch.equal(token.columns[layer], weights[0, :, :, position])


@pytest.mark.parametrize("position", [0, 3, 6])
def test_rows_sum_to_one_and_masked_entries_are_exactly_zero(layers, position):
    token = token_attention(layers, position)
    torch.testing.assert_close(token.rows.sum(-1), torch.ones(2, 3), rtol=0, atol=1e-6)
    assert torch.all(token.rows[:, :, position + 1 :] == 0), "keys after the token are masked"
    assert torch.all(token.columns[:, :, :position] == 0), "queries before the token cannot read it"
    assert torch.all(token.rows[:, :, : position + 1] > 0) and torch.all(token.columns[:, :, position:] > 0)
    assert torch.equal(token.rows[:, :, position], token.columns[:, :, position]), "reading itself is both"


def test_numpy_arrays_and_h_t_t_layers_give_the_same_numbers(layers):
    from_numpy = token_attention([weights[0].numpy() for weights in layers], 4)
    stacked = token_attention(np.stack([weights[0].numpy() for weights in layers]), 4)
    from_torch = token_attention(layers, 4)
    assert torch.equal(from_numpy.rows, from_torch.rows) and torch.equal(stacked.columns, from_torch.columns)
    assert token_attention(layers, -1).position == 6


def test_a_position_outside_the_tokens_and_odd_shapes_are_refused(layers):
    with pytest.raises(IndexError):
        token_attention(layers, 7)
    with pytest.raises(IndexError):
        token_attention(layers, -8)
    # Each misuse is named with the shapes it got (a developer's error, not a student's).
    with pytest.raises(ValueError, match=r"^weights of shape \(2, 3, 4, 4\): one sequence \(a batch of 1\)"):
        token_attention([torch.rand(2, 3, 4, 4)], 0)  # two sequences
    with pytest.raises(ValueError, match=r"^weights of shape \(3, 4, 5\), expected \(h, T, T\) or \(1, h, T, T\)$"):
        token_attention([torch.rand(3, 4, 5)], 0)  # not square
    with pytest.raises(ValueError, match=r"^the layers' weights differ in shape: \[\(2, 4, 4\), \(3, 4, 4\)\]$"):
        token_attention([torch.rand(3, 4, 4), torch.rand(2, 4, 4)], 0)
    with pytest.raises(ValueError, match="^no layers$"):
        token_attention([], 0)


@pytest.mark.parametrize("direction", ["reads", "read_by"])
def test_the_strongest_links_are_the_largest_weights_sorted(layers, direction):
    position = 3
    token = token_attention(layers, position)
    links = strongest_links(token, direction, n=5)
    assert len(links) == 5
    weights = [link.weight for link in links]
    assert weights == sorted(weights, reverse=True)
    values = token.rows if direction == "reads" else token.columns
    for link in links:
        assert link.direction == direction
        assert link.weight == float(values[link.layer, link.head, link.other])
        assert link.other <= position if direction == "reads" else link.other >= position
    visible = values[:, :, : position + 1] if direction == "reads" else values[:, :, position:]
    expected = torch.sort(visible.reshape(-1), descending=True).values[:5]
    assert weights == expected.tolist()


def test_links_never_name_a_masked_entry_and_ties_come_in_order():
    weights = torch.tensor([[[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.25, 0.5, 0.25]]]).repeat(2, 1, 1)  # 2 equal heads
    token = token_attention([weights], 1)
    links = strongest_links(token, "reads", n=10)
    assert links == [
        Link(0, 0, 0, 0.5, "reads"),
        Link(0, 0, 1, 0.5, "reads"),
        Link(0, 1, 0, 0.5, "reads"),
        Link(0, 1, 1, 0.5, "reads"),
    ]
    read_by = strongest_links(token, "read_by", n=10)
    assert [(link.head, link.other, link.weight) for link in read_by] == [
        (0, 1, 0.5),
        (0, 2, 0.5),
        (1, 1, 0.5),
        (1, 2, 0.5),
    ]
    assert strongest_links(token, "reads", n=0) == []
    with pytest.raises(ValueError, match=r"^direction 'sideways': one of \('reads', 'read_by'\)$"):
        strongest_links(token, "sideways")


def test_the_default_links_are_the_five_the_token_reads(layers):
    """strongest_links(token): direction "reads" (its rows: the keys it reads), five links."""
    first = token_attention(layers, -7)  # the first token reads only itself, with weight 1, in every head
    assert first.position == 0
    assert strongest_links(first) == [
        Link(0, 0, 0, 1.0, "reads"),
        Link(0, 1, 0, 1.0, "reads"),
        Link(0, 2, 0, 1.0, "reads"),
        Link(1, 0, 0, 1.0, "reads"),
        Link(1, 1, 0, 1.0, "reads"),
    ]
    middle = token_attention(layers, 3)
    links = strongest_links(middle)
    assert len(links) == 5 and all(link.direction == "reads" and link.other <= 3 for link in links)
    reads = sorted(
        ((float(w[0, h, 3, k]), -layer, -h, -k) for layer, w in enumerate(layers) for h in range(3) for k in range(4)),
        reverse=True,
    )[:5]
    assert [(link.weight, link.layer, link.head, link.other) for link in links] == [
        (weight, -layer, -h, -k) for weight, layer, h, k in reads
    ]
    assert links != strongest_links(middle, "read_by")


@pytest.mark.parametrize(("position", "row"), [(-7, 0), (-1, 6), (0, 0), (6, 6)])
def test_the_first_and_last_positions_count_from_either_end(layers, position, row):
    token = token_attention(layers, position)
    assert token.position == row
    for layer, weights in enumerate(layers):
        assert torch.equal(token.rows[layer], weights[0, :, row, :])
        assert torch.equal(token.columns[layer], weights[0, :, :, row])


@pytest.mark.parametrize("position", [7, -8, 100])
def test_a_position_just_past_either_end_is_refused_in_words(layers, position):
    with pytest.raises(IndexError, match=rf"^position {position} is outside the 7 tokens$"):
        token_attention(layers, position)
