"""The next token's odds (gpt_core.odds) and their bars (figures.odds): the cut and the
renormalisation proven against torch, the draw against gpt_core.generate."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from figures import odds_figure
from figures.labels import plotly_safe
from figures.odds import odds_labels
from gpt_core import GPT, CharVocabulary, GPTConfig, InputError, generate, next_token, next_token_odds, sample
from gpt_core.tokens import display_label
from string_table.figure_words import figure_words

WORDS = figure_words("en")
LOGITS = torch.tensor([2.0, -1.0, 0.5, 3.0, 0.5, -2.0, 1.0, 0.0])


def _logits(seed: int, n: int = 50) -> torch.Tensor:
    return torch.randn(n, generator=torch.Generator().manual_seed(seed)) * 2


@pytest.fixture(scope="module")
def tiny():
    vocabulary = CharVocabulary.from_text("abcdefgh \n")
    config = GPTConfig(vocab_size=vocabulary.size, context_length=8, embedding_dim=8, heads=2, blocks=2)
    return GPT(config, seed=3), vocabulary


@pytest.mark.parametrize("temperature", [0.25, 0.7, 1.0, 1.5, 2.0])
def test_the_probabilities_before_the_cut_are_softmax_of_the_logits_over_the_temperature(temperature):
    logits = _logits(1)
    odds = next_token_odds(logits, temperature)
    expected = torch.softmax(logits / temperature, dim=-1)
    torch.testing.assert_close(odds.by_id(odds.before), expected, rtol=0, atol=1e-7)
    assert torch.equal(odds.ids, torch.argsort(logits, descending=True, stable=True))
    assert torch.all(odds.before[:-1] >= odds.before[1:]), "sorted, the likeliest first"
    assert odds.kept == logits.numel() and torch.equal(odds.after, odds.before), "no cut: the same probabilities"


def _kept_by_hand(logits: torch.Tensor, temperature: float, top_k: int | None, top_p: float | None) -> list[int]:
    """The ids sampling keeps, from first principles: the likeliest first (equal logits: the
    lower id first), the first k, then the fewest of those whose probabilities,
    softmax(logits / T) renormalised over the k, add up to at least p."""
    probs = torch.softmax(logits.double() / temperature, dim=-1).tolist()
    order = sorted(range(len(probs)), key=lambda i: (-float(logits[i]), i))
    kept = order[: top_k or len(order)]
    if top_p is None:
        return kept
    total, mass = sum(probs[i] for i in kept), 0.0
    for count, i in enumerate(kept, start=1):
        mass += probs[i] / total
        if mass >= top_p:
            return kept[:count]
    return kept


def _renormalised(logits: torch.Tensor, temperature: float, kept: list[int]) -> torch.Tensor:
    """softmax(logits / T) on the kept ids, scaled to sum 1; 0 elsewhere (by id)."""
    probs = torch.softmax(logits.double() / temperature, dim=-1)
    out = torch.zeros_like(probs)
    out[kept] = probs[kept] / probs[kept].sum()
    return out.float()


@pytest.mark.parametrize("top_k", [1, 2, 3, 7, 8])
@pytest.mark.parametrize("top_p", [None, 0.3, 0.9])
def test_the_kept_tokens_are_renormalised_to_sum_one(top_k, top_p):
    odds = next_token_odds(LOGITS, 0.9, top_k, top_p)
    kept = _kept_by_hand(LOGITS, 0.9, top_k, top_p)
    assert odds.kept == len(kept) and odds.ids[: odds.kept].tolist() == kept
    assert abs(float(odds.after.sum()) - 1.0) <= 1e-6
    assert torch.all(odds.after[odds.kept :] == 0) and torch.all(odds.after[: odds.kept] > 0)
    torch.testing.assert_close(odds.by_id(odds.after), _renormalised(LOGITS, 0.9, kept), rtol=0, atol=1e-6)


# Temperature, top-k, top-p, and the ids kept, written by hand from softmax(logits / T):
#  T = 0.5, p = 0.9 on [0, 2, -1, 1]: probabilities 0.016, 0.865, 0.002, 0.117 -> ids 1 and 3
#   (0.865 < 0.9 <= 0.982); untempered, 0.644 and 0.237 make 0.881 < 0.9: three ids.
#  T = 2, k = 3, p = 0.6 on LOGITS: the three likeliest 3.0, 2.0, 1.0 (ids 3, 0, 6) share
#   0.506, 0.307, 0.186 -> ids 3 and 0; untempered 0.665 >= 0.6: one id.
#  T = 0.5, k = 5, p = 0.9 on LOGITS: 3.0, 2.0, 1.0, 0.5, 0.5 share 0.857, 0.116, … -> ids 3
#   and 0; untempered 0.600, 0.221, 0.081 reach 0.9 at the third.
TEMPERED = torch.tensor([0.0, 2.0, -1.0, 1.0])


@pytest.mark.parametrize(
    "logits, temperature, top_k, top_p, kept, untempered",
    [(TEMPERED, 0.5, None, 0.9, [1, 3], 3), (LOGITS, 2.0, 3, 0.6, [3, 0], 1), (LOGITS, 0.5, 5, 0.9, [3, 0], 3)],
    ids=["T0.5-p0.9", "T2-k3-p0.6", "T0.5-k5-p0.9"],
)
def test_top_p_at_another_temperature_cuts_the_tempered_probabilities(
    logits, temperature, top_k, top_p, kept, untempered
):
    odds = next_token_odds(logits, temperature, top_k, top_p)
    assert odds.kept == len(kept) and odds.ids[: odds.kept].tolist() == kept
    assert _kept_by_hand(logits, temperature, top_k, top_p) == kept
    assert len(_kept_by_hand(logits, 1.0, top_k, top_p)) == untempered != len(kept), "the temperature matters here"
    probs = torch.softmax(logits / temperature, dim=-1)
    expected = torch.zeros_like(probs)
    expected[kept] = probs[kept] / probs[kept].sum()
    torch.testing.assert_close(odds.by_id(odds.after), expected, rtol=0, atol=1e-6)
    torch.testing.assert_close(odds.by_id(odds.before), probs, rtol=0, atol=1e-7)
    assert all(sample(odds, seed) in kept for seed in range(20))


@pytest.mark.parametrize("top_k", range(1, 9))
def test_top_k_keeps_exactly_k_the_likeliest(top_k):
    odds = next_token_odds(LOGITS, 1.0, top_k)
    assert odds.kept == top_k == int((odds.after > 0).sum())
    likeliest = set(torch.topk(LOGITS, top_k).indices.tolist()) if top_k not in (3, 4) else None
    if likeliest is not None:  # k = 3, 4 fall inside the tie of the two 0.5s: the next test
        assert set(odds.ids[:top_k].tolist()) == likeliest


def test_top_k_keeps_the_lower_id_of_tokens_tied_at_the_kth_place():
    odds = next_token_odds(LOGITS, 1.0, top_k=4)  # 3.0, 2.0, 1.0, then 0.5 at ids 2 and 4
    assert odds.ids[:4].tolist() == [3, 0, 6, 2]
    assert odds.kept == 4 and float(odds.by_id(odds.after)[4]) == 0.0


def test_a_top_k_beyond_the_vocabulary_keeps_every_token():
    odds = next_token_odds(LOGITS, 1.0, top_k=1000)
    assert odds.kept == 8 and torch.equal(odds.after, odds.before)


@pytest.mark.parametrize("top_p", [0.05, 0.5, 0.6, 0.8, 0.95, 0.999])
def test_top_p_keeps_the_smallest_set_that_reaches_p(top_p):
    odds = next_token_odds(LOGITS, 1.0, top_p=top_p)
    cumulative = torch.cumsum(odds.before, dim=-1)
    assert float(cumulative[odds.kept - 1]) >= top_p - 1e-7, "the kept ones reach p"
    if odds.kept > 1:
        assert float(cumulative[odds.kept - 2]) < top_p, "one fewer would not"


def test_top_p_keeps_at_least_one_token_and_acts_after_top_k():
    assert next_token_odds(LOGITS, 1.0, top_p=0.05).kept == 1
    # After top-k = 2 the two kept share the mass 0.73 / 0.27: p = 0.7 keeps the first only,
    # p = 0.8 both (of the whole vocabulary it would keep more than two).
    probs = torch.softmax(torch.tensor([3.0, 2.0]), -1)
    assert float(probs[0]) < 0.75
    assert next_token_odds(LOGITS, 1.0, top_k=2, top_p=0.7).kept == 1
    assert next_token_odds(LOGITS, 1.0, top_k=2, top_p=0.8).kept == 2
    assert next_token_odds(LOGITS, 1.0, top_p=0.8).kept > 2


def test_top_p_of_one_cuts_nothing():
    odds = next_token_odds(_logits(2, 500), 1.0, top_p=1.0)
    assert odds.kept == 500 and torch.equal(odds.after, odds.before)


@pytest.mark.parametrize("top_k, top_p", [(None, None), (3, 0.5)])
def test_temperature_zero_is_greedy(top_k, top_p):
    odds = next_token_odds(LOGITS, 0.0, top_k, top_p)
    assert int(odds.ids[0]) == int(LOGITS.argmax()) == 3
    assert odds.kept == 1 and float(odds.before[0]) == float(odds.after[0]) == 1.0
    assert float(odds.before.sum()) == 1.0
    assert all(sample(odds, seed) == 3 for seed in range(5))


def test_a_small_temperature_comes_near_greedy():
    odds = next_token_odds(LOGITS, 0.01)
    assert int(odds.ids[0]) == 3 and float(odds.before[0]) > 1 - 1e-6


def test_greedy_chooses_the_first_of_tied_maxima_as_argmax_does():
    tied = torch.tensor([1.0, 4.0, 2.0, 4.0])
    odds = next_token_odds(tied, 0.0)
    assert int(odds.ids[0]) == int(tied.argmax()) == 1 and sample(odds) == 1


@pytest.mark.parametrize(
    "temperature, top_k, top_p, code",
    [
        (-0.1, None, None, "temperature_negative"),
        (float("nan"), None, None, "temperature_negative"),
        (1.0, 0, None, "top_k_too_small"),
        (1.0, -3, None, "top_k_too_small"),
        (1.0, None, 0.0, "top_p_range"),
        (1.0, None, 1.01, "top_p_range"),
        (1.0, None, -0.5, "top_p_range"),
    ],
)
def test_bad_values_raise_an_input_error_with_a_message(temperature, top_k, top_p, code):
    with pytest.raises(InputError) as caught:
        next_token_odds(LOGITS, temperature, top_k, top_p)
    assert caught.value.code == code
    assert "top" in str(caught.value) or "temperature" in str(caught.value)


def test_the_draw_is_seeded_and_follows_the_kept_tokens():
    odds = next_token_odds(_logits(4), 1.0, top_k=3)
    draws = [sample(odds, seed) for seed in range(40)]
    assert draws == [sample(odds, seed) for seed in range(40)], "the same seed, the same token"
    assert set(draws) <= set(odds.ids[:3].tolist()) and len(set(draws)) > 1


@pytest.mark.parametrize("temperature", [0.0, 0.5, 1.0, 1.7])
def test_sample_draws_what_generate_draws(tiny, temperature):
    model, vocabulary = tiny
    prompt = "abc hag\nfed"
    step = next_token(model, vocabulary, prompt)
    for seed in range(25):
        odds = next_token_odds(step.logits, temperature)
        assert sample(odds, seed) == generate(model, vocabulary.encode(prompt), 1, temperature, seed=seed)[0]


def test_sample_with_top_k_draws_what_generate_draws_without_ties(tiny):
    model, vocabulary = tiny
    step = next_token(model, vocabulary, "bad cafe")
    assert len(set(step.logits.tolist())) == step.logits.numel()
    for seed in range(25):
        odds = next_token_odds(step.logits, 1.2, top_k=4)
        assert sample(odds, seed) == generate(model, vocabulary.encode("bad cafe"), 1, 1.2, top_k=4, seed=seed)[0]


def test_next_token_reads_what_generate_reads(tiny):
    model, vocabulary = tiny
    prompt = "Zabc\nhgfedcbaX"  # Z and X are unknown: left out; 12 known, the context is 8
    step = next_token(model, vocabulary, prompt)
    assert step.left_out == ("X", "Z") and step.context == "hgfedcba"
    logits, _ = model(torch.tensor([vocabulary.encode("hgfedcba")]))
    torch.testing.assert_close(step.logits, logits[0, -1], rtol=0, atol=0)
    assert step.rows.shape == (2, 2, 8)
    torch.testing.assert_close(step.rows.sum(-1), torch.ones(2, 2), rtol=0, atol=1e-6)


@pytest.mark.parametrize("prompt, code", [("   ", "empty_text"), ("XYZ", "no_known_characters")])
def test_next_token_of_an_unreadable_prompt_raises(tiny, prompt, code):
    model, vocabulary = tiny
    with pytest.raises(InputError) as caught:
        next_token(model, vocabulary, prompt)
    assert caught.value.code == code


def test_the_bars_show_the_cut_faded_and_the_kept_renormalised():
    odds = next_token_odds(LOGITS, 1.0, top_k=3)
    labels = ["a", " ", "\n", "<b>", "e", "f", "g", "h"]
    figure = odds_figure(labels, odds.before.numpy(), odds.after.numpy(), odds.kept, WORDS, title="<i>x</i>")
    before, after = figure.data
    assert before.name == WORDS["odds.before"] and after.name == WORDS["odds.after"]
    np.testing.assert_allclose(before.x, odds.before.numpy(), atol=1e-7)
    assert [v is not None for v in after.x] == [True] * 3 + [False] * 5
    np.testing.assert_allclose(after.x[:3], odds.after[:3].numpy(), atol=1e-7)
    assert before.marker.color != after.marker.color and before.marker.opacity < 1
    expected = [plotly_safe(f"{i + 1} · {display_label(label)}") for i, label in enumerate(labels)]
    assert list(after.y) == list(before.y) == expected == odds_labels([display_label(label) for label in labels])
    assert before.y[1] == "2 · ␣" and before.y[2] == "3 · ⏎", "whitespace is shown"
    assert "&lt;b&gt;" in before.y[3] and "<b>" not in before.y[3], "labels are escaped"
    assert "&lt;i&gt;" in figure.layout.title.text


def test_the_bars_need_one_label_per_probability():
    with pytest.raises(ValueError):
        odds_figure(["a"], np.ones(2), np.ones(2), 1, WORDS)


# --- boundaries and defaults, found by mutation testing (docs/benchmarks.md, "Mutation score") ----------


@pytest.mark.parametrize(
    "temperature, top_k, top_p, code, value",
    [
        (-0.5, None, None, "temperature_negative", -0.5),
        (1.0, 2.5, None, "top_k_too_small", 2.5),
        (1.0, True, None, "top_k_too_small", True),
        (1.0, None, "0.5", "top_p_range", "0.5"),
        (1.0, None, 1.5, "top_p_range", 1.5),
    ],
)
def test_a_bad_value_is_named_in_its_error(temperature, top_k, top_p, code, value):
    """A fractional or boolean top-k and a top-p that is no number are refused as such (not
    a TypeError later), and the message quotes the value the student gave."""
    with pytest.raises(InputError) as caught:
        next_token_odds(LOGITS, temperature, top_k, top_p)
    assert caught.value.code == code and caught.value.params == {"value": value}


def test_the_default_temperature_is_one_and_cuts_nothing():
    odds = next_token_odds(LOGITS)
    expected = torch.exp(LOGITS) / torch.exp(LOGITS).sum()
    torch.testing.assert_close(odds.by_id(odds.before), expected, rtol=0, atol=1e-7)
    assert (odds.temperature, odds.top_k, odds.top_p, odds.kept) == (1.0, None, None, 8)


@pytest.mark.parametrize("temperature", [0.0, 0.8])
def test_the_odds_remember_the_settings_they_were_cut_with(temperature):
    odds = next_token_odds(LOGITS, temperature, top_k=5, top_p=0.7)
    assert (odds.temperature, odds.top_k, odds.top_p) == (temperature, 5, 0.7)
    assert isinstance(odds.temperature, float)


def test_many_tied_logits_keep_their_id_order():
    """Ties are ordered by id however many there are (an unstable sort reorders a few thousand)."""
    logits = torch.tensor([float(i % 3) for i in range(6000)])
    odds = next_token_odds(logits, 1.0, top_k=2500)
    expected = [i for value in (2.0, 1.0, 0.0) for i in range(6000) if i % 3 == value]
    assert odds.ids.tolist() == expected
    assert odds.ids[:2500].tolist() == expected[:2500], "top-k keeps the lower ids of a tie"


def test_top_p_of_one_keeps_even_tokens_whose_odds_round_to_nothing():
    """At p = 1 nothing is cut, even where the odds before a token already add up to 1.0 in
    float32 (the tokens 100 logits below the best)."""
    logits = torch.tensor([0.0, -100.0, -100.0, -100.0])
    odds = next_token_odds(logits, 1.0, top_p=1.0)
    assert odds.kept == 4 and torch.equal(odds.after, odds.before)


def test_top_p_reached_exactly_stops_there():
    """Odds 0.5, 0.25, 0.25 (exact in float32): the first token alone adds up to p = 0.5, so it
    is the smallest set; p = 0.75 needs two."""
    logits = torch.log(torch.tensor([2.0, 1.0, 1.0]))
    assert torch.softmax(logits, -1).tolist() == [0.5, 0.25, 0.25]
    assert next_token_odds(logits, 1.0, top_p=0.5).kept == 1
    assert next_token_odds(logits, 1.0, top_p=0.75).kept == 2


def test_the_default_seed_is_zero():
    odds = next_token_odds(_logits(6), 1.3, top_k=10)
    drawn = int(torch.multinomial(odds.by_id(odds.after), 1, generator=torch.Generator().manual_seed(0)))
    assert sample(odds) == sample(odds, 0) == drawn
    assert any(sample(odds, seed) != drawn for seed in range(1, 20)), "other seeds draw otherwise"


def test_the_rows_behind_the_odds_are_the_last_querys(tiny):
    """The last query reads every token of the context (causal: no weight is masked), unlike
    any earlier query, whose row ends in zeros."""
    model, vocabulary = tiny
    step = next_token(model, vocabulary, "abcdefgh")
    assert step.rows.shape == (2, 2, 8)
    assert torch.all(step.rows > 0), "the last query's row has a weight for every key"
