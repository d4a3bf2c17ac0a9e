"""What every source of attention owes a page (``gpt_core.source.AttentionSource``), asserted
once over every kind of source: random weights, the book's tiny GPT, a tiny Hugging Face model
of each tokenizer family (byte-level BPE, one key/value head, grouped-query, SentencePiece,
a padded vocabulary), a learner's own module (gpt_core's, the book's, torch's) and attention
weights a learner already has.

- its traces: every layer's weights (1, h, T, T) for its T tokens, the stages it says it has
  and no other, causal rows summing to 1 (masked cells exactly 0);
- its identity: the same for the same source, another for other weights or settings;
- its words, notes and facts: string-table keys in every language, every placeholder given;
- its reproduction: the code, run by a fresh ``python`` (cwd the repository, PYTHONPATH it,
  offline), leaves the layer's weights in a variable ``weights`` ((h, T, T) or (1, h, T, T),
  torch or numpy) equal to the trace's to 1e-6;
- its capabilities: what one grants works (the next token's logits, generation, snapshots),
  what one denies is refused with a message.

The expected numbers come from the laws of attention or the source's own trace, never from a
second run of the code under test in this process."""

from __future__ import annotations

import json
import os
import string
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
import torch

from gpt_core.attention import STAGES
from gpt_core.errors import InputError
from gpt_core.source import AttentionSource, Capabilities, Description, GeneratedToken, NextStep, Note, Token, Words
from string_table import LANGUAGES, STRINGS, t

ROOT = Path(__file__).resolve().parents[2]
CHARS = tuple(sorted(set("the cat sat on a mat")))
HUB_FAMILIES = ("gpt2", "llama", "qwen2", "llama-sp", "qwen2-padded")
TOLERANCE = 1e-6  # float32: the reproduction's numbers against the trace's
ROW_SUM = 1e-5
REFUSALS = (NotImplementedError, ValueError, LookupError)  # a refusal, with a message (InputError is a ValueError)
REPRODUCTION_SECONDS = 300  # a fresh Python importing torch (and transformers) on a busy machine
# Runs a reproduction's code as a script and prints, last, what it left in ``weights``.
RUNNER = """
import json, runpy, sys
import numpy as np
found = runpy.run_path(sys.argv[1], run_name="__main__")["weights"]
found = found.detach().float().numpy() if hasattr(found, "detach") else np.asarray(found, dtype=np.float64)
print("WEIGHTS " + json.dumps(np.asarray(found, dtype=np.float64).tolist()))
"""


# --- the sources: one factory per kind; ``variant`` 0 and 1 differ in weights or settings --------


def _random(variant: int, request) -> AttentionSource:
    from gpt_core.playground import PlaygroundConfig
    from gpt_core.sources import RandomWeights

    return RandomWeights(PlaygroundConfig(heads=2, head_dim=4, seed=variant))


def _tiny_gpt(variant: int, request) -> AttentionSource:
    from gpt_core.checkpoint import CheckpointMeta, save_checkpoint
    from gpt_core.data import CharVocabulary
    from gpt_core.model import GPT, GPTConfig
    from gpt_core.runs import RunSummary
    from gpt_core.sources import TinyGPT

    config = GPTConfig(vocab_size=len(CHARS), context_length=16, embedding_dim=16, heads=2, blocks=2)
    model, vocabulary = GPT(config, seed=variant), CharVocabulary(CHARS)
    # Its weights in a file, as a trained model's are (the Train page downloads it): the
    # reproduction reads them from there.
    path = request.getfixturevalue("tmp_path") / f"tiny-{variant}.pt"
    run = RunSummary(
        heads=2, parameters=model.parameter_count(), steps=0, wall_time=0.0, tokens_per_second=0.0, final_test_loss=None
    )
    save_checkpoint(path, model, vocabulary, CheckpointMeta("made in the test", "", run))
    return TinyGPT(model, vocabulary, "tiny", "the cat", serial=variant, checkpoint=str(path))


def _hub(family: str):
    def make(variant: int, request) -> AttentionSource:
        from gpt_core.sources import HubModel

        folder = request.getfixturevalue("tiny_model_folders")[family]
        loaded = request.getfixturevalue("tiny_models")[family]
        return HubModel(loaded, str(folder), "the cat sat on the mat, café 猫", serial=variant)

    return make


def _module(kind: str):
    def make(variant: int, request) -> AttentionSource:
        from gpt_core import MultiHeadAttention
        from gpt_core.module_source import ModuleSource
        from tests.unit.test_modules import BookMultiHeadAttention

        torch.manual_seed(variant)
        if kind == "torch":
            module, x = torch.nn.MultiheadAttention(8, 2, dropout=0.1), torch.randn(5, 1, 8)  # (T, B, C)
        elif kind == "book":
            module, x = BookMultiHeadAttention(6, 8, 10, 0.0, 2, qkv_bias=True), torch.randn(1, 5, 6)
        else:
            module, x = MultiHeadAttention(6, 8, 10, 0.0, 2, scale=variant == 0), torch.randn(1, 5, 6)
        return ModuleSource(module, x, tokens=["我", "学", "习", "<b>", "!"])

    return make


def _given(variant: int, request) -> AttentionSource:
    from gpt_core.given import GivenWeights

    generator = torch.Generator().manual_seed(variant)
    future = torch.ones(5, 5, dtype=torch.bool).triu(1)
    layers = torch.softmax(torch.randn(2, 1, 3, 5, 5, generator=generator).masked_fill(future, -torch.inf), -1)
    return GivenWeights(tuple(layers), ["Ġthe", "Ġcat", "Ġsat", "Ġon", "猫"])  # as transformers' outputs.attentions


KINDS = {
    "random": _random,
    "tiny-gpt": _tiny_gpt,
    **{f"hub-{family}": _hub(family) for family in HUB_FAMILIES},
    "module-gpt-core": _module("gpt_core"),
    "module-book": _module("book"),
    "module-torch": _module("torch"),
    "given": _given,
}


@pytest.fixture(autouse=True)
def _threads():
    torch.set_num_threads(1)


@pytest.fixture(params=list(KINDS))
def kind(request) -> str:
    return request.param


@pytest.fixture
def source(kind, request) -> AttentionSource:
    return KINDS[kind](0, request)


def _check_note(note: Note) -> None:
    """A string-table key in every language, every placeholder of every language given."""
    assert isinstance(note, Note), note
    assert note.key in STRINGS, f"{note.key} is not in the string table"
    assert set(STRINGS[note.key]) >= set(LANGUAGES), note.key
    assert note.level in ("warning", "caption"), note
    for lang in LANGUAGES:
        template = STRINGS[note.key][lang]
        needed = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        assert needed <= set(note.values), (note.key, lang, needed - set(note.values))
        assert t(note.key, lang, **note.values)


def _is_causal(weights: torch.Tensor, where: str) -> None:
    T = weights.shape[-1]
    above = torch.ones(T, T, dtype=torch.bool).triu(1)
    assert torch.all(weights[..., above] == 0.0), f"{where}: weight on a later token"
    assert torch.all(weights >= 0), where
    torch.testing.assert_close(weights.sum(-1), torch.ones_like(weights.sum(-1)), rtol=0, atol=ROW_SUM)


# --- the contract ------------------------------------------------------------------------------


def test_it_has_the_interface_a_page_speaks(source):
    owed = [
        *AttentionSource.__annotations__,
        *(n for n in vars(AttentionSource) if callable(getattr(AttentionSource, n)) and not n.startswith("_")),
    ]
    assert isinstance(source, AttentionSource), "missing: " + ", ".join(n for n in owed if not hasattr(source, n))
    assert isinstance(source.description, Description) and isinstance(source.capabilities, Capabilities)
    assert isinstance(source.words, Words) and isinstance(source.settings, Mapping)
    assert isinstance(source.default_prompt, str) and source.default_prompt
    stages = source.capabilities.stages
    assert "weights" in stages and set(stages) <= set(STAGES), stages
    assert list(stages) == [stage for stage in STAGES if stage in stages], "in lesson order"
    for word in (source.words.unit, source.words.token):
        assert any(key.endswith("." + word) for key in STRINGS), f"no string-table key ends with .{word}"


def test_a_trace_has_every_layers_weights_and_only_the_stages_it_claims(source):
    trace = source.trace(source.default_prompt)
    d = source.description
    T = len(trace.tokens)
    assert T >= 2 and len(trace.labels) == T
    assert len(trace.layers) == len(trace.weights) == d.layers >= 1
    for index, (layer, weights) in enumerate(zip(trace.layers, trace.weights, strict=True)):
        assert weights.shape == (1, d.heads, T, T), (index, tuple(weights.shape))
        torch.testing.assert_close(layer.weights, weights, rtol=0, atol=0)
        for stage in STAGES:
            value = getattr(layer, stage)
            if stage in source.capabilities.stages:
                assert value is not None and value.shape == (1, d.heads, T, T), (index, stage)
            else:
                assert value is None, f"layer {index} has {stage}, which its capabilities deny"
        _is_causal(weights[0], f"layer {index}")


def test_its_identity_is_stable_and_names_these_numbers(kind, source, request):
    again = KINDS[kind](0, request)
    other = KINDS[kind](1, request)
    assert hash(source.identity) == hash(again.identity) and source.identity == again.identity
    assert source.identity == source.identity and source.identity != other.identity


def test_its_notes_and_facts_are_string_table_keys_in_every_language(source):
    trace = source.trace(source.default_prompt)
    notes = source.notes(trace)
    assert isinstance(notes, list)
    for note in notes:
        _check_note(note)
    facts = source.facts()
    if facts is not None:
        _check_note(facts)
    if set(source.capabilities.stages) != set(STAGES):
        assert any(note.level == "warning" for note in notes), "a source lacking stages says so"


def test_its_reproduction_gives_the_same_numbers_in_a_fresh_python(source, tmp_path):
    trace = source.trace(source.default_prompt)
    layer = source.description.layers - 1  # the last: a layer's index is honoured
    reproduction = source.reproduction(source.default_prompt, layer)
    assert reproduction.command is None or isinstance(reproduction.command, str)
    script = tmp_path / "reproduce.py"
    script.write_text(reproduction.code, encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, str(script)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=REPRODUCTION_SECONDS,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("WEIGHTS ")]
    found = torch.tensor(json.loads(line.removeprefix("WEIGHTS ")), dtype=torch.float64)
    expected = trace.weights[layer][0].double()
    found = found[0] if found.dim() == 4 else found
    assert found.shape == expected.shape
    torch.testing.assert_close(found, expected, rtol=0, atol=TOLERANCE)


def _refuses(call) -> None:
    with pytest.raises(REFUSALS) as refused:
        call()
    assert str(refused.value).strip(), "a refusal says why"


def test_what_it_denies_is_refused_with_a_message(source):
    prompt = source.default_prompt
    if not source.capabilities.generates:
        _refuses(lambda: source.next_step(prompt))
        _refuses(lambda: source.generate(prompt, 2))
        _refuses(lambda: source.token(0))
        _refuses(lambda: source.decode([0]))
    steps = source.snapshot_steps()
    assert isinstance(steps, tuple) and all(isinstance(step, int) for step in steps)
    if not steps:
        _refuses(lambda: source.snapshot(0))


def test_it_generates_with_its_cache_or_refuses_in_words(source):
    """A source that generates continues a text with the key/value cache, choosing the tokens
    its generation chooses, every layer's cache (h_kv, t, d) and each new row (h, t) summing to
    1; one that does not refuses with an InputError a page can translate."""
    d, prompt = source.description, source.default_prompt
    if not source.capabilities.generates:
        with pytest.raises(InputError) as refused:
            source.generate_cached(prompt, 2)
        assert refused.value.code == "no_generation"
        return
    generation = source.generate_cached(prompt, 3)
    assert [step.token_id for step in generation.steps] == [new.token.token_id for new in source.generate(prompt, 3)]
    assert generation.cost.bytes_per_token == 2 * d.layers * d.kv_heads * d.head_dim * 4
    for step in generation.steps:
        assert len(step.layers) == d.layers and 0 <= step.token_id < d.vocabulary
        for layer in step.layers:
            assert layer.keys.shape == layer.values.shape == (d.kv_heads, step.length, d.head_dim)
            assert layer.weights.shape == (d.heads, step.length) and layer.query.shape == (d.heads, d.head_dim)
            torch.testing.assert_close(layer.weights.sum(-1), torch.ones(d.heads), rtol=0, atol=ROW_SUM)


def test_what_it_grants_works(source):
    d = source.description
    if source.capabilities.generates:
        prompt = source.default_prompt
        step = source.next_step(prompt)
        assert isinstance(step, NextStep) and step.logits is not None
        assert step.logits.shape == (d.vocabulary,) and torch.isfinite(step.logits).all()
        assert step.rows.shape == (d.layers, d.heads, len(step.context))
        torch.testing.assert_close(step.rows.sum(-1), torch.ones(d.layers, d.heads), rtol=0, atol=ROW_SUM)
        generated = source.generate(prompt, 3)
        assert 1 <= len(generated) <= 3
        for new in generated:
            assert isinstance(new, GeneratedToken) and isinstance(new.token, Token)
            assert 0 <= new.token.token_id < d.vocabulary, "never an id that is no token"
            assert new.rows.shape == (d.layers, d.heads, len(new.context))
            torch.testing.assert_close(new.rows.sum(-1), torch.ones(d.layers, d.heads), rtol=0, atol=ROW_SUM)
        assert [new.token.token_id for new in source.generate(prompt, 3)] == [new.token.token_id for new in generated]
        assert isinstance(source.decode([generated[0].token.token_id]), str)
        assert source.token(generated[0].token.token_id).token_id == generated[0].token.token_id
    for step in source.snapshot_steps():
        weights, prompt = source.snapshot(step)
        assert isinstance(prompt, str) and weights.dim() == 4 and weights.shape[:2] == (d.layers, d.heads)
        _is_causal(weights, f"snapshot {step}")
