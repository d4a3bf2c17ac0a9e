"""The explorer's kinds of heads, checked on attention patterns made by hand: the clear
patterns and softer, realistic versions of them (what a trained head looks like)."""

from __future__ import annotations

import pytest
import torch

from gpt_core.explore import head_kind, head_metrics

T = 12


def _spread(T: int, main: float, key_of) -> torch.Tensor:
    """Each query i ≥ 1 puts ``main`` on key ``key_of(i)`` and the rest evenly on its other
    visible keys; query 0 sees only itself."""
    weights = torch.zeros(T, T)
    weights[0, 0] = 1.0
    for i in range(1, T):
        key = key_of(i)
        weights[i, : i + 1] = (1.0 - main) / i
        weights[i, key] = main
    return weights


def _uniform(T: int) -> torch.Tensor:
    lower = torch.tril(torch.ones(T, T))
    return lower / lower.sum(-1, keepdim=True)


def _kind(weights: torch.Tensor) -> str:
    return head_kind(head_metrics(weights.unsqueeze(0)), 0)


ITSELF, PREVIOUS, FIRST = (lambda i: i), (lambda i: i - 1), (lambda i: 0)


@pytest.mark.parametrize(
    ("weights", "kind"),
    [
        (torch.eye(T), "self"),  # a pure diagonal
        (_spread(T, 1.0, PREVIOUS), "previous"),
        (_spread(T, 1.0, FIRST), "first"),
        (_uniform(T), "broad"),
        (_spread(T, 0.6, ITSELF), "self"),  # 0.6 on the diagonal, the rest spread
        (_spread(T, 0.6, PREVIOUS), "previous"),
        (_spread(T, 0.6, FIRST), "first"),
        (_spread(T, 0.45, ITSELF), "self"),  # a clear diagonal: 0.45 against at most 0.55 / i elsewhere
        (_spread(T, 0.4, ITSELF), "self"),
        (_spread(T, 0.4, PREVIOUS), "previous"),
        (_spread(T, 0.3, ITSELF), "broad"),  # a faint diagonal: most of the weight is elsewhere
        (_uniform(2), "broad"),  # two tokens, even: the previous, the first and itself get 0.5 each
        (_uniform(3), "broad"),
    ],
    ids=[
        "diagonal",
        "previous",
        "first",
        "uniform",
        "self-0.6",
        "previous-0.6",
        "first-0.6",
        "self-0.45",
        "self-0.4",
        "previous-0.4",
        "self-0.3",
        "uniform-T2",
        "uniform-T3",
    ],
)
def test_each_hand_made_pattern_is_named_its_kind(weights, kind):
    assert _kind(weights) == kind


def test_a_clear_diagonal_beside_a_first_token_sink_is_a_self_head():
    weights = torch.zeros(T, T)
    weights[0, 0] = 1.0
    weights[1, :2] = torch.tensor([0.55, 0.45])
    for i in range(2, T):
        weights[i, 1:i] = 0.25 / (i - 1)  # the rest, spread
        weights[i, 0], weights[i, i] = 0.3, 0.45  # a sink and the diagonal
    assert torch.allclose(weights.sum(-1), torch.ones(T))
    assert _kind(weights) == "self"


def test_the_rule_reads_the_length_even_attention_had():
    """Two tokens spread evenly give 0.5 to the previous token, the first one and itself: no kind;
    the same 0.5 on the previous token of twelve tokens (the rest spread) is a previous-token head."""
    even = head_metrics(_uniform(2).unsqueeze(0))
    assert even["previous"].item() == pytest.approx(0.5)
    assert head_kind(even, 0) == "broad"
    assert _kind(_spread(T, 0.5, PREVIOUS)) == "previous"
