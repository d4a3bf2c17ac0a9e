"""gpt_core.source / gpt_core.sources: one interface (``AttentionSource``) over random weights,
the book's tiny character GPT and a Hugging Face model. Every expected number is written here
or computed here from first principles (softmax of Q Kᵀ/√d under a causal mask, the model's own
forward pass, index arithmetic for the induction test), never by the function under test.

The Hugging Face models are the tiny offline ones of tests/conftest.py (harness/tiny_models.py):
gpt2-style, llama (4 query heads, 1 key/value head), qwen2 (4 and 2), a SentencePiece "llama-sp"
and a "qwen2-padded" whose embedding has 37 rows its tokenizer has no token for."""

from __future__ import annotations

import math

import pytest
import torch

from gpt_core.attention import Trace
from gpt_core.data import CharVocabulary
from gpt_core.errors import InputError
from gpt_core.model import GPT, GPTConfig, GPTTrace
from gpt_core.playground import PlaygroundConfig, build_attention
from gpt_core.source import (
    INDUCTION_TOKENS,
    AttentionSource,
    Capabilities,
    Description,
    GeneratedToken,
    NextStep,
    Token,
    generate_with_attention,
    layer_metrics,
    source_induction_scores,
)
from gpt_core.sources import HubModel, RandomWeights, TinyGPT

CORPUS = "the cat sat on a mat"
CHARS = tuple(sorted(set(CORPUS)))  # " acehmnost": the vocabulary, written out below
CONTEXT = 16
PADDING = 37  # harness/tiny_models.py: the padded model's rows beyond its tokenizer
HUB_FAMILIES = ("gpt2", "llama", "qwen2", "llama-sp", "qwen2-padded")


# --- helpers ---------------------------------------------------------------------------------


SNAPSHOT_PROMPT = "the cat sat on"


def _snapshots() -> dict[int, torch.Tensor]:
    """Two kept steps of a 2-block, 2-head model on a 4-character prompt: uniform causal rows."""
    rows = torch.tril(torch.ones(4, 4))
    uniform = rows / rows.sum(-1, keepdim=True)
    return {0: uniform.expand(2, 2, 4, 4).clone(), 50: uniform.expand(2, 2, 4, 4).clone()}


def _tiny_gpt(snapshots: bool = False, serial: int = 0, seed: int = 0) -> TinyGPT:
    vocabulary = CharVocabulary(CHARS)
    config = GPTConfig(vocab_size=len(CHARS), context_length=CONTEXT, embedding_dim=16, heads=2, blocks=2)
    kept = {"snapshots": _snapshots, "snapshot_prompt": SNAPSHOT_PROMPT} if snapshots else {}
    return TinyGPT(GPT(config, seed=seed), vocabulary, "h2", "the cat", serial=serial, **kept)


def _ids(text: str) -> torch.Tensor:
    """Ids of ``text`` in CHARS, by the position of each character (written here, not encode)."""
    return torch.tensor([[CHARS.index(char) for char in text]])


def _causal_softmax(queries: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
    """softmax(Q Kᵀ / √d + causal mask) for (B, h, T, d) queries and keys."""
    T, d = queries.shape[-2], queries.shape[-1]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(d)
    future = torch.ones(T, T).triu(1).bool()
    return torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)


def _eager(folder, ids: list[int]):
    """The model from its folder with transformers' own eager attention (not gpt_core.hf)."""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(folder, attn_implementation="eager", dtype=torch.float32).eval()
    with torch.no_grad():
        return model, model(input_ids=torch.tensor([ids]), output_attentions=True)


@pytest.fixture
def hub(tiny_models):
    def make(family: str, serial: int = 0) -> HubModel:
        return HubModel(tiny_models[family], family, "the cat", serial=serial)

    return make


# --- the protocol and descriptions -----------------------------------------------------------


def test_every_source_is_an_attention_source_and_a_partial_one_is_not(hub):
    sources = [RandomWeights(PlaygroundConfig()), _tiny_gpt(), hub("gpt2")]
    for source in sources:
        assert isinstance(source, AttentionSource), type(source).__name__
        assert isinstance(source.description, Description) and isinstance(source.capabilities, Capabilities)
        assert isinstance(source.default_prompt, str) and source.default_prompt.strip()

    class NoTokens:  # everything but ``token``: the runtime check must notice
        description = sources[1].description
        capabilities = sources[1].capabilities
        words = sources[1].words
        default_prompt = "x"
        identity = ("x",)
        settings = {}
        decode = trace = next_step = generate = induction_weights = staticmethod(lambda *a: None)
        notes = facts = reproduction = snapshot_steps = snapshot = staticmethod(lambda *a: None)

    assert not isinstance(NoTokens(), AttentionSource)


@pytest.mark.parametrize(
    ("heads", "head_dim", "input_dim", "qkv_bias"), [(4, 8, None, False), (3, 5, 7, True), (1, 2, 12, False)]
)
def test_random_weights_describe_their_layer(heads, head_dim, input_dim, qkv_bias):
    config = PlaygroundConfig(heads=heads, head_dim=head_dim, input_dim=input_dim, seed=3, qkv_bias=qkv_bias)
    d = RandomWeights(config).description
    C = heads * head_dim
    width = input_dim if input_dim is not None else C
    # Q, K, V: width → C (bias when asked); the output projection C → C with its bias.
    expected = 3 * (width * C + (C if qkv_bias else 0)) + C * C + C
    assert expected == sum(p.numel() for p in build_attention(config).parameters())
    assert d.parameters == expected and d.bytes == 4 * expected
    assert (d.layers, d.heads, d.kv_heads, d.head_dim, d.hidden) == (1, heads, heads, head_dim, width)
    assert (d.groups, d.width) == (1, C)
    assert (d.family, d.vocabulary, d.qkv_bias) == ("random", 0, qkv_bias)
    assert d.context == d.reads == 128


def test_tiny_gpt_describes_its_model():
    source = _tiny_gpt()
    d = source.description
    config = source.model.config
    assert (d.layers, d.heads, d.kv_heads) == (config.blocks, config.heads, config.heads) == (2, 2, 2)
    assert d.hidden == config.embedding_dim == 16 and d.head_dim == 8
    assert d.context == d.reads == CONTEXT
    assert d.vocabulary == len(source.vocabulary.chars) == len(CHARS) == 10
    assert d.parameters == sum(p.numel() for p in source.model.parameters())
    assert d.bytes == 4 * d.parameters
    assert d.family == "gpt" and (source.words.unit, source.words.token) == ("block", "character")
    assert (d.heads, d.head_dim, d.hidden, d.output_dim) == (2, 8, 16, 16)
    assert d.qkv_bias == (source.model.blocks[0].attention.query_layer.bias is not None)


@pytest.mark.parametrize("family", HUB_FAMILIES)
def test_a_hub_model_describes_its_config(family, hub, tiny_models):
    real = tiny_models[family]
    config, model, tokenizer = real.model.config, real.model, real.tokenizer
    d = hub(family).description
    if family == "gpt2":
        layers, heads, kv_heads, hidden, context = (
            config.n_layer,
            config.n_head,
            config.n_head,
            config.n_embd,
            config.n_positions,
        )
        head_dim = hidden // heads
    else:
        layers, heads, kv_heads = config.num_hidden_layers, config.num_attention_heads, config.num_key_value_heads
        hidden, context = config.hidden_size, config.max_position_embeddings
        attention = model.model.layers[0].self_attn
        head_dim = attention.q_proj.weight.shape[0] // heads  # from the weights' shapes
        assert attention.k_proj.weight.shape[0] == kv_heads * head_dim
    assert (d.layers, d.heads, d.kv_heads, d.head_dim, d.hidden, d.context) == (
        layers,
        heads,
        kv_heads,
        head_dim,
        hidden,
        context,
    )
    assert d.groups == heads // kv_heads
    assert d.reads == min(context, 512) == 64
    assert d.parameters == sum(p.numel() for p in model.parameters())
    assert (d.family, d.name, hub(family).words.unit) == (config.model_type, family, "layer")
    rows = model.get_input_embeddings().weight.shape[0]
    assert d.vocabulary == len(tokenizer)
    assert rows - len(tokenizer) == (PADDING if family == "qwen2-padded" else 0)


def test_capabilities_and_settings_differ_as_documented(hub):
    random = RandomWeights(PlaygroundConfig(heads=3, seed=5))
    assert random.capabilities == Capabilities(generates=False)
    assert (random.settings["heads"], random.settings["seed"], random.settings["tok"]) == (3, 5, "char")
    for model in (_tiny_gpt(snapshots=True), _tiny_gpt(), hub("gpt2")):
        assert model.capabilities == Capabilities(generates=True) and dict(model.settings) == {}
    assert _tiny_gpt(snapshots=True).snapshot_steps() == (0, 50)
    assert _tiny_gpt().snapshot_steps() == () == hub("gpt2").snapshot_steps() == random.snapshot_steps()


def test_kept_snapshots_are_read_with_their_prompt_and_a_missing_step_is_refused():
    source = _tiny_gpt(snapshots=True)
    weights, prompt = source.snapshot(50)
    assert weights.shape == (2, 2, 4, 4) and prompt == SNAPSHOT_PROMPT[:4]
    assert torch.equal(weights[1, 1, 3], torch.full((4,), 0.25))
    with pytest.raises(InputError, match="step 7"):
        source.snapshot(7)
    with pytest.raises(InputError):
        _tiny_gpt().snapshot(0)


def test_identity_names_the_numbers(hub):
    a, b = PlaygroundConfig(seed=1), PlaygroundConfig(seed=2)
    assert RandomWeights(a).identity == RandomWeights(PlaygroundConfig(seed=1)).identity
    assert RandomWeights(a).identity != RandomWeights(b).identity
    assert _tiny_gpt(serial=1).identity != _tiny_gpt(serial=2).identity
    assert hub("gpt2", serial=1).identity != hub("gpt2", serial=2).identity


def test_random_weights_have_no_vocabulary():
    source = RandomWeights(PlaygroundConfig())
    for call in (
        lambda: source.next_step("a"),
        lambda: source.generate("a", 2),
        lambda: source.token(0),
        lambda: source.decode([0]),
        source.induction_weights,
    ):
        with pytest.raises(NotImplementedError):
            call()


# --- RandomWeights.trace ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "config",
    [
        PlaygroundConfig(heads=4, head_dim=8, seed=7),
        PlaygroundConfig(heads=3, head_dim=5, input_dim=6, seed=11, qkv_bias=True),
    ],
)
def test_random_weights_trace_is_the_causal_softmax_of_its_seeded_layer(config):
    text = "the cat sat on the mat"
    trace = RandomWeights(config).trace(text)
    assert isinstance(trace, Trace) and len(trace.layers) == len(trace.weights) == 1
    assert trace.tokens == list(text) and trace.cut == 0 and trace.text_used == text
    layer, T, h, d = trace.layers[0], len(text), config.heads, config.head_dim
    weights = trace.weights[0]
    assert weights is layer.weights and weights.shape == (1, h, T, T)
    # Q and K are the seeded layer's projections of the traced input.
    module = build_attention(config)
    for name, heads in (("query_layer", layer.queries_heads), ("key_layer", layer.keys_heads)):
        linear = getattr(module, name)
        projected = layer.x @ linear.weight.T + (linear.bias if linear.bias is not None else 0)
        torch.testing.assert_close(heads, projected.view(1, T, h, d).transpose(1, 2), rtol=0, atol=1e-5)
    torch.testing.assert_close(weights, _causal_softmax(layer.queries_heads, layer.keys_heads), rtol=0, atol=1e-6)
    future = torch.ones(T, T).triu(1).bool()
    assert (weights[..., future] == 0).all()
    assert (weights[..., ~future] > 0).all()
    torch.testing.assert_close(weights.sum(-1), torch.ones(1, h, T), rtol=0, atol=1e-6)


def test_random_weights_cut_a_long_text_at_128_characters():
    text = "".join(chr(ord("a") + i % 26) for i in range(200))
    assert len(text) == 200
    trace = RandomWeights(PlaygroundConfig(tokenizer="char")).trace(text)
    assert len(trace.tokens) == 128 and trace.tokens == list(text[:128])
    assert trace.cut == 72 and trace.total_tokens == 200
    assert trace.text_used == text[:128]
    assert trace.weights[0].shape[-1] == 128
    exact = RandomWeights(PlaygroundConfig()).trace(text[:128])
    assert exact.cut == 0 and torch.equal(exact.weights[0], trace.weights[0])


def test_random_weights_cut_a_long_text_at_128_words():
    words = [f"w{i}" for i in range(130)]
    trace = RandomWeights(PlaygroundConfig(tokenizer="word")).trace(" ".join(words))
    assert trace.tokens == words[:128] and trace.cut == 2
    assert trace.text_used == " ".join(words[:128])


def test_random_weights_refuse_an_empty_text():
    with pytest.raises(InputError):
        RandomWeights(PlaygroundConfig()).trace("   ")


# --- TinyGPT ---------------------------------------------------------------------------------


def test_tiny_gpt_trace_leaves_out_unknown_characters_and_cuts_at_its_context():
    source = _tiny_gpt()
    text = "the cat! sat? on a mat, the cat sat"  # "!", "?", "," are not in CHARS
    known = "the cat sat on a mat the cat sat"
    assert len(known) == 32
    trace = source.trace(text)
    assert trace.left_out == ("!", ",", "?")  # sorted by code point: ! (33) , (44) ? (63)
    assert trace.tokens == list(known[:CONTEXT]) and trace.text_used == known[:CONTEXT]
    assert trace.cut == len(known) - CONTEXT == 16 and trace.total_tokens == 32
    assert trace.token_ids == _ids(known[:CONTEXT])[0].tolist()
    assert trace.labels[3] == "␣"  # the space after "the"
    assert len(trace.weights) == 2
    # Each block's weights: the causal softmax of its own queries and keys.
    for layer, weights in zip(trace.layers, trace.weights, strict=True):
        assert weights.shape == (1, 2, CONTEXT, CONTEXT)
        torch.testing.assert_close(weights, _causal_softmax(layer.queries_heads, layer.keys_heads), rtol=0, atol=1e-6)


def test_tiny_gpt_trace_refuses_a_text_of_unknown_characters():
    with pytest.raises(InputError):
        _tiny_gpt().trace("XYZ!")


def test_tiny_gpt_next_step_is_the_models_last_position():
    source = _tiny_gpt()
    text = "the cat sat on a mat! the cat sat"  # 32 known characters: the last 16 are read
    known = "the cat sat on a mat the cat sat"
    context = known[-CONTEXT:]
    step = source.next_step(text)
    assert isinstance(step, NextStep) and step.padding == 0
    ids = _ids(context)
    trace = GPTTrace()
    with torch.no_grad():
        logits, _ = source.model(ids)
        source.model(ids, trace=trace)
    assert step.logits.shape == (len(CHARS),)
    torch.testing.assert_close(step.logits, logits[0, -1], rtol=0, atol=0)
    assert step.context == ["␣" if char == " " else char for char in context]
    assert step.rows.shape == (2, 2, CONTEXT)
    for block in range(2):
        torch.testing.assert_close(step.rows[block], trace.layers[block].weights[0, :, -1, :], rtol=0, atol=0)
    torch.testing.assert_close(step.rows.sum(-1), torch.ones(2, 2), rtol=0, atol=1e-6)


def _greedy_ids(model: GPT, prompt: str, n: int) -> list[int]:
    ids = [CHARS.index(char) for char in prompt]
    with torch.no_grad():
        for _ in range(n):
            logits, _ = model(torch.tensor([ids[-CONTEXT:]]))
            ids.append(int(logits[0, -1].argmax()))
    return ids[len(prompt) :]


def _sampled_ids(model: GPT, prompt: str, n: int, temperature: float, seed: int) -> list[int]:
    generator = torch.Generator().manual_seed(seed)
    ids = [CHARS.index(char) for char in prompt]
    with torch.no_grad():
        for _ in range(n):
            logits, _ = model(torch.tensor([ids[-CONTEXT:]]))
            probabilities = torch.softmax(logits[0, -1] / temperature, -1)
            ids.append(int(torch.multinomial(probabilities, 1, generator=generator)))
    return ids[len(prompt) :]


def test_tiny_gpt_greedy_generation_takes_the_models_argmax():
    source = _tiny_gpt()
    prompt = "the cat sat"
    n = 12  # the text outgrows the context of 16
    steps = source.generate(prompt, n)
    expected = _greedy_ids(source.model, prompt, n)
    assert [step.token.token_id for step in steps] == expected
    assert all(isinstance(step, GeneratedToken) for step in steps)
    text = prompt
    for step, new_id in zip(steps, expected, strict=True):
        context = text[-CONTEXT:]
        assert step.context == ["␣" if char == " " else char for char in context]
        assert step.token.text == CHARS[new_id]
        assert step.rows.shape == (2, 2, len(context))
        torch.testing.assert_close(step.rows.sum(-1), torch.ones(2, 2), rtol=0, atol=1e-6)
        trace = GPTTrace()
        with torch.no_grad():
            source.model(_ids(context), trace=trace)
        for block in range(2):
            torch.testing.assert_close(step.rows[block], trace.layers[block].weights[0, :, -1, :], rtol=0, atol=0)
        text += CHARS[new_id]
    again = generate_with_attention(source, prompt, n)
    assert [step.token for step in again] == [step.token for step in steps]


def test_tiny_gpt_sampling_follows_its_seed():
    source = _tiny_gpt()
    prompt, n, temperature = "the cat", 20, 1.5
    first = [step.token.token_id for step in source.generate(prompt, n, temperature, seed=5)]
    again = [step.token.token_id for step in generate_with_attention(source, prompt, n, temperature, seed=5)]
    other = [step.token.token_id for step in source.generate(prompt, n, temperature, seed=6)]
    assert first == again
    assert first != other
    assert first == _sampled_ids(source.model, prompt, n, temperature, seed=5)
    assert other == _sampled_ids(source.model, prompt, n, temperature, seed=6)


def test_tiny_gpt_tokens_round_trip_the_vocabulary():
    source = _tiny_gpt()
    for token_id, char in enumerate(CHARS):
        token = source.token(token_id)
        assert token == Token(token_id, "␣" if char == " " else char, char)
    assert source.decode(list(range(len(CHARS)))) == "".join(CHARS)
    assert source.decode(_ids("the cat")[0].tolist()) == "the cat"


# --- HubModel --------------------------------------------------------------------------------


def test_hub_next_step_on_a_padded_model_scores_only_the_tokenizers_ids(hub, tiny_models, tiny_model_folders):
    real = tiny_models["qwen2-padded"]
    tokens = len(real.tokenizer)
    rows = real.model.get_input_embeddings().weight.shape[0]
    assert rows - tokens == PADDING
    step = hub("qwen2-padded").next_step("the cat")
    assert step.logits.shape == (tokens,)
    assert step.padding == rows - tokens == 37
    ids = real.tokenizer("the cat")["input_ids"]
    _, eager = _eager(tiny_model_folders["qwen2-padded"], ids)
    full = eager.logits[0, -1]
    assert full.shape == (rows,) and int(full.argmax()) >= tokens, "the padding is the likeliest: the cut matters"
    torch.testing.assert_close(step.logits, full[:tokens], rtol=0, atol=1e-5)
    assert step.rows.shape == (len(eager.attentions), 4, len(ids))
    for layer, attention in enumerate(eager.attentions):
        torch.testing.assert_close(step.rows[layer], attention[0, :, -1, :], rtol=0, atol=1e-6)
    assert len(step.context) == len(ids)


def test_hub_next_step_of_an_unpadded_model_has_no_padding(hub, tiny_models):
    step = hub("gpt2").next_step("the cat")
    assert step.padding == 0 and step.logits.shape == (len(tiny_models["gpt2"].tokenizer),)


def test_hub_token_past_the_tokenizer_is_its_number(hub, tiny_models):
    source = hub("qwen2-padded")
    tokens = len(tiny_models["qwen2-padded"].tokenizer)
    for token_id in (tokens, tokens + 17, tokens + PADDING - 1):
        assert source.token(token_id) == Token(token_id, f"<id {token_id}>", None)


def _expected_text(tokenizer, family: str, token_id: int) -> str | None:
    """What token ``token_id`` adds to a text, from its spelling: None for a special token and
    for a piece of a character's bytes (not UTF-8 alone)."""
    if token_id in set(tokenizer.all_special_ids):
        return None
    if family == "llama-sp":
        spelled = tokenizer.convert_ids_to_tokens(token_id)
        if spelled.startswith("<0x") and spelled.endswith(">") and len(spelled) == 6:
            byte = int(spelled[3:5], 16)
            return chr(byte) if byte < 0x80 else None
        return spelled.replace("▁", " ")
    decoded = tokenizer.decode([token_id])  # GPT-2's byte alphabet: an incomplete character is U+FFFD
    return None if "\ufffd" in decoded else decoded


@pytest.mark.parametrize("family", ("gpt2", "llama-sp"))
def test_hub_tokens_are_the_tokenizers_text(family, hub, tiny_models):
    """Every id of the tokenizer: a token whose text is what it adds to a text, or None for a
    special token and a piece of a character's bytes."""
    tokenizer = tiny_models[family].tokenizer
    source = hub(family)
    kinds = set()
    for token_id in range(len(tokenizer)):
        token = source.token(token_id)
        expected = _expected_text(tokenizer, family, token_id)
        assert (token.token_id, token.text) == (token_id, expected), token_id
        assert token.label
        kinds.add(expected is None)
    assert kinds == {True, False}
    the = tokenizer.convert_tokens_to_ids("▁the" if family == "llama-sp" else "Ġthe")
    assert source.token(the) == Token(the, "␣the", " the")


def test_hub_trace_labels_a_sentencepiece_word_start_as_a_space(hub):
    trace = hub("llama-sp").trace("the cat")
    assert trace.labels == ["<s>", "␣the", "␣cat"]
    assert trace.tokens == ["<s>", " the", " cat"] and trace.text_used == "the cat" and trace.cut == 0
    assert isinstance(trace, Trace)
    T = len(trace.tokens)
    for weights in trace.weights:
        assert weights.shape == (1, 4, T, T)
        torch.testing.assert_close(weights.sum(-1), torch.ones(1, 4, T), rtol=0, atol=1e-5)


def _eager_greedy(model, tokens: int, ids: list[int], n: int) -> list[int]:
    ids = list(ids)
    with torch.no_grad():
        for _ in range(n):
            ids.append(int(model(input_ids=torch.tensor([ids])).logits[0, -1, :tokens].argmax()))
    return ids[-n:]


@pytest.mark.parametrize("family", ("llama-sp", "qwen2-padded"))
def test_hub_generation_keeps_each_steps_attention(family, hub, tiny_models, tiny_model_folders):
    real = tiny_models[family]
    source = hub(family)
    prompt, n = "the cat", 6
    prompt_ids = real.tokenizer("the cat")["input_ids"]
    steps = generate_with_attention(source, prompt, n)
    assert len(steps) == n
    layers, heads = real.model.config.num_hidden_layers, real.model.config.num_attention_heads
    context = list(source.trace(prompt).labels)
    for index, step in enumerate(steps):
        T = len(prompt_ids) + index
        assert step.rows.shape == (layers, heads, T)
        torch.testing.assert_close(step.rows.sum(-1), torch.ones(layers, heads), rtol=0, atol=1e-5)
        assert (step.rows >= 0).all()
        assert step.context == context
        context.append(step.token.label)
    model, _ = _eager(tiny_model_folders[family], prompt_ids)
    tokens = len(real.tokenizer)
    expected = _eager_greedy(model, tokens, prompt_ids, n)
    assert [step.token.token_id for step in steps] == expected
    assert all(token_id < tokens for token_id in expected)
    # The last step's rows: the eager model's last query over everything read before it.
    with torch.no_grad():
        eager = model(input_ids=torch.tensor([prompt_ids + expected[:-1]]), output_attentions=True)
    for layer, attention in enumerate(eager.attentions):
        torch.testing.assert_close(steps[-1].rows[layer], attention[0, :, -1, :], rtol=0, atol=1e-5)


def test_hub_sampling_follows_its_seed(hub):
    source = hub("gpt2")
    first = [step.token.token_id for step in source.generate("the cat", 10, 2.0, seed=1)]
    again = [step.token.token_id for step in generate_with_attention(source, "the cat", 10, 2.0, seed=1)]
    other = [step.token.token_id for step in source.generate("the cat", 10, 2.0, seed=2)]
    assert first == again and first != other


def test_hub_decode_is_the_tokenizers(hub, tiny_models):
    tokenizer = tiny_models["gpt2"].tokenizer
    ids = tokenizer("the cat sat")["input_ids"]
    assert hub("gpt2").decode(ids) == "the cat sat"


# --- induction scores and layer metrics ------------------------------------------------------


def _induction_by_hand(weights: list[torch.Tensor], n: int, offset: int) -> torch.Tensor:
    """Mean over the second copy's queries (offset+n .. offset+2n-1) of the weight on the key
    after the query's earlier occurrence (query - n + 1), per layer and head."""
    layers, heads = len(weights), weights[0].shape[1]
    scores = torch.zeros(layers, heads)
    for layer in range(layers):
        for head in range(heads):
            total = 0.0
            for query in range(offset + n, offset + 2 * n):
                earlier = query - n
                total += float(weights[layer][0, head, query, earlier + 1])
            scores[layer, head] = total / n
    return scores


def test_tiny_gpt_induction_scores_follow_the_index_arithmetic():
    source = _tiny_gpt()
    weights, n, offset = source.induction_weights()
    assert n == min(INDUCTION_TOKENS, CONTEXT // 2) == 8 and offset == 0
    assert len(weights) == 2 and weights[0].shape == (1, 2, 2 * n, 2 * n)
    scores = source_induction_scores(source)
    assert scores.shape == (2, 2)
    torch.testing.assert_close(scores, _induction_by_hand(weights, n, offset), rtol=0, atol=1e-6)


def test_tiny_gpt_induction_test_repeats_its_sequence():
    """The weights are those of a sequence of n characters written twice (the model's own
    trace of it, read back through a traced forward here)."""
    source = _tiny_gpt()
    weights, n, _ = source.induction_weights()
    from gpt_core.explore import induction_text

    text = induction_text(source.vocabulary, n)
    assert len(text) == 2 * n and text[:n] == text[n:]
    trace = GPTTrace()
    with torch.no_grad():
        source.model(_ids(text), trace=trace)
    for mine, layer in zip(weights, trace.layers, strict=True):
        torch.testing.assert_close(mine, layer.weights, rtol=0, atol=0)


@pytest.mark.parametrize(("family", "offset"), [("gpt2", 0), ("llama", 1)])
def test_hub_induction_scores_follow_the_index_arithmetic(family, offset, hub, tiny_models):
    source = hub(family)
    weights, n, found = source.induction_weights()
    assert (n, found) == (INDUCTION_TOKENS, offset)
    assert weights[0].shape[-1] == offset + 2 * INDUCTION_TOKENS
    scores = source_induction_scores(source)
    config = tiny_models[family].model.config
    assert scores.shape == (config.num_hidden_layers, config.num_attention_heads)
    torch.testing.assert_close(scores, _induction_by_hand(weights, n, offset), rtol=0, atol=1e-6)


def _metrics_by_hand(weights: torch.Tensor) -> dict[str, torch.Tensor]:
    """(h, T, T) → per head: mean over queries 1..T-1 of the weight on the previous token, the
    first token and itself."""
    h, T = weights.shape[0], weights.shape[-1]
    previous, first, own = torch.zeros(h), torch.zeros(h), torch.zeros(h)
    for head in range(h):
        previous[head] = sum(float(weights[head, q, q - 1]) for q in range(1, T)) / (T - 1)
        first[head] = sum(float(weights[head, q, 0]) for q in range(1, T)) / (T - 1)
        own[head] = sum(float(weights[head, q, q]) for q in range(1, T)) / (T - 1)
    return {"previous": previous, "first": first, "self": own}


def test_layer_metrics_of_a_tiny_gpt_with_induction():
    source = _tiny_gpt()
    trace = source.trace("the cat sat on a mat")
    induction = source_induction_scores(source)
    metrics = layer_metrics(trace, induction)
    assert len(metrics) == 2
    for layer, values in enumerate(metrics):
        expected = _metrics_by_hand(trace.weights[layer][0])
        for name in ("previous", "first", "self"):
            torch.testing.assert_close(values[name], expected[name], rtol=0, atol=1e-6)
        assert torch.equal(values["induction"], induction[layer])
    assert all("induction" not in values for values in layer_metrics(trace))


def test_layer_metrics_of_random_weights():
    config = PlaygroundConfig(heads=3, head_dim=4, seed=2)
    trace = RandomWeights(config).trace("abcabcab")
    (values,) = layer_metrics(trace)
    expected = _metrics_by_hand(trace.weights[0][0])
    for name in ("previous", "first", "self"):
        torch.testing.assert_close(values[name], expected[name], rtol=0, atol=1e-6)
    assert values["entropy"].shape == (3,) and "induction" not in values


@pytest.mark.parametrize(("context", "reads"), [(2048, 512), (100, 100), (0, 512)])
def test_a_hub_model_reads_at_most_its_context_or_512_tokens(context, reads, tiny_models):
    """The app's limit (512) or the model's context, whichever is smaller; a model that does
    not say its context (0) is read up to the limit."""
    from dataclasses import replace

    real = tiny_models["gpt2"]
    stand_in = replace(real, description=replace(real.description, context=context))
    d = HubModel(stand_in, "gpt2", "the cat").description
    assert (d.context, d.reads) == (context, reads)


# --- found while testing the interface, and fixed ----------------------------------------------


def test_tiny_gpt_layer_sizes_of_a_head_wider_than_the_playgrounds():
    """A GPT's heads may be wider than random weights' limits (head_dim ≤ 64): its sizes are
    its own, not a PlaygroundConfig's."""
    config = GPTConfig(vocab_size=len(CHARS), context_length=8, embedding_dim=256, heads=2, blocks=1)
    source = TinyGPT(GPT(config, seed=0), CharVocabulary(CHARS), "wide", "the cat")
    d = source.description
    assert (d.heads, d.head_dim, d.hidden, d.output_dim) == (2, 128, 256, 256)


def test_hub_next_step_of_a_long_text_is_the_token_after_its_end(hub, tiny_models):
    """The odds after a text longer than the model reads are those after its end (its last
    tokens), as the tiny GPT's are and as the odds tab, which adds the drawn token to the end,
    needs."""
    real = tiny_models["gpt2"]
    text = "the cat sat on the mat. " * 12
    ids = real.tokenizer(text)["input_ids"]
    assert len(ids) > 64  # the tiny model's context
    step = hub("gpt2").next_step(text)
    last = hub("gpt2").token(ids[-1]).label
    assert step.context[-1] == last and len(step.context) == 64
    with torch.no_grad():
        expected = real.model(input_ids=torch.tensor([ids[-64:]])).logits[0, -1]
    torch.testing.assert_close(step.logits, expected, rtol=0, atol=1e-5)


def test_the_hooked_model_called_directly_gives_the_traced_logits(hub, tiny_models):
    """The test above computes its expected logits by calling the loaded model directly (outside
    a trace): that call gives the same logits as a traced read of a short text."""
    real = tiny_models["gpt2"]
    ids = real.tokenizer("the cat sat")["input_ids"]
    with torch.no_grad():
        direct = real.model(input_ids=torch.tensor([ids])).logits[0, -1]
    torch.testing.assert_close(hub("gpt2").next_step("the cat sat").logits, direct, rtol=0, atol=1e-5)


# --- what each part of a source says and keeps (each written here) -------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: s.decode([1]), "random weights have no vocabulary"),
        (lambda s: s.token(1), "random weights have no vocabulary"),
        (lambda s: s.next_step("a"), "random weights have no vocabulary to predict from"),
        (lambda s: s.generate("a", 2), "random weights have no vocabulary to generate from"),
        (lambda s: s.induction_weights(), "random weights read no token ids"),
    ],
)
def test_random_weights_say_why_they_cannot(call, message):
    with pytest.raises(NotImplementedError) as caught:
        call(RandomWeights(PlaygroundConfig()))
    assert str(caught.value) == message


def test_random_weights_are_named_random_and_label_their_tokens():
    source = RandomWeights(PlaygroundConfig())
    assert source.description.name == "random" and source.identity == ("random", PlaygroundConfig())
    assert source.trace("a b").labels == ["a", "␣", "b"]


def test_a_tiny_gpt_by_default_is_neither_shipped_nor_retrainable_and_keeps_its_prompt():
    config = GPTConfig(vocab_size=len(CHARS), context_length=CONTEXT, embedding_dim=16, heads=2, blocks=1)
    source = TinyGPT(GPT(config, seed=0), CharVocabulary(CHARS), "mine", "the cat")
    assert source.snapshot_steps() == ()
    assert source.default_prompt == "the cat" and source.identity == ("mine", 0)


def test_a_tiny_gpts_description_names_its_heads_and_its_bias():
    config = GPTConfig(vocab_size=len(CHARS), context_length=CONTEXT, embedding_dim=16, heads=2, blocks=2)
    model = GPT(config, seed=0)
    assert not TinyGPT(model, CharVocabulary(CHARS), "h2", "the cat").description.qkv_bias
    model.blocks[0].attention.query_layer = torch.nn.Linear(16, 16, bias=True)  # a checkpoint whose q has a bias
    d = TinyGPT(model, CharVocabulary(CHARS), "h2", "the cat").description
    assert (d.heads, d.head_dim, d.hidden, d.kv_heads, d.qkv_bias) == (2, 8, 16, 2, True)


def test_a_hub_models_description_names_it_and_its_padding_is_counted_in_rows(hub, tiny_models):
    config = tiny_models["llama"].model.config
    head_dim = config.hidden_size // config.num_attention_heads
    d = hub("llama").description
    assert (d.heads, d.head_dim, d.hidden, d.kv_heads) == (
        config.num_attention_heads,
        head_dim,
        config.hidden_size,
        config.num_key_value_heads,
    )
    assert hub("llama").identity == ("llama", 0) and HubModel(tiny_models["gpt2"], "g", "x").identity == ("g", 0)
    assert hub("qwen2-padded").description.padding == 337 - 300  # embedding rows minus tokens (tests/conftest.py)
    assert hub("gpt2").description.padding == 0


def test_a_hub_models_odds_of_no_text_are_refused(hub):
    with pytest.raises(InputError) as caught:
        hub("gpt2").next_step("  ")
    assert caught.value.code == "empty_text"


def test_a_hub_models_odds_of_a_short_text_label_its_byte_pieces_with_their_character(hub):
    step = hub("llama-sp").next_step("the 动")
    assert step.context[-3:] == ["‹e5›动", "‹8a›动", "‹a8›动"]  # 动 is E5 8A A8 in UTF-8


def test_a_hub_models_odds_at_its_reach_read_the_whole_text_and_one_more_token_its_end(hub, tiny_models):
    """At exactly as many tokens as it reads (BOS included) the text is read whole; one more
    and the window is its last ones (the BOS gone)."""
    real = tiny_models["llama"]
    reads = hub("llama").description.reads
    words = ["the", "cat", "sat", "on", "mat"]
    text = " ".join(words[i % 5] for i in range(200))
    ids = real.tokenizer(text)["input_ids"]  # with its BOS
    assert ids[0] in real.tokenizer.all_special_ids
    cut = text[: real.tokenizer(text, return_offsets_mapping=True)["offset_mapping"][reads - 1][1]]  # reads tokens
    longer = text[: real.tokenizer(text, return_offsets_mapping=True)["offset_mapping"][reads][1]]  # one more
    assert len(real.tokenizer(cut)["input_ids"]) == reads and len(real.tokenizer(longer)["input_ids"]) == reads + 1
    whole = hub("llama").next_step(cut)
    assert whole.context[0] == "<s>" and len(whole.context) == reads
    window = hub("llama").next_step(longer)
    assert window.context[0] != "<s>" and len(window.context) == reads
    with torch.no_grad():
        expected = real.model(input_ids=torch.tensor([real.tokenizer(longer)["input_ids"][-reads:]])).logits[0, -1]
    torch.testing.assert_close(window.logits, expected[: len(real.tokenizer)], rtol=0, atol=1e-5)


def test_generation_defaults_to_greedy_and_seed_zero(hub):
    source = _tiny_gpt()
    greedy = [step.token.token_id for step in source.generate("the ca", 5)]
    assert greedy == [step.token.token_id for step in source.generate("the ca", 5, 0.0, 0)]
    sampled = [step.token.token_id for step in generate_with_attention(source, "the ca", 8, 2.0)]
    assert sampled == [step.token.token_id for step in source.generate("the ca", 8, 2.0, 0)]
    real = hub("gpt2")
    assert [s.token.token_id for s in real.generate("the cat", 4)] == [
        s.token.token_id for s in real.generate("the cat", 4, 0.0, 0)
    ]
    hot = [s.token.token_id for s in real.generate("the cat", 6, 2.0, 0)]
    assert hot == [s.token.token_id for s in generate_with_attention(real, "the cat", 6, 2.0)]
    assert hot != [s.token.token_id for s in real.generate("the cat", 6)], "a temperature of 2 samples"


def test_a_folders_model_is_described_as_the_learners_own_and_a_hub_id_by_its_family(hub, tiny_models):
    """A model in a folder of gpt2's architecture is not GPT-2: its facts say it is a folder's,
    with the family as its architecture; the same weights named by a Hub id read as that model."""
    import dataclasses

    folder = hub("gpt2").facts()
    assert folder.key == "real.facts.folder" and folder.values["name"] == "gpt2"
    assert folder.values["family"] == "gpt2" and folder.level == "caption"
    real = tiny_models["gpt2"]
    named = dataclasses.replace(real, description=dataclasses.replace(real.description, name="openai-community/gpt2"))
    assert HubModel(named, "gpt2", "the cat").facts().key == "real.facts"


def test_what_costs_much_is_a_rule_on_sizes_not_on_the_kind_of_source():
    """The heavy lane: GPT-2 small's first trace of even 8 tokens (124 M weights × 8) is heavy,
    the book's layer of random weights (4 heads of 8) over its 128 tokens light, and so is a
    tiny model of a Hugging Face family; a grid of every head fits up to GRID_HEADS heads, so a
    tiny real model (2 × 4) gets the grid and GPT-2 small's 12 × 12 the map, whoever made it."""
    from gpt_core.source import GRID_HEADS, HEAVY_WORK, grid_fits, trace_work

    gpt2_small = Description("gpt2", "gpt2", 12, 12, 12, 64, 768, 1024, 124_439_808)
    assert trace_work(gpt2_small, 8) > HEAVY_WORK
    book = RandomWeights(PlaygroundConfig()).description
    assert trace_work(book, book.reads) < HEAVY_WORK
    # every weight once per token, and h × T × T × d twice (scores, weighted sum) per layer
    assert trace_work(book, 10) == book.parameters * 10 + 2 * 1 * 4 * 10 * 10 * 8
    tiny = Description("tiny", "qwen2", 2, 4, 2, 8, 32, 64, 30_000)
    assert trace_work(tiny, 64) < HEAVY_WORK and grid_fits(tiny)
    assert not grid_fits(gpt2_small) and 12 * 12 > GRID_HEADS
    large_shipped = Description("h16", "gpt", 8, 16, 16, 4, 64, 32, 500_000)
    assert not grid_fits(large_shipped), "a large book's GPT gets the map too"
