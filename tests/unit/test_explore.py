"""The trained-heads explorer's numbers: a model's per-block trace for a prompt, and the
metrics that name a head's kind."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import torch

from gpt_core import InputError, display_labels, generate
from gpt_core.explore import generate_characters, head_kind, head_metrics, trace_model
from gpt_core.results import load_experiment

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "heads_experiment"


@pytest.fixture(scope="module")
def shipped():
    return load_experiment(ASSETS).checkpoint(4)


def test_each_blocks_trace_equals_the_plain_forwards_intermediate_values(shipped):
    model, vocabulary = shipped.model, shipped.vocabulary
    text = "ROMEO:\nBut soft, what light"
    seen: dict[str, list[torch.Tensor]] = {"input": [], "output": []}
    hooks = []
    for block in model.blocks:
        hooks.append(block.attention_norm.register_forward_hook(lambda m, i, o: seen["input"].append(o.detach())))
        hooks.append(block.attention.register_forward_hook(lambda m, i, o: seen["output"].append(o.detach())))
    try:
        model.eval()
        with torch.no_grad():
            model(torch.tensor([vocabulary.encode(text)]))  # the plain (fused, untraced) forward
    finally:
        for hook in hooks:
            hook.remove()
    traced = trace_model(model, vocabulary, text)
    assert len(traced.layers) == len(model.blocks) and traced.text_used == text
    assert torch.equal(traced.layers[0].x, seen["input"][0]), "block 1's input: LayerNorm of the embeddings"
    for layer, x, out in zip(traced.layers, seen["input"], seen["output"], strict=True):
        # Later blocks read a stream that went through the fused kernel in the plain forward
        # and through the readable path here: equal up to float32 rounding.
        torch.testing.assert_close(layer.x, x, atol=1e-5, rtol=0)
        torch.testing.assert_close(layer.output, out, atol=1e-5, rtol=0)
        torch.testing.assert_close(layer.weights.sum(-1), torch.ones_like(layer.weights.sum(-1)))


def test_characters_the_model_lacks_are_left_out_and_long_text_is_cut(shipped):
    model, vocabulary = shipped.model, shipped.vocabulary
    traced = trace_model(model, vocabulary, "Héllo 👩‍💻 wörld")
    assert set(traced.left_out) >= {"é", "ö", "👩"} and "é" not in traced.text_used
    context = model.config.context_length
    long = trace_model(model, vocabulary, "a" * (context + 7))
    assert len(long.text_used) == context and long.cut == 7
    assert long.layers[0].weights.shape[-1] == context
    with pytest.raises(InputError) as raised:
        trace_model(model, vocabulary, "👩‍💻é")
    assert raised.value.code == "no_known_characters"
    with pytest.raises(InputError):
        trace_model(model, vocabulary, "   ")


def _rows(matrix: list[list[float]]) -> torch.Tensor:
    return torch.tensor([matrix], dtype=torch.float32)  # (h=1, T, T)


def test_metrics_and_kinds_on_hand_made_patterns():
    T = 5
    previous = torch.zeros(T, T)
    previous[0, 0] = 1
    for i in range(1, T):
        previous[i, i - 1] = 1
    first = torch.zeros(T, T)
    first[:, 0] = 1
    own = torch.eye(T)
    uniform = torch.tril(torch.ones(T, T))
    uniform = uniform / uniform.sum(-1, keepdim=True)
    weights = torch.stack([previous, first, own, uniform])
    metrics = head_metrics(weights)
    assert metrics["previous"].tolist() == [
        1.0,
        0.25,
        0.0,
        pytest.approx(sum(1 / (i + 1) for i in range(1, T)) / (T - 1)),
    ]
    assert metrics["first"][1].item() == 1.0 and metrics["self"][2].item() == 1.0
    assert metrics["entropy"][:3].tolist() == [0.0, 0.0, 0.0]
    assert metrics["entropy"][3].item() == pytest.approx(sum(math.log(i + 1) for i in range(T)) / T, abs=1e-6)
    assert [head_kind(metrics, h) for h in range(4)] == ["previous", "first", "self", "broad"]


@pytest.mark.parametrize(("temperature", "seed"), [(0.0, 0), (1.0, 3), (0.8, 11)])
def test_generation_gives_generates_characters_for_the_same_seed_and_temperature(shipped, temperature, seed):
    model, vocabulary = shipped.model, shipped.vocabulary
    prompt = "ROMEO:\nBut soft"
    steps = generate_characters(model, vocabulary, prompt, 12, temperature=temperature, seed=seed)
    expected = generate(model, vocabulary.encode(prompt), 12, temperature=temperature, seed=seed)
    assert "".join(step.char for step in steps) == vocabulary.decode(expected)


def test_each_generated_characters_row_is_the_last_row_of_the_trace_of_its_context(shipped):
    model, vocabulary = shipped.model, shipped.vocabulary
    context_length = model.config.context_length
    prompt = "ROMEO:\nBut soft, what light thr"  # near the context: later steps slide the window
    steps = generate_characters(model, vocabulary, prompt, 6, temperature=1.0, seed=5)
    text = prompt
    for step in steps:
        assert step.context == text[-context_length:]
        traced = trace_model(model, vocabulary, step.context)
        expected = torch.stack([layer.weights[0, :, -1, :] for layer in traced.layers])
        assert step.rows.shape == (len(model.blocks), model.config.heads, len(step.context))
        assert torch.equal(step.rows, expected), f"max difference {(step.rows - expected).abs().max():.3g}"
        text += step.char
    assert len(steps[-1].context) == context_length, "the window slid once the text outgrew the context"


def test_generation_leaves_out_unknown_characters_and_refuses_empty_prompts(shipped):
    model, vocabulary = shipped.model, shipped.vocabulary
    steps = generate_characters(model, vocabulary, "Hé", 2)
    assert steps[0].context == "H"
    for prompt in ("  ", "éé"):
        with pytest.raises(InputError):
            generate_characters(model, vocabulary, prompt, 2)


def test_a_long_prompt_keeps_its_first_characters_and_counts_only_known_ones_as_cut(shipped):
    model, vocabulary = shipped.model, shipped.vocabulary
    context = model.config.context_length
    known = "".join(vocabulary.chars[i % vocabulary.size] for i in range(context + 9))  # distinct neighbours
    text = "é" + known[:5] + "ö" + known[5:]
    traced = trace_model(model, vocabulary, text)
    assert traced.text_used == known[:context]
    assert traced.cut == 9, "only characters the model knows count as cut"
    assert traced.left_out == ("é", "ö"), "sorted, each once"
    assert traced.labels == display_labels(list(known[:context]))


def test_left_out_characters_are_sorted_and_listed_once(shipped):
    traced = trace_model(shipped.model, shipped.vocabulary, "ö Hé ö 👩 é")
    assert list(traced.left_out) == sorted(set(traced.left_out)) and traced.left_out.count("ö") == 1


def test_self_weight_averages_over_the_queries_that_have_a_choice():
    T = 4
    uniform = torch.tril(torch.ones(T, T))
    uniform = (uniform / uniform.sum(-1, keepdim=True)).unsqueeze(0)
    metrics = head_metrics(uniform)
    assert metrics["self"].item() == pytest.approx((1 / 2 + 1 / 3 + 1 / 4) / 3), "query 0 (no choice) left out"
    assert head_metrics(torch.ones(2, 1, 1))["self"].tolist() == [0.0, 0.0]


def test_a_head_with_exactly_the_threshold_weight_is_of_that_kind():
    from gpt_core.explore import KIND_THRESHOLD

    def metrics(previous):
        return {"previous": torch.tensor([previous]), "first": torch.tensor([0.1]), "self": torch.tensor([0.2])}

    assert head_kind(metrics(KIND_THRESHOLD), 0) == "previous"
    assert head_kind(metrics(KIND_THRESHOLD - 1e-6), 0) == "broad"


@pytest.mark.parametrize("training", [True, False])
def test_tracing_and_generating_leave_the_models_mode_as_it_was(shipped, training):
    model, vocabulary = shipped.model, shipped.vocabulary
    model.train(training)
    try:
        trace_model(model, vocabulary, "ROMEO:")
        assert model.training == training
        steps = generate_characters(model, vocabulary, "ROMEO:", 2)
        assert model.training == training
        torch.testing.assert_close(steps[0].rows.sum(-1), torch.ones(len(model.blocks), model.config.heads))
    finally:
        model.eval()


def test_two_tokens_give_the_self_weight_of_the_second_query():
    weights = torch.tensor([[[1.0, 0.0], [0.25, 0.75]]])
    metrics = head_metrics(weights)
    assert metrics["self"].item() == 0.75 and metrics["previous"].item() == 0.25 and metrics["first"].item() == 0.25


def test_induction_scores_by_hand():
    """Tokens a b c a b c (n = 3): the second copy's queries 3, 4, 5 should look at 1, 2, 3."""
    from gpt_core.explore import induction_scores

    T = 6
    weights = torch.zeros(2, T, T)
    weights[0, 3, 1], weights[0, 4, 2], weights[0, 5, 3] = 1.0, 0.5, 0.25  # head 1: partly induction
    weights[1, 3, 3], weights[1, 4, 4], weights[1, 5, 5] = 1.0, 1.0, 1.0  # head 2: looks at itself
    scores = induction_scores(weights, 3)
    assert torch.allclose(scores, torch.tensor([(1.0 + 0.5 + 0.25) / 3, 0.0]))
    shifted = torch.zeros(1, T + 1, T + 1)
    shifted[0, 4, 2] = 1.0  # after a BOS (offset 1): query 4 looks at 2
    assert torch.isclose(induction_scores(shifted, 3, offset=1)[0], torch.tensor(1 / 3))


def test_induction_text_is_a_seeded_random_sequence_twice():
    from gpt_core import CharVocabulary
    from gpt_core.explore import induction_text

    vocabulary = CharVocabulary(tuple("abcdefgh"))
    text = induction_text(vocabulary, 10, seed=1)
    assert len(text) == 20 and text[:10] == text[10:] and set(text) <= set("abcdefgh")
    assert text == induction_text(vocabulary, 10, seed=1) != induction_text(vocabulary, 10, seed=2)
    picks = torch.randint(8, (10,), generator=torch.Generator().manual_seed(0)).tolist()
    assert induction_text(vocabulary, 10) == "".join("abcdefgh"[i] for i in picks) * 2, "seed 0 by default"


def test_generation_is_greedy_with_seed_0_by_default(shipped):
    """The defaults are temperature 0 (greedy: each character the argmax of the model's
    logits, computed here) and seed 0."""
    model, vocabulary = shipped.model, shipped.vocabulary
    prompt = "ROMEO:\nBut soft"
    steps = generate_characters(model, vocabulary, prompt, 5)
    text = prompt
    for step in steps:
        with torch.no_grad():
            logits, _ = model(torch.tensor([vocabulary.encode(text[-model.config.context_length :])]))
        assert step.char == vocabulary.decode([int(logits[0, -1].argmax())])
        text += step.char
    sampled = "".join(step.char for step in generate_characters(model, vocabulary, prompt, 8, temperature=1.0))
    assert sampled == vocabulary.decode(generate(model, vocabulary.encode(prompt), 8, temperature=1.0, seed=0))


def test_a_prompt_of_unknown_characters_says_how_many_it_had(shipped):
    with pytest.raises(InputError) as raised:
        generate_characters(shipped.model, shipped.vocabulary, "éé👩", 2)
    assert raised.value.code == "no_known_characters" and raised.value.params == {"characters": 3}


def test_an_induction_score_over_the_threshold_names_an_induction_head():
    metrics = {name: torch.tensor([0.1]) for name in ("previous", "first", "self")} | {"induction": torch.tensor([0.6])}
    assert head_kind(metrics, 0) == "induction"


def test_a_text_of_unknown_characters_says_how_many_it_had():
    from gpt_core import CharVocabulary
    from gpt_core.explore import readable_characters

    vocabulary = CharVocabulary(tuple("abc"))
    assert readable_characters(vocabulary, "a😀b") == ("ab", ("😀",))
    with pytest.raises(InputError) as raised:
        readable_characters(vocabulary, "xyz!")
    assert raised.value.code == "no_known_characters" and raised.value.params == {"characters": 4}
