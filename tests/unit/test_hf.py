"""gpt_core.hf: real Hugging Face decoders traced through transformers' attention registry.
The models are tiny random GPT-2, Llama (4 query heads, 1 key/value head) and Qwen2 (4 and 2)
models built offline by tests/conftest.py; their numbers must be the eager implementation's.
Two more stand for real checkpoints' other cases: a Llama with a SentencePiece-style tokenizer
(▁ for a space, <0xE5> byte pieces) and a Qwen2 whose embedding has 37 rows its tokenizer has
no token for (harness/tiny_models.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from gpt_core import InputError, hf
from gpt_core.hf import generation, loading, reading, tracing
from gpt_core.hf.reading import _BYTE_DECODER, _byte_decoder, _token_bytes, _types
from gpt_core.hf.recording import RECORDER, Recorder, _blocked, hook_inputs_and_outputs, record_stages, traced_attention

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = ("gpt2", "llama", "qwen2", "llama-sp")
TEXT = "the cat sat on the mat 动手学大模型"


def _eager_model(folder: Path):
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(folder, attn_implementation="eager", dtype=torch.float32).eval()


def _eager(folder: Path, ids: list[int]):
    with torch.no_grad():
        return _eager_model(folder)(input_ids=torch.tensor([ids]), output_attentions=True)


@pytest.mark.parametrize("family", FAMILIES)
def test_trace_equals_the_eager_implementation(family, tiny_models, tiny_model_folders):
    traced = hf.trace(tiny_models[family], TEXT, logits=True)
    eager = _eager(tiny_model_folders[family], traced.token_ids)
    assert torch.equal(traced.logits, eager.logits)
    assert len(traced.weights) == len(eager.attentions) == 2
    for mine, theirs in zip(traced.weights, eager.attentions, strict=True):
        assert torch.equal(mine, theirs)


@pytest.mark.parametrize("family", FAMILIES)
def test_without_logits_the_base_model_gives_the_same_attention(family, tiny_models):
    full = hf.trace(tiny_models[family], TEXT, logits=True)
    base = hf.trace(tiny_models[family], TEXT)
    assert base.logits is None
    assert all(torch.equal(a, b) for a, b in zip(full.weights, base.weights, strict=True))


@pytest.mark.parametrize("family", FAMILIES)
def test_every_stage_of_a_layer_follows_from_q_and_k(family, tiny_models):
    traced = hf.trace(tiny_models[family], TEXT)
    layer = traced.layers[1]
    T = len(traced.pieces)
    d = traced.description.head_dim
    assert torch.allclose(layer.scores, layer.queries_heads @ layer.keys_heads.transpose(-2, -1), atol=1e-6)
    assert torch.equal(layer.scaled_scores, layer.scores * d**-0.5)
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    assert torch.isneginf(layer.masked_scores[..., future]).all()
    assert torch.isfinite(layer.masked_scores[..., ~future]).all()
    assert torch.equal(torch.softmax(layer.masked_scores, dim=-1), layer.weights)
    assert (layer.weights[..., future] == 0).all()
    assert torch.allclose(layer.weights.sum(-1), torch.ones(1, traced.description.heads, T), atol=1e-6)
    assert torch.allclose(layer.context_heads, layer.weights @ layer.values_heads, atol=1e-6)
    assert layer.x.shape == (1, T, traced.description.hidden)
    assert layer.output.shape == (1, T, traced.description.hidden)


def test_a_layer_is_rebuilt_with_the_same_numbers_each_time(tiny_models):
    traced = hf.trace(tiny_models["qwen2"], TEXT)
    first, again = traced.layers[0], traced.layers[0]
    assert first is not again
    for name, tensor in first.tensors().items():
        assert torch.equal(tensor, getattr(again, name)), name
    assert len(traced.layers) == 2 and len(list(traced.layers)) == 2 and len(traced.layers[0:2]) == 2


@pytest.mark.parametrize(("family", "kv_heads"), [("gpt2", 4), ("llama", 1), ("qwen2", 2)])
def test_grouped_query_attention_is_recorded(family, kv_heads, tiny_models):
    traced = hf.trace(tiny_models[family], TEXT)
    assert traced.h_kv == traced.description.kv_heads == kv_heads
    layer = traced.layers[0]
    groups = 4 // kv_heads
    assert layer.keys.shape[-1] == kv_heads * 8  # keys before the repeat: h_kv × d channels
    assert layer.keys_heads.shape[1] == 4
    for head in range(4):  # every query head of a group reads its group's one key head
        assert traced.shared_kv_head(head) == head // groups
        assert torch.equal(layer.keys_heads[0, head], layer.keys_heads[0, (head // groups) * groups])
    names = [step.name for step in layer.shape_steps]
    assert ("repeat" in names) == (kv_heads != 4)
    if kv_heads != 4:
        repeat = layer.shape_steps[names.index("repeat")]
        T = len(traced.pieces)
        assert repeat.before == (1, kv_heads, T, 8) and repeat.after == (1, 4, T, 8)
    assert layer.shape_steps[-1].after == tuple(layer.output.shape)
    assert layer.shape_steps[names.index("softmax")].after == tuple(layer.weights.shape)


def test_description_names_the_model_in_the_book_letters(tiny_models):
    description = tiny_models["qwen2"].description
    assert (description.family, description.layers, description.heads, description.kv_heads) == ("qwen2", 2, 4, 2)
    assert (description.head_dim, description.hidden, description.context, description.groups) == (8, 32, 64, 2)
    model = tiny_models["qwen2"].model
    assert description.parameters == sum(p.numel() for p in model.parameters())
    assert description.bytes == description.parameters * 4
    assert description.download_bytes > description.bytes  # the safetensors file and the tokenizer


def test_tokens_are_shown_as_the_model_reads_them(tiny_models):
    traced = hf.trace(tiny_models["gpt2"], "the cat 动")
    assert "␣cat" in traced.labels  # a leading space, visible
    pieces = [piece for piece in traced.pieces if piece.kind == "bytes"]
    assert pieces, traced.labels  # 动 is not in the tiny vocabulary: byte pieces
    assert all(piece.source.strip() == "动" and piece.label.endswith("动") for piece in pieces)
    assert b"".join(bytes.fromhex(piece.text) for piece in pieces).decode().strip() == "动"
    assert all(piece.kind != "special" for piece in traced.pieces)  # GPT-2 adds no BOS


def test_a_bos_token_is_shown_when_the_tokenizer_adds_one(tiny_models):
    traced = hf.trace(tiny_models["llama"], "the cat")
    assert traced.pieces[0].kind == "special" and traced.labels[0] == "<s>"
    assert traced.text_used == "the cat"


def test_sentencepiece_pieces_are_labelled_as_their_characters(tiny_models):
    """▁ is a space; 动 is not in the tiny vocabulary: three <0x..> byte pieces, each labelled
    with its hex and the character it is part of, as byte-level pieces are."""
    pieces = hf.read(tiny_models["llama-sp"], "the cat 动")[0]
    assert [piece.label for piece in pieces] == ["<s>", "␣the", "␣cat", "␣", "‹e5›动", "‹8a›动", "‹a8›动"]
    assert [piece.text for piece in pieces] == ["<s>", " the", " cat", " ", "e5", "8a", "a8"]
    assert [piece.kind for piece in pieces] == ["special", "text", "text", "text", "bytes", "bytes", "bytes"]
    assert [piece.source for piece in pieces] == ["", "the", " cat", " ", "动", "动", "动"]


def test_a_sentencepiece_token_of_latin_letters_is_its_characters_not_bytes(tiny_models):
    """é (U+00E9) is a character of GPT-2's byte alphabet too, where it stands for the byte
    0xE9; a SentencePiece token "é" is the character é."""
    loaded = tiny_models["llama-sp"]
    assert [piece.label for piece in hf.read(loaded, "café")[0]] == ["<s>", "␣c", "a", "f", "é"]
    assert [piece.label for piece in hf.read(loaded, "é")[0]] == ["<s>", "␣", "é"]
    alone = hf.piece(loaded, loaded.tokenizer.convert_tokens_to_ids("é"))
    assert (alone.kind, alone.text, alone.label) == ("text", "é", "é")
    ascii_byte = hf.piece(loaded, loaded.tokenizer.convert_tokens_to_ids("<0x76>"))  # "v": not in its alphabet
    assert (ascii_byte.kind, ascii_byte.text, ascii_byte.label) == ("text", "v", "v")


def test_byte_level_tokens_are_read_through_gpt2s_byte_alphabet(tiny_models):
    """The same spelling means bytes in a byte-level vocabulary: "Ġ" is the byte 0x20 (a space),
    "å" the byte 0xE5 (the first of 动's three)."""
    loaded = tiny_models["gpt2"]
    space = hf.piece(loaded, loaded.tokenizer.convert_tokens_to_ids("Ġ"))
    assert (space.kind, space.text, space.label) == ("text", " ", "␣")
    first = hf.piece(loaded, loaded.tokenizer.convert_tokens_to_ids("å"), "动")
    assert (first.kind, first.text, first.label) == ("bytes", "e5", "‹e5›动")


@pytest.mark.parametrize(
    ("family", "byte_level"),
    [("gpt2", True), ("llama", True), ("qwen2", True), ("qwen2-padded", True), ("llama-sp", False)],
)
def test_whether_a_tokenizer_is_byte_level_is_read_once_when_it_loads(family, byte_level, tiny_models, monkeypatch):
    loaded = tiny_models[family]
    assert loaded.spelling.byte_level is byte_level
    assert loaded.spelling.size == len(loaded.tokenizer)
    assert loaded.spelling.special == frozenset(loaded.tokenizer.all_special_ids)

    def again(tokenizer):
        raise AssertionError("the spelling is read at load, not per token")

    for module in (hf, loading, reading, tracing, generation):  # wherever a per-token call could find it
        monkeypatch.setattr(module, "spelling", again, raising=False)
    assert hf.trace(loaded, "the cat 动").labels
    assert hf.generate_tokens(loaded, "the cat", 2)


def test_a_word_learned_whole_is_one_token(tiny_models):
    traced = hf.trace(tiny_models["qwen2"], "模型")
    assert traced.labels == ["模型"]


def test_text_longer_than_the_context_is_cut(tiny_models):
    loaded = tiny_models["gpt2"]
    text = "the cat sat on the mat. " * 40
    traced = hf.trace(loaded, text)
    assert len(traced.pieces) == loaded.description.context == 64
    assert traced.cut > 0 and len(traced.pieces) + traced.cut == len(loaded.tokenizer(text)["input_ids"])
    assert text.startswith(traced.text_used) and len(traced.text_used) < len(text)
    assert hf.trace(loaded, traced.text_used).token_ids == traced.token_ids  # a link to the cut text reproduces it
    short = hf.trace(loaded, text, max_tokens=10)
    assert len(short.pieces) == 10


@pytest.mark.parametrize("text", ["", "   \n"])
def test_empty_text_is_refused_in_words(text, tiny_models):
    with pytest.raises(InputError) as caught:
        hf.trace(tiny_models["gpt2"], text)
    assert caught.value.code == "empty_text"


def test_traces_in_threads_do_not_mix(tiny_models):
    import threading

    loaded = tiny_models["qwen2"]
    texts = ["the cat sat", "to be or not to be, that is the question"]
    alone = {text: hf.trace(loaded, text).weights for text in texts}
    results: dict[str, list] = {}

    def run(text: str) -> None:
        for _ in range(5):
            results.setdefault(text, []).append(hf.trace(loaded, text).weights)

    threads = [threading.Thread(target=run, args=(text,)) for text in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for text in texts:
        assert all(all(torch.equal(a, b) for a, b in zip(w, alone[text], strict=True)) for w in results[text])


def test_offered_models_come_from_the_setting(monkeypatch):
    assert hf.offered_models(" gpt2 , ,/models/tiny,gpt2") == ("gpt2", "/models/tiny")
    assert hf.offered_models("") == ()
    monkeypatch.delenv("ATTENTION_MODELS", raising=False)
    assert hf.offered_models() == hf.DEFAULT_MODELS
    monkeypatch.setenv("ATTENTION_MODELS", "distilgpt2")
    assert hf.offered_models() == ("distilgpt2",)


def test_a_model_that_needs_its_own_code_is_refused(tmp_path):
    (tmp_path / "config.json").write_text(
        json.dumps({"model_type": "made_up", "auto_map": {"AutoModelForCausalLM": "x.Y"}})
    )
    with pytest.raises(InputError) as caught:
        hf.load(str(tmp_path))
    assert caught.value.code == "model_unsupported" and str(tmp_path) in str(caught.value)


def test_importing_gpt_core_and_the_pages_loads_no_transformers():
    """A server whose students never choose a real model never loads transformers."""
    code = (
        "import sys, gpt_core, gpt_core.hf, ui.shared.real_models, ui.playground.page, ui.explorer.page; "
        "print('transformers' in sys.modules, 'huggingface_hub' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.split() == ["False", "False"]


def _description(heads: int, kv_heads: int) -> hf.Description:
    return hf.Description(
        name="tiny",
        family="qwen2",
        layers=2,
        heads=heads,
        kv_heads=kv_heads,
        head_dim=8,
        hidden=48,
        context=64,
        parameters=1000,
        bytes=4000,
        download_bytes=5000,
    )


def test_a_real_models_shapes_are_the_chapters_split_and_merge():
    """Written out by hand for B = 1, T = 5, h = 4 query heads of d = 8 on a stream of 48."""
    steps = [(s.name, s.code, s.before, s.after, s.letters) for s in hf.shape_steps(1, 5, _description(4, 4))]
    assert steps == [
        ("project Q, K, V", "q_proj(x), k_proj(x), v_proj(x)", (1, 5, 48), (1, 5, 32), "B T C"),
        ("split heads", ".view(B, T, h, d)", (1, 5, 32), (1, 5, 4, 8), "B T h d"),
        ("heads first", ".transpose(1, 2)", (1, 5, 4, 8), (1, 4, 5, 8), "B h T d"),
        ("scores", "queries @ keys.transpose(-2, -1)", (1, 4, 5, 8), (1, 4, 5, 5), "B h T T"),
        ("scale", "* scaling  (1/√8)", (1, 4, 5, 5), (1, 4, 5, 5), "B h T T"),
        ("causal mask", "+ mask  (shown as -inf)", (1, 4, 5, 5), (1, 4, 5, 5), "B h T T"),
        ("softmax", "torch.softmax(dim=-1)", (1, 4, 5, 5), (1, 4, 5, 5), "B h T T"),
        ("context", "weights @ values", (1, 4, 5, 5), (1, 4, 5, 8), "B h T d"),
        ("tokens first", ".transpose(1, 2)", (1, 4, 5, 8), (1, 5, 4, 8), "B T h d"),
        ("merge heads", ".reshape(B, T, C)", (1, 5, 4, 8), (1, 5, 32), "B T C"),
        ("output projection", "o_proj(context)", (1, 5, 32), (1, 5, 48), "B T C_out"),
    ]


def test_grouped_query_attention_adds_the_key_value_heads_and_their_repeat():
    steps = [(s.name, s.code, s.before, s.after, s.letters) for s in hf.shape_steps(1, 5, _description(4, 2))]
    assert steps[3:5] == [
        ("key/value heads", "k_proj(x).view(B, T, h_kv, d).transpose(1, 2)", (1, 5, 48), (1, 2, 5, 8), "B h_kv T d"),
        ("repeat", "repeat_kv(keys, 2)", (1, 2, 5, 8), (1, 4, 5, 8), "B h T d"),
    ]
    assert [s[0] for s in steps[5:]] == [
        "scores",
        "scale",
        "causal mask",
        "softmax",
        "context",
        "tokens first",
        "merge heads",
        "output projection",
    ]


def test_a_description_names_its_layers_sizes_as_the_playground_does():
    description = _description(4, 2)
    d = description
    assert (d.heads, d.head_dim, d.hidden, d.kv_heads) == (4, 8, 48, 2)
    assert (d.output_dim, d.groups, d.width) == (32, 2, 32)
    assert (d.dropout, d.training, d.qkv_bias, d.scale) == (0.0, False, False, True)


def test_a_folder_is_named_by_its_last_part_and_found_where_it_is(tmp_path):
    folder = tmp_path / "models" / "tiny-gpt2"
    folder.mkdir(parents=True)
    assert hf.short_name(str(folder)) == "tiny-gpt2"
    assert hf.local_folder(str(folder)) == folder
    assert hf.short_name("org/not-a-folder") == "org/not-a-folder", "a Hub id is its own name"


@pytest.mark.parametrize("family", FAMILIES)
def test_generation_rows_are_the_attention_that_chose_each_token(family, tiny_models):
    """With the key/value cache each step computes one query; its row must be the last row of
    a full pass over the same tokens, and the token the full pass's argmax."""
    loaded = tiny_models[family]
    steps = hf.generate_tokens(loaded, "the cat", 4)
    assert len(steps) == 4
    prompt = [piece.token_id for piece in hf.read(loaded, "the cat")[0]]
    for k, step in enumerate(steps):
        ids = prompt + [s.piece.token_id for s in steps[:k]]
        full = hf.trace_ids(loaded, ids, logits=True)
        assert full.token_ids == ids
        assert int(full.logits[0, -1].argmax()) == step.piece.token_id
        rows = torch.stack([w[0, :, -1, :] for w in full.weights])
        assert torch.allclose(rows, step.rows, atol=1e-6)
        assert len(step.context) == len(ids) and step.rows.shape == (2, 4, len(ids))
        assert step.context[len(prompt) :] == [s.piece.label for s in steps[:k]]


def test_sampled_generation_follows_its_seed(tiny_models, tiny_model_folders):
    """The same seed, the same draw; another seed, another; greedy is the argmax of the
    model's own logits (transformers' forward, no cache) and differs from a hot draw."""
    loaded = tiny_models["qwen2"]

    def generated(**kwargs) -> list[int]:
        return [s.piece.token_id for s in hf.generate_tokens(loaded, "the cat", 6, **kwargs)]

    first = generated(temperature=1.5, seed=3)
    assert first == generated(temperature=1.5, seed=3)
    assert first != generated(temperature=1.5, seed=4)
    greedy = generated()
    assert greedy == generated(temperature=0.0, seed=4), "greedy draws nothing: the seed is not used"
    assert greedy != first
    model = _eager_model(tiny_model_folders["qwen2"])
    ids = [piece.token_id for piece in hf.read(loaded, "the cat")[0]]
    with torch.no_grad():
        logits = model(input_ids=torch.tensor([ids])).logits[0, -1]
        draw = torch.multinomial(torch.softmax(logits / 1.5, -1), 1, generator=torch.Generator().manual_seed(3))
        assert int(draw) == first[0], "the first draw: softmax(logits / T) with a generator seeded 3"
        for seed in range(5):  # a cold temperature, where softmax(logits) would draw other tokens
            cold = torch.softmax(logits / 0.2, -1)
            draw = torch.multinomial(cold, 1, generator=torch.Generator().manual_seed(seed))
            assert [int(draw)] == generated(temperature=0.2, seed=seed)[:1], seed
        for _ in range(6):
            ids.append(int(model(input_ids=torch.tensor([ids])).logits[0, -1].argmax()))
    assert greedy == ids[-6:]


PADDED_TOKENS, PADDED_ROWS = 300, 337  # the tokenizer's tokens, the embedding's rows (harness.tiny_models.PADDING)


def test_an_id_beyond_the_tokenizer_is_labelled_by_its_number(tiny_models):
    loaded = tiny_models["qwen2-padded"]
    assert len(loaded.tokenizer) == PADDED_TOKENS and loaded.model.config.vocab_size == PADDED_ROWS
    assert loaded.tokenizer.convert_ids_to_tokens(PADDED_TOKENS) is None
    for token_id, label in [(300, "<id 300>"), (317, "<id 317>"), (336, "<id 336>")]:
        piece = hf.piece(loaded, token_id)
        assert (piece.kind, piece.text, piece.label, piece.source) == ("none", label, label, "")
    assert hf.piece(loaded, 299).kind == "text"  # the tokenizer's last token is one
    traced = hf.trace_ids(loaded, [5, 317, 6], logits=True)
    assert traced.labels[1] == "<id 317>" and traced.logits.shape[-1] == PADDED_ROWS


def test_generation_never_chooses_an_id_beyond_the_tokenizer(tiny_models):
    loaded = tiny_models["qwen2-padded"]
    prompt = [piece.token_id for piece in hf.read(loaded, "the cat")[0]]
    logits = hf.trace_ids(loaded, prompt, logits=True).logits[0, -1]
    assert logits.shape == (PADDED_ROWS,) and int(logits.argmax()) >= PADDED_TOKENS, "the cut matters here"
    greedy = hf.generate_tokens(loaded, "the cat", 8)
    assert greedy[0].piece.token_id == int(logits[:PADDED_TOKENS].argmax())
    for step in greedy:
        assert step.piece.token_id < PADDED_TOKENS and not step.piece.label.startswith("<id ")
    for seed in range(6):
        drawn = hf.generate_tokens(loaded, "the cat", 8, temperature=2.0, seed=seed)
        assert all(step.piece.token_id < PADDED_TOKENS for step in drawn), seed


def test_odds_give_ids_beyond_the_tokenizer_no_probability(tiny_models):
    from gpt_core import next_token_odds, sample

    loaded = tiny_models["qwen2-padded"]
    logits = hf.trace(loaded, "the cat", logits=True).logits[0, -1]
    kept = hf.token_logits(loaded, logits)
    assert kept.shape == (PADDED_TOKENS,) and torch.equal(kept, logits[:PADDED_TOKENS])
    odds = next_token_odds(kept, 1.0)
    assert odds.ids.numel() == PADDED_TOKENS and int(odds.ids.max()) < PADDED_TOKENS
    by_id = torch.zeros(PADDED_ROWS)
    by_id[odds.ids] = odds.before
    assert torch.all(by_id[PADDED_TOKENS:] == 0)
    expected = torch.softmax(logits[:PADDED_TOKENS], -1)  # the tokenizer's ids share all the mass
    torch.testing.assert_close(by_id[:PADDED_TOKENS], expected, rtol=0, atol=1e-7)
    assert all(sample(next_token_odds(kept, 2.0), seed) < PADDED_TOKENS for seed in range(20))
    unpadded = tiny_models["qwen2"]
    full = hf.trace(unpadded, "the cat", logits=True).logits[0, -1]
    assert torch.equal(hf.token_logits(unpadded, full), full), "a model without padding keeps every id"


def test_generation_stops_at_the_context(tiny_models):
    loaded = tiny_models["gpt2"]
    text = "the cat sat on the mat. " * 12
    read = len(hf.read(loaded, text)[0])
    steps = hf.generate_tokens(loaded, text, 40)
    assert len(steps) == loaded.description.context - read


def test_induction_weights_repeat_a_seeded_random_sequence(tiny_models):
    from gpt_core.explore import induction_scores

    weights, offset = hf.induction_weights(tiny_models["llama"])
    assert offset == 1  # after the BOS token
    assert weights[0].shape[-1] == 1 + 2 * hf.INDUCTION_TOKENS
    again, _ = hf.induction_weights(tiny_models["llama"])
    assert all(torch.equal(a, b) for a, b in zip(weights, again, strict=True))
    scores = induction_scores(weights[0][0], hf.INDUCTION_TOKENS, offset)
    assert scores.shape == (4,) and ((scores >= 0) & (scores <= 1)).all()


@pytest.mark.parametrize(("family", "bos"), [("gpt2", False), ("llama", True), ("llama-sp", True)])
def test_the_induction_sequence_is_seed_0s_ordinary_tokens_twice(family, bos, tiny_models):
    """The sequence written out in the test: ``n`` ids drawn with seed 0 from the tokens that
    are not special, twice, after the BOS token only where the tokenizer adds one."""
    loaded = tiny_models[family]
    tokenizer = loaded.tokenizer
    ordinary = [i for i in range(len(tokenizer)) if i not in set(tokenizer.all_special_ids)]
    n = 6
    drawn = [ordinary[i] for i in torch.randint(len(ordinary), (n,), generator=torch.Generator().manual_seed(0))]
    ids = ([tokenizer.bos_token_id] if bos else []) + drawn + drawn
    weights, offset = hf.induction_weights(loaded, n)
    assert offset == int(bos)
    expected = hf.trace_ids(loaded, ids).weights
    assert all(torch.equal(a, b) for a, b in zip(weights, expected, strict=True))
    other, _ = hf.induction_weights(loaded, n, seed=1)
    assert not torch.equal(other[0], weights[0]), "another seed, another sequence"


def test_the_byte_alphabet_is_gpt2s():
    """Every one of the 256 bytes has GPT-2's character, as transformers' own table spells it
    (a different implementation: its byte-to-unicode map, inverted)."""
    from transformers.convert_slow_tokenizer import bytes_to_unicode

    expected = {char: byte for byte, char in bytes_to_unicode().items()}
    assert len(expected) == 256
    assert _BYTE_DECODER == expected
    assert _byte_decoder() == expected, "the table as its function builds it (it runs once, at import)"
    assert _BYTE_DECODER["Ġ"] == 0x20 and _BYTE_DECODER["!"] == 0x21 and _BYTE_DECODER["Ā"] == 0x00


# ---------------------------------------------------------------- found by mutation testing
# A session fixture loads each model once, in whichever test comes first: what ``load`` does is
# checked below on models each test loads itself.


def _copy_model(folder: Path, destination: Path, **config_changes) -> Path:
    """A copy of a tiny model's folder with its config.json changed."""
    import shutil

    shutil.copytree(folder, destination)
    config = json.loads((destination / "config.json").read_text())
    (destination / "config.json").write_text(json.dumps({**config, **config_changes}))
    return destination


@pytest.mark.parametrize(
    ("family", "kv_heads", "byte_level"),
    [("gpt2", 4, True), ("llama", 1, True), ("qwen2", 2, True), ("llama-sp", 1, False)],
)
def test_a_loaded_model_is_described_from_its_config_and_read_only(family, kv_heads, byte_level, tiny_model_folders):
    folder = tiny_model_folders[family]
    loaded = hf.load(str(folder))
    model, description = loaded.model, loaded.description
    assert description.name == str(folder) and loaded.folder == folder
    assert description.family == json.loads((folder / "config.json").read_text())["model_type"]
    assert (description.layers, description.heads, description.kv_heads) == (2, 4, kv_heads)
    assert (description.head_dim, description.hidden, description.context) == (8, 32, 64)
    assert all(type(n) is int for n in (description.kv_heads, description.head_dim, description.context))
    parameters = sum(tensor.numel() for tensor in {id(p): p for p in model.parameters()}.values())
    assert description.parameters == parameters
    assert description.bytes == 4 * parameters  # float32
    assert description.download_bytes == sum(path.stat().st_size for path in folder.iterdir() if path.is_file())
    assert not model.training and all(not p.requires_grad for p in model.parameters())
    assert all(p.dtype == torch.float32 for p in model.parameters())
    assert loaded.spelling.byte_level is byte_level
    assert loaded.spelling.size == len(loaded.tokenizer)
    assert loaded.spelling.special == frozenset(loaded.tokenizer.all_special_ids)


@pytest.mark.parametrize("family", FAMILIES)
def test_each_layers_input_and_output_are_its_attentions(family, tiny_model_folders):
    """The recorded x and output are what each attention module received and returned (hooks
    of the test's own on a model it loaded itself)."""
    loaded = hf.load(str(tiny_model_folders[family]))
    modules = [m for name, m in loaded.model.named_modules() if name.endswith((".attn", ".self_attn"))]
    assert len(modules) == 2
    seen: dict[int, dict[str, torch.Tensor]] = {}
    for index, module in enumerate(modules):

        def before(module, args, kwargs, index=index):
            seen.setdefault(index, {})["x"] = (args[0] if args else kwargs["hidden_states"]).clone()

        def after(module, args, kwargs, output, index=index):
            seen.setdefault(index, {})["output"] = output[0].clone()

        module.register_forward_pre_hook(before, with_kwargs=True)
        module.register_forward_hook(after, with_kwargs=True)
    traced = hf.trace(loaded, TEXT)
    for index, layer in enumerate(traced.layers):
        assert torch.equal(layer.x, seen[index]["x"])
        assert torch.equal(layer.output, seen[index]["output"])
        assert layer.output.shape == layer.x.shape == (1, len(traced.pieces), 32)
    with torch.no_grad():  # outside a trace nothing is kept, and nothing fails
        loaded.model(input_ids=torch.tensor([traced.token_ids]))


class _FakeAttention(torch.nn.Module):
    """An attention module that is called with keywords and returns a tensor, not a tuple."""

    def __init__(self, layer_idx: int) -> None:
        super().__init__()
        self.layer_idx = layer_idx

    def forward(self, hidden_states):
        return hidden_states * 2


class _Block(torch.nn.Module):
    def __init__(self, layer_idx: int) -> None:
        super().__init__()
        self.layer_idx = layer_idx  # a layer index, but no attention
        self.attn = _FakeAttention(layer_idx)

    def forward(self, hidden_states):
        return self.attn(hidden_states=hidden_states) + 1


def test_only_the_given_modules_are_hooked_and_a_tensor_output_is_kept_whole():
    model = torch.nn.Sequential(_Block(0), _Block(1))
    hook_inputs_and_outputs([model[0].attn, model[1].attn])
    x = torch.arange(6.0).reshape(1, 3, 2)
    recorder = Recorder()
    token = RECORDER.set(recorder)
    try:
        model(x)
    finally:
        RECORDER.reset(token)
    assert torch.equal(recorder.layers[0].x, x) and torch.equal(recorder.layers[0].output, 2 * x)
    assert torch.equal(recorder.layers[1].x, 2 * x + 1) and torch.equal(recorder.layers[1].output, 4 * x + 2)


def _llama_attention_named(monkeypatch, name: str, forward=None) -> type:
    """transformers' Llama built with a subclass of its attention class named ``name`` (a name
    that does not end in "Attention"), its forward replaced by ``forward`` where given."""
    from transformers.models.llama import modeling_llama

    renamed = type(name, (modeling_llama.LlamaAttention,), {} if forward is None else {"forward": forward})
    monkeypatch.setattr(modeling_llama, "LlamaAttention", renamed)
    return renamed


def test_the_attention_modules_are_the_ones_the_registry_is_given_whatever_their_name(tiny_model_folders, monkeypatch):
    """A Llama whose attention class is named otherwise is traced with the eager
    implementation's numbers (transformers' own Llama, output_attentions=True), and each layer
    keeps what its attention module received and returned (hooks of the test's own)."""
    folder = tiny_model_folders["llama"]
    renamed = _llama_attention_named(monkeypatch, "SelfMixing")
    loaded = hf.load(str(folder))
    monkeypatch.undo()  # the eager model below is transformers' own
    modules = [m for m in loaded.model.modules() if type(m) is renamed]
    assert len(modules) == 2 and not any(type(m).__name__.endswith("Attention") for m in loaded.model.modules())
    seen: dict[int, dict[str, torch.Tensor]] = {}
    for index, module in enumerate(modules):

        def before(module, args, kwargs, index=index):
            seen.setdefault(index, {})["x"] = (args[0] if args else kwargs["hidden_states"]).clone()

        def after(module, args, kwargs, output, index=index):
            seen.setdefault(index, {})["output"] = output[0].clone()

        module.register_forward_pre_hook(before, with_kwargs=True)
        module.register_forward_hook(after, with_kwargs=True)
    traced = hf.trace(loaded, TEXT, logits=True)
    eager = _eager(folder, traced.token_ids)
    assert torch.equal(traced.logits, eager.logits)
    assert len(traced.weights) == len(eager.attentions) == 2
    for mine, theirs in zip(traced.weights, eager.attentions, strict=True):
        assert torch.equal(mine, theirs)
    for index, layer in enumerate(traced.layers):
        assert torch.equal(layer.x, seen[index]["x"]) and torch.equal(layer.output, seen[index]["output"])


@pytest.mark.parametrize(
    ("failure", "reason"),
    [
        (None, "attention not traced"),
        ("cannot read one token\nsecond line", "cannot read one token"),
        ("", "RuntimeError"),  # no message: the error's type names it
        ("x" * 150 + "y" * 100, "x" * 150 + "y" * 50),  # a first line of 250 characters: its first 200
    ],
)
def test_an_attention_that_skips_the_registry_is_refused_in_words(failure, reason, tiny_model_folders, monkeypatch):
    """Layer 1's attention module computes a change of its own (none) and never calls the
    registered function: one module found for two layers, so the model is refused when it is
    loaded, never half-drawn. A model that fails on one token is refused with its error's
    first line."""
    from transformers.models.llama import modeling_llama

    original = modeling_llama.LlamaAttention.forward

    def forward(self, hidden_states, *args, **kwargs):
        if self.layer_idx != 1:
            return original(self, hidden_states, *args, **kwargs)
        if failure is not None:
            raise RuntimeError(failure)
        return torch.zeros_like(hidden_states), None

    _llama_attention_named(monkeypatch, "OwnMixing", forward)
    folder = str(tiny_model_folders["llama"])
    with pytest.raises(InputError) as raised:
        hf.load(folder)
    assert raised.value.code == "model_unsupported"
    assert raised.value.params == {"name": folder, "reason": reason}


def _eager_attention(module, query, key, value, mask, scaling, dropout=0.0):
    from transformers.models.llama.modeling_llama import eager_attention_forward

    return eager_attention_forward(module, query, key, value, mask, scaling=scaling, dropout=dropout)


def _attention_inputs(dtype=torch.float32, B=1, h=4, h_kv=2, T=5, d=6):
    generator = torch.Generator().manual_seed(0)
    query = torch.randn(B, h, T, d, generator=generator).to(dtype)
    key = torch.randn(B, h_kv, T, d, generator=generator).to(dtype)
    value = torch.randn(B, h_kv, T, d, generator=generator).to(dtype)
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    mask = torch.zeros(1, 1, T, T, dtype=dtype).masked_fill(future, torch.finfo(dtype).min)
    module = torch.nn.Module()
    module.num_key_value_groups, module.layer_idx = h // h_kv, 0
    return module, query, key, value, mask


@pytest.mark.parametrize("training", [False, True])
def test_the_attention_is_transformers_eager_attention(training):
    """The registered function against transformers' own eager attention: with the scaling it
    is given, with 1/√d when none is (d = 6 differs from h = 4 and T = 5), and dropout only in
    training and only as given (none by default)."""
    module, query, key, value, mask = _attention_inputs()
    module.train(training)
    for scaling in (0.3, None):
        expected = _eager_attention(module, query, key, value, mask, 6**-0.5 if scaling is None else scaling)
        output, weights = traced_attention(module, query, key, value, mask, scaling=scaling)
        assert torch.equal(weights, expected[1]) and torch.equal(output, expected[0])
        assert output.shape == (1, 5, 4, 6)
    module.eval()
    output, weights = traced_attention(module, query, key, value, mask, scaling=0.3, dropout=0.5)
    expected = _eager_attention(module, query, key, value, mask, 0.3, dropout=0.5)
    assert torch.equal(weights, expected[1]) and torch.equal(output, expected[0]), "no dropout in eval mode"


def test_the_softmax_is_taken_in_float32_and_given_back_in_the_querys_precision():
    module, query, key, value, mask = _attention_inputs(torch.bfloat16, T=24, d=16)
    scores, scaled, weights = record_stages(query, key[:, [0, 0, 1, 1]], 0.25, mask)
    assert weights.dtype == torch.bfloat16
    expected = torch.softmax((scaled + mask).float(), dim=-1).to(torch.bfloat16)
    assert torch.equal(weights, expected)
    assert torch.equal(weights, _eager_attention(module, query, key, value, mask, 0.25)[1])


def test_the_blocked_cells_are_those_the_mask_pushes_below_half_the_dtypes_minimum():
    blocked = _blocked(None, torch.float32, 3)
    assert blocked.dtype == torch.bool and blocked.shape == (1, 1, 3, 3) and not blocked.any()
    low = torch.finfo(torch.float32).min
    mask = torch.tensor([[[[0.0, low / 2, low * 0.4, low, -1e30]]]])
    assert _blocked(mask, torch.float32, 5).tolist() == [[[[False, True, False, True, False]]]]


def test_the_attention_is_registered_once(monkeypatch):
    from transformers import AttentionInterface
    from transformers.masking_utils import AttentionMaskInterface

    calls: list[str] = []
    monkeypatch.setattr(AttentionInterface, "register", lambda key, value: calls.append(("attention", key)))
    monkeypatch.setattr(AttentionMaskInterface, "register", lambda key, value: calls.append(("mask", key)))
    monkeypatch.setattr(loading, "_REGISTERED", False)
    loading._register()
    loading._register()
    assert calls == [("attention", hf.IMPLEMENTATION), ("mask", hf.IMPLEMENTATION)]


@pytest.mark.parametrize("family", ["gpt2", "qwen2"])
def test_every_field_of_a_layer_trace_is_its_heads_side_by_side(family, tiny_models):
    traced = hf.trace(tiny_models[family], TEXT)
    T, h, h_kv = len(traced.pieces), traced.description.heads, traced.description.kv_heads

    def side_by_side(heads):  # (1, n, T, d) -> (1, T, n·d): head 0's channels first
        return torch.cat([heads[:, i] for i in range(heads.shape[1])], dim=-1)

    for layer in traced.layers:
        assert layer.queries.shape == (1, T, h * 8) and torch.equal(layer.queries, side_by_side(layer.queries_heads))
        kv_heads = layer.keys_heads[:, :: h // h_kv]  # one of each group: the heads before the repeat
        assert layer.keys.shape == (1, T, h_kv * 8) and torch.equal(layer.keys, side_by_side(kv_heads))
        assert torch.equal(layer.values, side_by_side(layer.values_heads[:, :: h // h_kv]))
        assert torch.equal(layer.context, side_by_side(layer.context_heads))
        assert torch.equal(layer.dropped_weights, layer.weights)


def test_trace_ids_reads_the_ids_as_given(tiny_models):
    loaded = tiny_models["llama"]
    ids = [piece.token_id for piece in hf.read(loaded, "the cat sat")[0]]
    traced = hf.trace_ids(loaded, ids)
    assert traced.logits is None and traced.cut == 0 and traced.description is loaded.description
    assert traced.text_used == loaded.tokenizer.decode(ids) and traced.token_ids == ids
    by_text = hf.trace(loaded, "the cat sat")
    assert len(traced.layers) == 2
    for mine, theirs in zip(traced.layers, by_text.layers, strict=True):
        assert torch.equal(mine.scores, theirs.scores) and mine.shape_steps == theirs.shape_steps
    with pytest.raises(InputError) as caught:
        hf.trace_ids(loaded, [])
    assert caught.value.code == "empty_text"


def test_a_piece_read_alone_has_no_source(tiny_models):
    loaded = tiny_models["gpt2"]
    byte = hf.piece(loaded, loaded.tokenizer.convert_tokens_to_ids("å"))
    assert (byte.kind, byte.text, byte.label, byte.source) == ("bytes", "e5", "‹e5›", "")
    cat = loaded.tokenizer.convert_tokens_to_ids("Ġcat")
    word = hf.piece(loaded, cat)
    assert (word.token_id, word.kind, word.text, word.label, word.source) == (cat, "text", " cat", "␣cat", "")
    first = hf.piece(loaded, 0)  # id 0 is a token like any other
    assert first.kind == "special" and first.text == loaded.tokenizer.convert_ids_to_tokens(0)
    for token_id in (-1, len(loaded.tokenizer)):
        outside = hf.piece(loaded, token_id)
        assert (outside.token_id, outside.kind, outside.label) == (token_id, "none", f"<id {token_id}>")
    assert _token_bytes("", True) is None, "an empty token stands for no bytes"


def _cleaned(loaded, pattern: str):
    """``loaded`` with a copy of its tokenizer whose normalizer deletes ``pattern``."""
    import copy
    import dataclasses

    from tokenizers import Regex, normalizers

    tokenizer = copy.deepcopy(loaded.tokenizer)
    tokenizer.backend_tokenizer.normalizer = normalizers.Replace(Regex(pattern), "")
    return dataclasses.replace(loaded, tokenizer=tokenizer)


def test_a_text_read_whole_is_used_whole_even_where_no_token_covers_its_end(tiny_models):
    loaded = _cleaned(tiny_models["gpt2"], "!")
    pieces, cut, used = hf.read(loaded, "the cat!!")
    assert cut == 0 and used == "the cat!!"
    pieces, cut, used = hf.read(loaded, "the cat!!", max_tokens=len(pieces))  # exactly the limit
    assert cut == 0 and used == "the cat!!"
    pieces, cut, used = hf.read(loaded, "the cat!!", max_tokens=len(pieces) - 1)
    assert cut == 1 and used == "the"


def test_a_text_with_no_tokens_is_refused_in_words(tiny_models):
    loaded = _cleaned(tiny_models["gpt2"], "x")
    with pytest.raises(InputError) as caught:
        hf.read(loaded, "xxx")
    assert caught.value.code == "no_tokens" and caught.value.params == {"tokenizer": "gpt2"}


def test_a_text_cut_after_its_bos_covers_nothing(tiny_models):
    loaded = tiny_models["llama"]
    pieces, cut, used = hf.read(loaded, "the cat", max_tokens=1)
    assert [piece.kind for piece in pieces] == ["special"] and used == ""
    assert cut == len(loaded.tokenizer("the cat")["input_ids"]) - 1


def test_a_byte_level_spelling_is_found_inside_a_sequence():
    from tokenizers import decoders, pre_tokenizers

    sequence = pre_tokenizers.Sequence([pre_tokenizers.Whitespace(), pre_tokenizers.ByteLevel()])
    assert list(_types(sequence)) == ["Sequence", "Whitespace", "ByteLevel"]
    assert list(_types(decoders.ByteLevel())) == ["ByteLevel"]
    assert list(_types(None)) == []


@pytest.mark.parametrize(("family", "byte_level"), [("gpt2", True), ("llama-sp", False)])
def test_spelling_reads_whether_a_tokenizer_is_byte_level(family, byte_level, tiny_models):
    tokenizer = tiny_models[family].tokenizer
    spelled = hf.spelling(tokenizer)
    assert spelled.byte_level is byte_level
    assert spelled == hf.Spelling(byte_level, frozenset(tokenizer.all_special_ids), len(tokenizer))


def test_sampling_without_a_seed_is_seed_0(tiny_models):
    loaded = tiny_models["qwen2"]
    drawn = [s.piece.token_id for s in hf.generate_tokens(loaded, "the cat", 4, temperature=1.5)]
    assert drawn == [s.piece.token_id for s in hf.generate_tokens(loaded, "the cat", 4, 1.5, seed=0)]
    assert drawn != [s.piece.token_id for s in hf.generate_tokens(loaded, "the cat", 4, 1.5, seed=1)]


def test_generation_uses_the_cache_even_where_the_config_turns_it_off(tiny_model_folders, tmp_path):
    loaded = hf.load(str(_copy_model(tiny_model_folders["qwen2"], tmp_path / "no-cache", use_cache=False)))
    steps = hf.generate_tokens(loaded, "the cat", 3)
    prompt = [piece.token_id for piece in hf.read(loaded, "the cat")[0]]
    ids = prompt + [step.piece.token_id for step in steps]
    full = hf.trace_ids(loaded, ids).weights
    for k, step in enumerate(steps):
        T = len(prompt) + k
        assert step.rows.shape == (2, 4, T)
        assert torch.allclose(step.rows, torch.stack([w[0, :, T - 1, :T] for w in full]), atol=1e-6)


def _described(config: dict, dtype=torch.float32):
    """``_describe`` of a linear layer (3 inputs, 2 outputs: 8 parameters) with ``config``."""
    from types import SimpleNamespace

    model = torch.nn.Linear(3, 2).to(dtype)
    model.config = SimpleNamespace(model_type="fake", num_hidden_layers=3, hidden_size=32, **config)
    return model


def test_a_description_reads_each_number_where_the_config_has_it(tmp_path):
    (tmp_path / "weights").write_bytes(b"12345")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "other").write_bytes(b"not counted")
    full = dict(num_attention_heads=4, num_key_value_heads=2, head_dim=16, max_position_embeddings=100, n_positions=7)
    described = loading._describe("fake-model", _described(full), tmp_path)
    assert described == hf.Description(
        name="fake-model",
        family="fake",
        layers=3,
        heads=4,
        kv_heads=2,
        head_dim=16,
        hidden=32,
        context=100,
        parameters=8,
        bytes=32,
        download_bytes=5,
    )
    gpt2_like = loading._describe("gpt2-like", _described(dict(num_attention_heads=4, n_positions=50)), tmp_path)
    assert (gpt2_like.kv_heads, gpt2_like.head_dim, gpt2_like.context) == (4, 8, 50)
    assert type(gpt2_like.head_dim) is int
    nothing = loading._describe("no-context", _described(dict(num_attention_heads=4), torch.float16), tmp_path)
    assert (nothing.context, nothing.parameters, nothing.bytes) == (0, 8, 16)  # two bytes a float16


def test_weights_saved_in_bfloat16_are_loaded_in_float32(tiny_model_folders, tmp_path):
    from transformers import AutoModelForCausalLM

    folder = tiny_model_folders["gpt2"]
    destination = tmp_path / "bf16"
    AutoModelForCausalLM.from_pretrained(folder).to(torch.bfloat16).save_pretrained(destination)
    for path in folder.glob("tokenizer*"):
        (destination / path.name).write_bytes(path.read_bytes())
    assert "bfloat16" in (destination / "config.json").read_text()
    loaded = hf.load(str(destination))
    assert all(p.dtype == torch.float32 for p in loaded.model.parameters())
    assert loaded.description.bytes == 4 * loaded.description.parameters


def test_a_models_own_code_is_never_run(tiny_model_folders, tmp_path):
    """A folder whose config and tokenizer name code of their own beside a model transformers
    knows: the known classes are used, and the folder's code is never imported."""
    folder = _copy_model(
        tiny_model_folders["gpt2"],
        tmp_path / "own-code",
        auto_map={"AutoConfig": "custom.CustomConfig", "AutoModelForCausalLM": "custom.CustomModel"},
    )
    ran = tmp_path / "the folder's code ran"
    (folder / "custom.py").write_text(
        f"from pathlib import Path\nPath({str(ran)!r}).write_text('ran')\n"
        "from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast\n"
        "class CustomConfig(GPT2Config):\n    pass\n"
        "class CustomModel(GPT2LMHeadModel):\n    config_class = CustomConfig\n"
        "class CustomTokenizer(PreTrainedTokenizerFast):\n    pass\n"
    )
    tokenizer_config = json.loads((folder / "tokenizer_config.json").read_text())
    tokenizer_config["auto_map"] = {"AutoTokenizer": [None, "custom.CustomTokenizer"]}
    (folder / "tokenizer_config.json").write_text(json.dumps(tokenizer_config))
    loaded = hf.load(str(folder))
    assert not ran.exists()
    assert type(loaded.model).__name__ == "GPT2LMHeadModel" and "Custom" not in type(loaded.tokenizer).__name__


def test_a_folder_transformers_cannot_load_is_named_with_the_first_line_of_its_error(tmp_path):
    from transformers import AutoModelForCausalLM

    (tmp_path / "config.json").write_text(json.dumps({"model_type": "x" * 300}))
    with pytest.raises(Exception) as theirs:
        AutoModelForCausalLM.from_pretrained(tmp_path)
    first_line = str(theirs.value).splitlines()[0]
    assert len(first_line) > 200 and len(str(theirs.value).splitlines()) > 1
    with pytest.raises(InputError) as caught:
        hf.load(str(tmp_path))
    assert caught.value.code == "model_unsupported"
    assert caught.value.params == {"name": str(tmp_path), "reason": first_line[:200]}


def test_a_model_without_a_fast_tokenizer_is_refused(tiny_model_folders, tmp_path):
    """A Python tokenizer (CTRL's) has no offsets to read a text with."""
    folder = tmp_path / "slow"
    folder.mkdir()
    for name in ("config.json", "model.safetensors"):
        (folder / name).write_bytes((tiny_model_folders["gpt2"] / name).read_bytes())
    (folder / "vocab.json").write_text(json.dumps({"the": 0, "cat": 1}))
    (folder / "merges.txt").write_text("#version: 0.2\nt h\n")
    (folder / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "CTRLTokenizer"}))
    with pytest.raises(InputError) as caught:
        hf.load(str(folder))
    assert caught.value.code == "model_unsupported"
    assert caught.value.params == {"name": str(folder), "reason": "no fast tokenizer"}


def test_weights_only_in_a_pickle_are_refused(tiny_model_folders, tmp_path):
    """A folder whose weights are a pytorch_model.bin alone: loading a pickle could run code."""
    from transformers import AutoModelForCausalLM

    folder = tiny_model_folders["gpt2"]
    destination = tmp_path / "pickled"
    model = AutoModelForCausalLM.from_pretrained(folder)
    model.config.save_pretrained(destination)
    torch.save(model.state_dict(), destination / "pytorch_model.bin")
    for path in folder.glob("tokenizer*"):
        (destination / path.name).write_bytes(path.read_bytes())
    assert (destination / "pytorch_model.bin").exists() and not list(destination.glob("*.safetensors"))
    with pytest.raises(InputError) as caught:
        hf.load(str(destination))
    assert caught.value.code == "model_unsupported" and caught.value.params["name"] == str(destination)


def test_a_model_whose_attention_is_not_traced_is_refused_in_words(tiny_model_folders):
    """A model whose attention does not go through the app's registered function (here switched
    to transformers' eager one after loading) records no layer: refused, never half-drawn."""
    loaded = hf.load(str(tiny_model_folders["gpt2"]))
    loaded.model.set_attn_implementation("eager")
    with pytest.raises(InputError) as raised:
        hf.trace(loaded, "the cat")
    assert raised.value.code == "model_unsupported"
    assert raised.value.params == {"name": str(tiny_model_folders["gpt2"]), "reason": "attention not traced"}
