"""Generating with the key/value cache (gpt_core/kv_cache.py, gpt_core/hf/kv_cache.py): each
step's new row is the last row of the full causal attention of the same sequence, its cache is
what the model keeps, its tokens are the ones generation without a cache chooses, and its cost
is the chapter's arithmetic.

The expected numbers come from elsewhere: the tiny GPT's full trace and ``gpt_core.generate``
(no cache); for the tiny GPT-2 and the grouped-query Qwen2 and Llama (harness/tiny_models.py),
transformers itself, its eager attention loaded fresh from the model's folder, run with its own
cache token by token and over the whole sequence at once; the sizes, written out."""

from __future__ import annotations

import pytest
import torch

from gpt_core import InputError
from gpt_core.data import CharVocabulary
from gpt_core.generate import generate
from gpt_core.kv_cache import CacheCost, generate_characters_cached
from gpt_core.model import GPT, GPTConfig
from gpt_core.playground import PlaygroundConfig
from gpt_core.sources import HubModel, RandomWeights, TinyGPT
from string_table import error_text

CHARS = tuple(sorted(set("the cat sat on a mat")))
CONTEXT = 16
PROMPT = "the cat"
TOLERANCE = 1e-5
HUB_FAMILIES = {"gpt2": (4, 4), "qwen2": (4, 2), "llama": (4, 1)}  # query heads, key/value heads


@pytest.fixture(autouse=True)
def _threads():
    torch.set_num_threads(1)


def _tiny(heads: int = 2, seed: int = 0, dropout: float = 0.0) -> TinyGPT:
    config = GPTConfig(
        vocab_size=len(CHARS), context_length=CONTEXT, embedding_dim=16, heads=heads, blocks=2, dropout=dropout
    )
    return TinyGPT(GPT(config, seed=seed), CharVocabulary(CHARS), "tiny", PROMPT)


def _close(mine: torch.Tensor, theirs: torch.Tensor) -> None:
    torch.testing.assert_close(mine, theirs, rtol=0, atol=TOLERANCE)


# --- the book's tiny GPT: its own cached forward against its full trace ---------------------------


@pytest.mark.parametrize("heads", [2, 4])
def test_each_tiny_gpt_step_is_the_last_row_of_the_full_trace(heads):
    """Step k's query row, in every block and head, is the last row of the full causal
    attention over the prompt and the k tokens chosen before; its cache is that trace's keys
    and values at every position so far; its query the trace's last query."""
    source = _tiny(heads)
    generation = source.generate_cached(PROMPT, 6)
    prompt_ids = source.vocabulary.encode(PROMPT)
    assert list(generation.prompt_ids) == prompt_ids and len(generation.steps) == 6
    for k, step in enumerate(generation.steps):
        ids = prompt_ids + [s.token_id for s in generation.steps[:k]]
        assert step.length == len(ids) and step.position == len(ids) - 1
        assert step.new == (len(prompt_ids) if k == 0 else 1), "the prompt at once, then one position"
        full = source.trace(source.vocabulary.decode(ids))
        assert len(full.tokens) == len(ids) and len(step.layers) == 2
        for block, layer in enumerate(step.layers):
            trace = full.layers[block]
            assert layer.weights.shape == (heads, len(ids)) and layer.keys.shape == (heads, len(ids), 16 // heads)
            _close(layer.weights, full.weights[block][0, :, -1, :])
            _close(layer.keys, trace.keys_heads[0])
            _close(layer.values, trace.values_heads[0])
            _close(layer.query, trace.queries_heads[0, :, -1, :])
    prompt_trace = source.trace(PROMPT)
    for block, weights in enumerate(generation.prompt_weights):
        _close(weights, prompt_trace.weights[block][0])


def test_the_rows_a_cache_computed_make_the_full_causal_matrix():
    """The prompt's rows and one new row a step, laid out, are the full trace's matrix of the
    same tokens (zeros above the diagonal included)."""
    source = _tiny(heads=4)
    generation = source.generate_cached(PROMPT, 5)
    for k in (0, 2, 4):
        full = source.trace(source.vocabulary.decode(generation.token_ids[: len(PROMPT) + k]))
        for block in range(2):
            matrix = generation.cached_matrix(k, block)
            assert matrix.shape == (4, len(PROMPT) + k, len(PROMPT) + k)
            _close(matrix, full.weights[block][0])


def test_tiny_gpt_greedy_tokens_are_generations_without_a_cache():
    source = _tiny()
    ids = source.vocabulary.encode(PROMPT)
    cached = generate_characters_cached(source.model, source.vocabulary, PROMPT, 8)
    assert [step.token_id for step in cached.steps] == generate(source.model, ids, 8, temperature=0.0)
    assert [step.text for step in cached.steps] == list(source.vocabulary.decode(cached.token_ids[len(ids) :]))
    assert [new.token.token_id for new in source.generate(PROMPT, 8)] == cached.token_ids[len(ids) :]


@pytest.mark.parametrize(("temperature", "seed", "top_k"), [(1.5, 3, None), (0.8, 11, 3), (2.0, 0, 5)])
def test_tiny_gpt_draws_as_generation_without_a_cache_draws(temperature, seed, top_k):
    """The same temperature, seed and top-k give the tokens ``gpt_core.generate`` draws."""
    source = _tiny()
    ids = source.vocabulary.encode(PROMPT)
    cached = source.generate_cached(PROMPT, 9, temperature=temperature, seed=seed, top_k=top_k)
    expected = generate(source.model, ids, 9, temperature=temperature, top_k=top_k, seed=seed)
    assert [step.token_id for step in cached.steps] == expected


def test_the_seed_and_temperature_choose_the_tokens():
    source = _tiny()

    def tokens(**settings) -> list[int]:
        return [step.token_id for step in source.generate_cached(PROMPT, 9, **settings).steps]

    greedy = tokens()
    assert tokens(temperature=1.5, seed=3) == tokens(temperature=1.5, seed=3), "the same seed, the same draw"
    assert tokens(temperature=1.5, seed=3) != greedy, "a hot temperature leaves the likeliest path"
    assert tokens(temperature=1.5, seed=3) != tokens(temperature=1.5, seed=4)
    assert tokens(temperature=1.5, seed=3, top_k=1) == greedy, "top-k 1 keeps only the likeliest token"
    assert tokens(temperature=0.0, seed=7) == greedy, "greedy draws nothing: the seed is not used"


def test_a_cache_leaves_its_context_room_for_the_steps_asked_and_stops_at_the_context():
    """Its keys carry their positions, so a cache cannot slide: the prompt keeps its last
    CONTEXT - n + 1 characters, so that the n-th step's query is at position CONTEXT - 1; more
    steps than the context holds stop there, after one character of prompt."""
    source = _tiny()
    long = "the cat sat on a mat, the cat sat"
    known = long.replace(",", "")
    for n in (1, 3, 8):
        cut = source.generate_cached(long, n)
        kept = CONTEXT - n + 1
        assert source.vocabulary.decode(list(cut.prompt_ids)) == known[-kept:], n
        assert cut.cut == len(known) - kept and cut.left_out == (",",)
        assert len(cut.steps) == n and cut.steps[-1].length == CONTEXT, "the last query at CONTEXT - 1"
    short = source.generate_cached(PROMPT, 3)
    assert short.cut == 0 and len(short.steps) == 3 and short.steps[-1].length == len(PROMPT) + 2
    generation = source.generate_cached(PROMPT, 100)
    assert len(generation.prompt_ids) == 1 and len(generation.steps) == CONTEXT
    assert generation.steps[-1].length == CONTEXT and generation.steps[-1].layers[0].keys.shape[1] == CONTEXT


def test_a_training_model_generates_without_dropout_and_is_left_training():
    source = _tiny(dropout=0.3)
    source.model.train()
    ids = source.vocabulary.encode(PROMPT)
    cached = source.generate_cached(PROMPT, 5)
    assert source.model.training, "its mode is put back"
    assert [step.token_id for step in cached.steps] == generate(source.model, ids, 5, temperature=0.0)


# --- Hugging Face models: the model's own cache against transformers' eager attention --------------


def _eager(folder):
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(folder, attn_implementation="eager", dtype=torch.float32).eval()


def _eager_steps(model, ids: list[int], chosen: list[int]):
    """transformers' own generation with its cache, token by token: after the prompt, then after
    each chosen token, (its cache, its weights over the whole sequence at once)."""
    with torch.no_grad():
        out = model(input_ids=torch.tensor([ids]), use_cache=True)
        for k in range(len(chosen) + 1):
            sequence = ids + chosen[:k]
            full = model(input_ids=torch.tensor([sequence]), output_attentions=True, use_cache=False)
            yield out.cache, full
            if k < len(chosen):
                out = model(input_ids=torch.tensor([[chosen[k]]]), cache=out.cache, use_cache=True)


@pytest.mark.parametrize("family", sorted(HUB_FAMILIES))
def test_a_real_models_cache_and_rows_are_transformers_own(family, tiny_models, tiny_model_folders):
    """After each step the cache equals transformers' past keys and values after the same
    steps (grouped-query: h_kv heads of them), the new row equals the last row of eager
    attention's weights of the whole sequence, and the token is its logits' argmax."""
    heads, kv_heads = HUB_FAMILIES[family]
    source = HubModel(tiny_models[family], str(tiny_model_folders[family]), PROMPT)
    generation = source.generate_cached("the cat sat", 4)
    chosen = [step.token_id for step in generation.steps]
    assert len(chosen) == 4
    model = _eager(tiny_model_folders[family])
    for step, (cache, full) in zip(
        generation.steps, _eager_steps(model, list(generation.prompt_ids), chosen[:-1]), strict=True
    ):
        t = len(generation.prompt_ids) + step.index
        assert step.length == t and int(full.logits[0, -1].argmax()) == step.token_id
        for layer, (mine, theirs) in enumerate(zip(step.layers, cache.layers, strict=True)):
            assert mine.keys.shape == (kv_heads, t, 8) and mine.weights.shape == (heads, t)
            _close(mine.keys, theirs.keys[0])
            _close(mine.values, theirs.values[0])
            _close(mine.weights, full.attentions[layer][0, :, -1, :])
    with torch.no_grad():
        prompt = model(input_ids=torch.tensor([list(generation.prompt_ids)]), output_attentions=True)
    for layer, weights in enumerate(generation.prompt_weights):
        _close(weights, prompt.attentions[layer][0])


@pytest.mark.parametrize("family", ["gpt2", "qwen2"])
def test_a_real_models_tokens_are_its_generations_without_showing_the_cache(family, tiny_models):
    from gpt_core import hf

    loaded = tiny_models[family]
    for settings in ({}, {"temperature": 1.5, "seed": 3}, {"temperature": 1.2, "seed": 5, "top_k": 4}):
        cached = hf.generate_cached(loaded, "the cat", 5, **settings)
        plain = hf.generate_tokens(loaded, "the cat", 5, **settings)
        assert [step.token_id for step in cached.steps] == [new.piece.token_id for new in plain], settings
        assert [step.label for step in cached.steps] == [new.piece.label for new in plain]


# --- the cost -----------------------------------------------------------------------------------


def test_gpt2_smalls_cache_costs_72_kib_a_token_in_float32():
    gpt2_small = CacheCost(layers=12, heads=12, kv_heads=12, head_dim=64, number_bytes=4)
    assert gpt2_small.bytes_per_token == 2 * 12 * 12 * 64 * 4 == 73_728 == 72 * 1024
    assert gpt2_small.cache_bytes(1024) == 72 * 1024 * 1024, "its whole context: 72 MiB"
    assert gpt2_small.vectors(1) == 288, "one key and one value per layer and head: 2 × 12 × 12"
    assert gpt2_small.vectors(100) == 28_800, "recomputing 100 tokens"
    assert CacheCost(12, 12, 12, 64, number_bytes=2).bytes_per_token == 36 * 1024, "half as much in 16 bits"


def test_grouped_query_heads_cut_the_cache_by_h_over_h_kv():
    qwen25_half = CacheCost(layers=24, heads=14, kv_heads=2, head_dim=64, number_bytes=4)  # Qwen2.5-0.5B
    assert qwen25_half.bytes_per_token == 2 * 24 * 2 * 64 * 4 == 24_576
    assert qwen25_half.bytes_per_token_ungrouped == 2 * 24 * 14 * 64 * 4 == 7 * 24_576
    assert qwen25_half.vectors(1) == 2 * 24 * 2


@pytest.mark.parametrize("family", sorted(HUB_FAMILIES))
def test_a_steps_cost_is_the_bytes_and_vectors_it_holds(family, tiny_models):
    from gpt_core import hf

    loaded = tiny_models[family]
    _, kv_heads = HUB_FAMILIES[family]
    generation = hf.generate_cached(loaded, "the cat sat", 3)
    cost = generation.cost
    assert (cost.layers, cost.kv_heads, cost.head_dim, cost.number_bytes) == (2, kv_heads, 8, 4)
    for step in generation.steps:
        held = sum(t.numel() * t.element_size() for layer in step.layers for t in (layer.keys, layer.values))
        assert cost.cache_bytes(step.length) == held
        new = len(generation.prompt_ids) if step.index == 0 else 1
        assert cost.vectors(step.new) == 2 * 2 * kv_heads * new
        assert cost.vectors(step.length) == 2 * 2 * kv_heads * step.length, "without a cache: every position"


# --- refusals ------------------------------------------------------------------------------------


def test_a_source_without_a_vocabulary_refuses_in_both_languages():
    source = RandomWeights(PlaygroundConfig(heads=2, head_dim=4))
    with pytest.raises(InputError) as refused:
        source.generate_cached("the cat", 3)
    assert refused.value.code == "no_generation"
    assert "random" in str(refused.value) and "key/value cache" in str(refused.value)
    chinese = error_text(refused.value, "zh")
    assert "random" in chinese and "键值缓存" in chinese


@pytest.mark.parametrize(
    ("settings", "code"),
    [({"temperature": -1.0}, "temperature_negative"), ({"temperature": 1.0, "top_k": 0}, "top_k_too_small")],
)
def test_bad_sampling_is_refused_in_words(settings, code, tiny_models):
    from gpt_core import hf

    for call in (
        lambda: _tiny().generate_cached(PROMPT, 2, **settings),
        lambda: hf.generate_cached(tiny_models["gpt2"], PROMPT, 2, **settings),
    ):
        with pytest.raises(InputError) as refused:
            call()
        assert refused.value.code == code


def test_an_empty_text_is_refused_in_words():
    with pytest.raises(InputError) as refused:
        _tiny().generate_cached("  ", 2)
    assert refused.value.code == "empty_text"
