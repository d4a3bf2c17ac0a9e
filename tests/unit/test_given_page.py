"""Attention weights a learner already has (``sa.show(attention=outputs.attentions, tokens=...)``,
``gpt_core.GivenWeights``): the page holds exactly the weights transformers returned, offers
only the stage it has and says which it lacks, in both languages; bad weights are refused with
a message that names the shapes, the rows or the causality at fault."""

from __future__ import annotations

import base64
import json
import re

import numpy as np
import pytest
import torch

import seeing_attention as sa
from gpt_core import GivenWeights, InputError, display_labels
from string_table import LANGUAGES, t

DATA = re.compile(r'<script type="application/json" id="sa-data">(.*?)</script>', re.S)
TEXT = "the cat sat on the mat"


@pytest.fixture(autouse=True)
def _threads():
    torch.set_num_threads(1)


def read_page(page: str) -> dict:
    """The page's data as its script reads it: JSON, then float32 little-endian."""
    (payload,) = DATA.findall(page)
    data = json.loads(payload)
    T = len(data["tokens"])
    for layer in data["layers"]:
        layer["arrays"] = {
            name: np.frombuffer(base64.b64decode(b64), dtype="<f4").reshape(layer["heads"], T, T)
            for name, b64 in layer["stages"].items()
        }
    return data


@pytest.fixture(scope="module")
def transformers_attentions(tiny_model_folders):
    """A tiny GPT-2's own ``outputs.attentions`` (eager attention, as BertViz asks for) and tokens."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    folder = tiny_model_folders["gpt2"]
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForCausalLM.from_pretrained(folder, attn_implementation="eager").eval()
    ids = tokenizer(TEXT, return_tensors="pt")["input_ids"]
    with torch.no_grad():
        outputs = model(ids, output_attentions=True)
    return outputs.attentions, tokenizer.convert_ids_to_tokens(ids[0])


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_page_holds_the_given_weights_offers_only_them_and_says_which_stages_it_lacks(
    transformers_attentions, lang
):
    attentions, tokens = transformers_attentions
    view = sa.show(attention=attentions, tokens=tokens, layer="all", lang=lang)
    data = read_page(view.html)
    assert data["stages"] == ["weights"], "the stage switch offers only the stage given"
    assert len(data["layers"]) == len(attentions) == 2
    for given, layer in zip(attentions, data["layers"], strict=True):
        assert list(layer["arrays"]) == ["weights"]
        np.testing.assert_array_equal(layer["arrays"]["weights"], given[0].numpy())
    spelled = [" " + token[1:] if token.startswith("Ġ") else token for token in tokens]  # GPT-2's mark of a space
    assert data["tokens"] == display_labels(spelled) and "␣cat" in data["tokens"]
    assert t("page.title", lang, text=TEXT) in view.html
    assert t("source.weights_only", lang) in data["notes"]
    made = dict(data["made"])
    assert "2" in made[t("page.made.model", lang)] and "4" in made[t("page.made.model", lang)]
    np.testing.assert_array_equal(view.numbers["weights"], attentions[0][0].numpy())


def test_one_tensor_of_layers_or_of_one_layer_gives_the_same_weights(transformers_attentions):
    attentions, tokens = transformers_attentions
    stacked = torch.cat(attentions)  # (layers, h, T, T)
    every = GivenWeights(stacked, tokens).trace("")
    one = GivenWeights(attentions[1][0], tokens).trace("")  # (h, T, T)
    assert len(every.weights) == 2 and len(one.weights) == 1
    torch.testing.assert_close(every.weights[1], attentions[1], rtol=0, atol=0)
    torch.testing.assert_close(one.weights[0], attentions[1], rtol=0, atol=0)
    from_numpy = GivenWeights([layer.numpy() for layer in attentions], tokens).trace("")  # numpy, as CircuitsVis takes
    torch.testing.assert_close(from_numpy.weights[1], attentions[1], rtol=0, atol=0)


def _causal(heads: int, T: int, seed: int = 0) -> torch.Tensor:
    generator = torch.Generator().manual_seed(seed)
    future = torch.ones(T, T, dtype=torch.bool).triu(1)
    return torch.softmax(torch.randn(1, heads, T, T, generator=generator).masked_fill(future, float("-inf")), -1)


def test_weights_of_another_length_than_the_tokens_are_refused_naming_both():
    with pytest.raises(InputError) as refused:
        GivenWeights((_causal(2, 5),), ["a", "b", "c"])
    assert refused.value.code == "given_tokens"
    assert "(2, 5, 5)" in str(refused.value)
    assert "3 tokens" in str(refused.value) and "(2, 3, 3)" in str(refused.value)


def test_scores_before_the_softmax_are_refused_naming_the_row():
    scores = torch.randn(1, 2, 4, 4, generator=torch.Generator().manual_seed(1)).tril().abs() * 3
    with pytest.raises(InputError) as refused:
        GivenWeights([scores], list("abcd"))
    assert refused.value.code == "given_rows"
    rows = _causal(2, 4)
    rows[0, 1, 2] *= 2  # head 1, row 2 sums to more than 1
    with pytest.raises(InputError, match=r"head 1, row 2 sums to 2, not 1"):
        GivenWeights([rows], list("abcd"))


def test_weights_on_later_tokens_are_refused_as_not_causal():
    weights = _causal(2, 4)
    weights[0, 1, 2] = torch.tensor([0.25, 0.25, 0.0, 0.5])  # head 1's query 2 reads the later token 3
    with pytest.raises(InputError, match="not causal: in layer 0, head 1, query 2 puts 0.5 on the later token 3"):
        GivenWeights([weights], list("abcd"))
    bidirectional = torch.softmax(torch.randn(1, 2, 4, 4), -1)  # a BERT's: every token reads every other
    with pytest.raises(InputError) as refused:
        GivenWeights([bidirectional], list("abcd"))
    assert refused.value.code == "given_not_causal"


def test_other_forms_are_refused_with_the_shape_they_have():
    with pytest.raises(InputError, match=r"got \(4, 4\)"):
        GivenWeights(torch.eye(4), list("abcd"))
    with pytest.raises(InputError, match=r"several texts, shape \(2, 2, 4, 4\)"):
        GivenWeights([torch.cat([_causal(2, 4), _causal(2, 4)])], list("abcd"))
    with pytest.raises(InputError, match="need their tokens"):
        GivenWeights([_causal(2, 4)], "abcd")
    with pytest.raises(ValueError, match="attention= needs tokens"):
        sa.show(attention=[_causal(2, 4)])


def test_a_later_tokens_tiny_leftover_is_stored_as_exactly_zero():
    weights = _causal(2, 4)
    leftover = weights.clone()
    leftover[0, :, 0, 1] = 1e-8  # a float mask's leftover, not attention
    traced = GivenWeights([leftover], list("abcd")).trace("")
    assert torch.all(traced.weights[0][0, :, 0, 1] == 0.0)
    torch.testing.assert_close(traced.weights[0], weights, rtol=0, atol=1e-7)


def test_a_views_shape_trace_is_empty_for_weights_alone_and_a_modules_own_for_a_module(transformers_attentions):
    attentions, tokens = transformers_attentions
    assert sa.show(attention=attentions, tokens=tokens).shape_trace == "", "no split or merge was given"
    module = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    shapes = sa.show(module=module, x=torch.randn(1, 5, 8)).shape_trace
    assert "(1, 2, 5, 5)" in shapes and "(B, h, T, T)" in shapes
