"""gpt_core.explore's head kinds at their edges: what even attention gives one key, worked out
by hand for small T; a head of exactly the threshold's weight, or exactly KIND_OVER_EVEN times
the even share, is of the kind (the rule says "at least"); the even share has one value per
head whatever T."""

from __future__ import annotations

import pytest
import torch

from gpt_core.explore import KIND_OVER_EVEN, KIND_THRESHOLD, even_share, head_kind, head_metrics


@pytest.mark.parametrize(
    ("T", "expected"),
    [
        (1, 0.0),  # no query has a choice
        (2, 1 / 2),  # query 1 sees 2 keys
        (3, (1 / 2 + 1 / 3) / 2),
        (4, (1 / 2 + 1 / 3 + 1 / 4) / 3),
        (6, (1 / 2 + 1 / 3 + 1 / 4 + 1 / 5 + 1 / 6) / 5),
    ],
)
def test_even_share_is_the_mean_of_one_over_the_visible_keys(T, expected):
    assert even_share(T) == pytest.approx(expected, rel=1e-12)


def test_the_even_share_has_one_value_per_head_whatever_the_length():
    weights = torch.softmax(torch.randn(2, 5, 5).masked_fill(torch.ones(5, 5).triu(1).bool(), float("-inf")), -1)
    metrics = head_metrics(weights)
    assert metrics["even"].shape == (2,)
    assert metrics["even"].tolist() == pytest.approx([(1 / 2 + 1 / 3 + 1 / 4 + 1 / 5) / 4] * 2)


def _metrics(previous: float, even: float) -> dict[str, torch.Tensor]:
    """One head's metrics, exactly representable (float64): its weight on the previous token
    and what even attention gives there; the other kinds far below."""
    exact = lambda value: torch.tensor([value], dtype=torch.float64)  # noqa: E731
    return {"previous": exact(previous), "first": exact(0.05), "self": exact(0.05), "even": exact(even)}


def test_a_head_of_exactly_the_threshold_is_of_the_kind():
    assert KIND_THRESHOLD == 0.4
    assert head_kind(_metrics(0.4, 0.1), 0) == "previous"
    assert head_kind(_metrics(0.39, 0.1), 0) == "broad"


def test_a_head_of_exactly_twice_the_even_share_is_of_the_kind():
    assert KIND_OVER_EVEN == 2.0
    assert head_kind(_metrics(0.5, 0.25), 0) == "previous"
    assert head_kind(_metrics(0.5, 0.26), 0) == "broad"
