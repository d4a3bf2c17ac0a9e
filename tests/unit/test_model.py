"""The tiny GPT, its data, training, generation and checkpoints."""

from __future__ import annotations

import hashlib
import io
import math
import pickle
from pathlib import Path

import pytest
import torch

from gpt_core import (
    GPT,
    AttentionTrace,
    CharDataset,
    CheckpointMeta,
    GPTConfig,
    GPTTrace,
    HistoryPoint,
    InputError,
    RunSummary,
    TrainConfig,
    build_corpus,
    checkpoint_bytes,
    decode_user_text,
    download_tiny_shakespeare,
    evaluate,
    generate,
    load_checkpoint,
    read_verified,
    synthetic_text,
    train,
)
from gpt_core.checkpoint import FORMAT_VERSION
from gpt_core.data import TRAIN_FRACTION, CharVocabulary
from gpt_core.train import learning_rate_at
from tests.helpers import assert_close

TEXT = synthetic_text("copy", 6000, seed=1)


@pytest.fixture(scope="module")
def corpus():
    return build_corpus("copy", TEXT, context_length=16)


def small_model(vocab: int, heads: int = 2, blocks: int = 2, seed: int = 0) -> GPT:
    torch.manual_seed(seed)
    return GPT(GPTConfig(vocab_size=vocab, context_length=16, embedding_dim=16, heads=heads, blocks=blocks))


def test_logits_have_shape_b_t_vocab(corpus):
    model = small_model(corpus.vocabulary.size)
    inputs, targets = corpus.train.batch(torch.arange(3))
    logits, loss = model(inputs, targets)
    assert logits.shape == (3, 16, corpus.vocabulary.size)
    assert loss.shape == ()


def test_loss_at_initialisation_is_about_ln_vocab(corpus):
    model = small_model(corpus.vocabulary.size)
    inputs, targets = corpus.train.batch(torch.arange(64))
    _, loss = model(inputs, targets)
    assert abs(loss.item() - math.log(corpus.vocabulary.size)) < 0.35


def test_overfits_one_batch(corpus):
    model = small_model(corpus.vocabulary.size)
    inputs, targets = corpus.train.batch(torch.arange(4))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    for _ in range(150):
        _, loss = model(inputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert loss.item() < 0.1


@pytest.mark.parametrize("heads", [1, 2, 4, 8])
def test_parameter_count_is_the_same_for_every_head_count(heads):
    base = GPT(GPTConfig(vocab_size=65, heads=1)).parameter_count()
    assert GPT(GPTConfig(vocab_size=65, heads=heads)).parameter_count() == base


def test_trace_covers_every_layer_and_matches_the_untraced_forward(corpus):
    model = small_model(corpus.vocabulary.size, heads=4, blocks=3).eval()
    inputs, _ = corpus.train.batch(torch.arange(2))
    trace = GPTTrace()
    traced, _ = model(inputs, trace=trace)
    assert len(trace.layers) == 3 and all(isinstance(layer, AttentionTrace) for layer in trace.layers)
    assert trace.layers[1].weights.shape == (2, 4, 16, 16)
    assert_close(traced, model(inputs)[0], 1e-5, "traced (readable) vs untraced (fused)")


def test_config_validates_itself():
    with pytest.raises(InputError) as info:
        GPTConfig(vocab_size=65, embedding_dim=64, heads=3)
    assert info.value.code == "heads_not_divisor"
    with pytest.raises(InputError):
        GPTConfig(vocab_size=0)
    with pytest.raises(InputError):
        GPTConfig(vocab_size=10, dropout=1.0)


def test_sequence_longer_than_the_context_is_refused(corpus):
    model = small_model(corpus.vocabulary.size)
    with pytest.raises(InputError, match="context_length") as info:
        model(torch.zeros(1, 17, dtype=torch.long))
    assert info.value.params == {"tokens": 17, "context_length": 16}
    with pytest.raises(InputError) as info:
        model(torch.zeros(2, 3, 4, dtype=torch.long))
    assert info.value.code == "input_rank" and info.value.params == {"ndim": 3, "shape": (2, 3, 4)}


def test_without_targets_there_is_no_loss_and_the_default_seed_is_0(corpus):
    model = small_model(corpus.vocabulary.size)
    _, loss = model(torch.zeros(1, 5, dtype=torch.long))
    assert loss is None
    config = model.config
    assert all(
        torch.equal(a, b)
        for a, b in zip(GPT(config).state_dict().values(), GPT(config, seed=0).state_dict().values(), strict=True)
    )
    assert not torch.equal(GPT(config).token_embedding.weight, GPT(config, seed=1).token_embedding.weight)


def test_the_models_blocks_use_the_fused_kernel_when_not_traced(corpus):
    """Training takes torch's fused attention (proven equal to the readable path in
    test_attention.py); a traced forward takes the readable one."""
    model = small_model(corpus.vocabulary.size)
    assert all(block.attention.fused is True for block in model.blocks)


# --- data ---------------------------------------------------------------------------


def test_dataset_windows_use_the_stride_and_shift_targets_by_one():
    ids = list(range(20))
    dataset = CharDataset(ids, context_length=4)
    assert dataset.stride == 2, "default stride is context / 2, as in the book"
    x, y = dataset[1]
    assert x.tolist() == [2, 3, 4, 5] and y.tolist() == [3, 4, 5, 6]
    assert len(dataset) == len(range(0, 20 - 4, 2))
    batch_x, batch_y = dataset.batch(torch.tensor([0, 1]))
    assert batch_x[1].tolist() == x.tolist() and batch_y[1].tolist() == y.tolist()
    assert len(CharDataset(ids, context_length=4, stride=1)) == 16


def test_split_is_90_10_in_order(corpus):
    ids = corpus.vocabulary.encode(TEXT)
    cut = int(len(ids) * TRAIN_FRACTION)
    assert corpus.train.ids.tolist() == ids[:cut]
    assert corpus.test.ids.tolist() == ids[cut:]


def test_vocabulary_round_trip():
    vocabulary = CharVocabulary.from_text("hello 世界")
    assert vocabulary.decode(vocabulary.encode("hell 世界")) == "hell 世界"
    assert vocabulary.unknown("hexz") == {"x", "z"}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty_text"),
        ("   \n", "empty_text"),
        ("abc" * 20, "corpus_too_short"),
        ("".join(chr(0x4E00 + i) for i in range(600)) * 3, "vocab_too_large"),
    ],
)
def test_bad_corpora_are_refused_with_a_reason(text, code):
    with pytest.raises(InputError) as info:
        build_corpus("user", text, context_length=32)
    assert info.value.code == code


def test_a_window_longer_than_the_text_says_both_lengths():
    with pytest.raises(InputError) as info:
        CharDataset(list(range(5)), context_length=8)
    assert info.value.code == "corpus_too_short_for_window"
    assert info.value.params == {"chars": 5, "context_length": 8}


def test_an_unknown_synthetic_corpus_names_the_choices():
    with pytest.raises(InputError) as info:
        synthetic_text("random")
    assert info.value.params == {"name": "kind", "choices": ["copy", "previous", "induction"], "value": "random"}


@pytest.mark.parametrize("kind", ["copy", "previous", "induction"])
def test_synthetic_corpora_have_exactly_the_asked_length_and_seed_0_by_default(kind):
    assert all(len(synthetic_text(kind, length)) == length for length in range(1, 120))
    assert len(synthetic_text(kind)) == 60_000
    assert synthetic_text(kind, 500) == synthetic_text(kind, 500, seed=0) != synthetic_text(kind, 500, seed=1)


def test_the_copy_corpus_repeats_words_of_three_to_six_of_the_first_eight_letters():
    pieces = synthetic_text("copy", 20_000).split(".")[:-1]
    words = [piece.split("=") for piece in pieces]
    assert all(first == second for first, second in words)
    assert {len(first) for first, _ in words} == {3, 4, 5, 6}
    assert set("".join(first for first, _ in words)) == set("abcdefgh")


def test_the_previous_corpus_runs_four_to_seven_letters_from_a_to_t():
    runs = synthetic_text("previous", 20_000).split(".")[:-1]
    assert {run[0] for run in runs} == set("abcdefghijklmnopqrst"), "every start a..t, none later"
    assert {len(run) for run in runs if run[0] <= "q"} == {4, 5, 6, 7}, "cut only at z"


def test_a_refused_corpus_says_its_numbers():
    with pytest.raises(InputError) as info:
        build_corpus("user", "abc" * 20, context_length=32)
    assert info.value.params == {"chars": 60, "context_length": 32, "minimum": 330}
    with pytest.raises(InputError) as info:
        build_corpus("user", "".join(chr(0x4E00 + i) for i in range(600)) * 3, context_length=32)
    assert info.value.params == {"size": 600, "limit": 256}


def test_a_corpus_carries_its_name_text_checksum_and_stride():
    import hashlib

    text = "the cat sat on the mat. " * 20
    corpus = build_corpus("mine", text, context_length=8, stride=3)
    assert (corpus.name, corpus.text) == ("mine", text)
    assert corpus.sha256 == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert corpus.train.stride == corpus.test.stride == 3
    default = build_corpus("mine", text, context_length=8)
    assert default.train.stride == default.test.stride == 4, "context / 2"


def test_dataset_ids_are_long_and_the_shortest_context_moves_one_id_at_a_time():
    dataset = CharDataset(torch.arange(10, dtype=torch.int32), context_length=1)
    assert dataset.ids.dtype == torch.long, "embeddings index with long ids"
    assert dataset.stride == 1 and dataset.starts.tolist() == list(range(9))


@pytest.mark.parametrize(
    ("data", "code"),
    [(b"\xff\xfe\x00a", "not_text"), (b"caf\xe9 au lait", "not_utf8"), (b"x" * 101, "corpus_too_large")],
)
def test_user_bytes_must_be_utf8_text(data, code):
    with pytest.raises(InputError) as info:
        decode_user_text(data, max_bytes=100)
    assert info.value.code == code


def test_user_text_utf8_with_bom_and_windows_newlines():
    assert decode_user_text("\ufeffline one\r\n第二行".encode()) == "line one\n第二行"


@pytest.mark.parametrize("kind", ["copy", "previous", "induction"])
def test_synthetic_corpora_are_deterministic_and_structured(kind):
    text = synthetic_text(kind, 2000, seed=3)
    assert text == synthetic_text(kind, 2000, seed=3) and len(text) == 2000
    if kind == "copy":
        word, rest = text.split("=", 1)
        assert rest.startswith(word + ".")
    if kind == "previous":
        run = text.split(".")[0]
        assert all(ord(b) == ord(a) + 1 for a, b in zip(run, run[1:], strict=False))
    if kind == "induction":
        line = text.splitlines()[0].split()
        assert sorted(line[:3]) == sorted(line[3:])


def test_checksum_check_rejects_a_wrong_file(tmp_path):
    right = tmp_path / "right.txt"
    right.write_text("To be, or not to be", encoding="utf-8")
    digest = hashlib.sha256(right.read_bytes()).hexdigest()
    assert read_verified(right, digest) == "To be, or not to be"
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("To be, or not to bee", encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_verified(wrong, digest)
    assert info.value.code == "checksum_mismatch"


def test_download_is_cached_and_verified_using_a_local_file(tmp_path):
    source = tmp_path / "source.txt"
    source.write_text("First Citizen:\nBefore we proceed any further, hear me speak.\n", encoding="utf-8")
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    cache = tmp_path / "cache"
    path = download_tiny_shakespeare(cache, url=source.as_uri(), sha256=digest)
    assert path.read_bytes() == source.read_bytes()
    source.unlink()  # a second call must not download again
    assert download_tiny_shakespeare(cache, url=source.as_uri(), sha256=digest) == path
    bad = tmp_path / "bad.txt"
    bad.write_text("not shakespeare", encoding="utf-8")
    with pytest.raises(InputError):
        download_tiny_shakespeare(tmp_path / "other", url=bad.as_uri(), sha256=digest)
    assert not list((tmp_path / "other").iterdir()), "a wrong download is deleted"


# --- training and generation -----------------------------------------------------------


def test_learning_rate_warms_up_then_decays_to_the_floor():
    config = TrainConfig(steps=100, warmup_steps=10, learning_rate=1e-3, min_learning_rate_ratio=0.1)
    assert learning_rate_at(0.0, 0, config) == pytest.approx(1e-4)
    assert learning_rate_at(0.1, 10, config) < 1e-3
    assert learning_rate_at(0.5, 50, config) == pytest.approx(0.55e-3)
    assert learning_rate_at(1.0, 100, config) == pytest.approx(1e-4)


def test_training_lowers_the_loss_reports_progress_and_is_reproducible(corpus):
    reports = []
    config = TrainConfig(steps=300, batch_size=16, eval_every=100, warmup_steps=10, learning_rate=1e-2, seed=5)
    model = small_model(corpus.vocabulary.size)
    before = evaluate(model, corpus, None, 64)
    result = train(model, corpus, config, on_progress=reports.append)
    assert [r.step for r in reports] == list(range(1, 301))
    assert [r.step for r in reports if r.test_loss is not None] == [100, 200, 300]
    assert result.final_test_loss < before - 0.3, (before, result.final_test_loss)
    assert reports[-1].fraction == 1.0 and reports[-1].tokens_per_second > 0
    again = train(small_model(corpus.vocabulary.size), corpus, config)
    assert [h.train_loss for h in again.history] == [h.train_loss for h in result.history]


def test_training_stops_between_steps_when_asked(corpus):
    model = small_model(corpus.vocabulary.size)
    reports: list = []
    result = train(
        model,
        corpus,
        TrainConfig(steps=500, batch_size=8),
        on_progress=reports.append,
        should_stop=lambda: len(reports) >= 7,
    )
    assert result.steps == 7 and result.stopped_early


def test_time_budget_ends_training(corpus):
    """A 0.5 s budget ends the run once spent, not before and not long after: no step
    begins after it, so the overshoot is at most the slowest step (and an evaluation with
    it), timed here between the progress calls, plus 0.25 s for a busy machine."""
    import time

    model = small_model(corpus.vocabulary.size)
    ends: list[float] = []
    began = time.perf_counter()
    result = train(
        model,
        corpus,
        TrainConfig(steps=None, seconds=0.5, batch_size=8),
        on_progress=lambda progress: ends.append(time.perf_counter()),
    )
    wall = time.perf_counter() - began
    assert result.steps == len(ends) > 0 and not result.stopped_early
    slowest = max(end - start for start, end in zip([began, *ends], ends, strict=False))
    assert 0.5 <= result.elapsed <= wall
    assert result.elapsed < 0.5 + slowest + 0.25, f"{result.elapsed:.2f} s for 0.5 s; the slowest step {slowest:.3f} s"


def test_generation_is_deterministic_for_a_seed_and_greedy_at_temperature_zero(corpus):
    model = small_model(corpus.vocabulary.size)
    prompt = corpus.vocabulary.encode("abc=")
    first = generate(model, prompt, 20, temperature=1.0, top_k=5, seed=3)
    assert first == generate(model, prompt, 20, temperature=1.0, top_k=5, seed=3)
    assert first != generate(model, prompt, 20, temperature=1.0, top_k=5, seed=4)
    assert len(first) == 20
    greedy = generate(model, prompt, 10, temperature=0)
    assert greedy == generate(model, prompt, 10, temperature=0, seed=99)


def test_a_time_limit_stops_generation_with_the_first_ids_of_the_unbounded_call(corpus, monkeypatch):
    """Each forward pass slowed to 0.1 s: a 0.5 s limit stops after a few ids, which are
    the first ids the same call makes without a limit (same seed, same sampling)."""
    import time

    model = small_model(corpus.vocabulary.size)
    prompt = corpus.vocabulary.encode("abc=")
    whole = generate(model, prompt, 30, temperature=1.0, top_k=5, seed=3)
    forward = model.forward

    def slow_forward(*args, **kwargs):
        time.sleep(0.1)
        return forward(*args, **kwargs)

    monkeypatch.setattr(model, "forward", slow_forward)
    began = time.perf_counter()
    cut = generate(model, prompt, 30, temperature=1.0, top_k=5, seed=3, max_seconds=0.5)
    assert time.perf_counter() - began <= 0.5 + 1.0  # a busy machine: one slow pass past the measure
    assert 1 <= len(cut) < 30 and cut == whole[: len(cut)]
    assert generate(model, prompt, 5, temperature=1.0, top_k=5, seed=3, max_seconds=60.0) == whole[:5]


def test_top_k_one_is_greedy(corpus):
    model = small_model(corpus.vocabulary.size)
    prompt = corpus.vocabulary.encode("ab")
    assert generate(model, prompt, 8, temperature=1.0, top_k=1, seed=1) == generate(model, prompt, 8, temperature=0)


def _greedy_next(model: GPT, ids: list[int]) -> int:
    """The argmax of the model's logits for the token after ``ids`` (all of them read)."""
    with torch.no_grad():
        logits, _ = model.eval()(torch.tensor([ids]))
    return int(logits[0, -1].argmax())


def test_generation_longer_than_the_context_slides_the_window(corpus):
    """Past context_length (16) tokens, each new token is the model's greedy choice after the
    last 16 tokens only, computed here one forward at a time."""
    model = small_model(corpus.vocabulary.size)
    context = model.config.context_length
    assert len(generate(model, corpus.vocabulary.encode("a"), 40, seed=0)) == 40
    prompt = corpus.vocabulary.encode("abc=")
    made = generate(model, prompt, 40, temperature=0)
    assert len(made) == 40 and len(prompt) + 40 > 2 * context
    ids = prompt + made
    for position in range(len(prompt), len(ids)):
        window = ids[max(0, position - context) : position]
        assert made[position - len(prompt)] == _greedy_next(model, window), f"token {position}"


# --- checkpoints -----------------------------------------------------------------------------


def test_checkpoint_round_trip_with_weights_only(corpus, tmp_path):
    model = small_model(corpus.vocabulary.size).eval()
    run = RunSummary(
        heads=2,
        parameters=model.parameter_count(),
        steps=3,
        wall_time=1.0,
        tokens_per_second=10.0,
        final_test_loss=2.5,
        history=[HistoryPoint(1, 0.5, 3.0), HistoryPoint(3, 1.0, 2.7, 2.5)],
    )
    meta = CheckpointMeta(corpus="copy", corpus_sha256=corpus.sha256, run=run)
    data = checkpoint_bytes(model, corpus.vocabulary, meta)
    loaded = load_checkpoint(data)
    inputs, _ = corpus.test.batch(torch.arange(2))
    assert torch.equal(loaded.model(inputs)[0], model(inputs)[0])
    assert loaded.vocabulary == corpus.vocabulary
    assert loaded.meta == meta
    path = tmp_path / "half.pt"
    path.write_bytes(checkpoint_bytes(model, corpus.vocabulary, meta, half=True))
    assert_close(load_checkpoint(path).model(inputs)[0], model(inputs)[0], 5e-2, "float16 weights")


def test_a_checkpoint_of_another_format_version_is_refused_with_a_message(corpus):
    model = small_model(corpus.vocabulary.size)
    run = RunSummary(heads=2, parameters=1, steps=1, wall_time=1.0, tokens_per_second=1.0, final_test_loss=2.0)
    data = checkpoint_bytes(model, corpus.vocabulary, CheckpointMeta("copy", corpus.sha256, run))
    record = torch.load(io.BytesIO(data), weights_only=True)
    for version in (FORMAT_VERSION - 1, FORMAT_VERSION + 1, None):
        record["format"] = version
        out = io.BytesIO()
        torch.save(record, out)
        with pytest.raises(InputError, match="format version") as caught:
            load_checkpoint(out.getvalue())
        assert caught.value.code == "checkpoint_format"
        assert caught.value.params == {"found": version, "expected": FORMAT_VERSION}


def test_a_torch_file_that_is_not_a_checkpoint_is_refused_by_its_format():
    out = io.BytesIO()
    torch.save(torch.zeros(3), out)  # loads with weights_only, but is no record at all
    with pytest.raises(InputError) as caught:
        load_checkpoint(out.getvalue())
    assert caught.value.code == "checkpoint_format" and caught.value.params["found"] is None


def test_a_checkpoint_naming_a_far_larger_model_is_refused_before_it_is_built(corpus):
    """The file's config says 2**40 tokens of vocabulary (terabytes of weights); its weights are
    a small model's. The sizes are compared on the meta device: nothing is allocated."""
    model = small_model(corpus.vocabulary.size)
    run = RunSummary(heads=2, parameters=1, steps=1, wall_time=1.0, tokens_per_second=1.0, final_test_loss=2.0)
    record = torch.load(
        io.BytesIO(checkpoint_bytes(model, corpus.vocabulary, CheckpointMeta("copy", "x", run))), weights_only=True
    )
    record["config"]["vocab_size"] = 2**40
    out = io.BytesIO()
    torch.save(record, out)
    with pytest.raises(InputError) as caught:
        load_checkpoint(out.getvalue())
    assert caught.value.code == "checkpoint_mismatch"
    assert caught.value.params["given"] == sum(t.numel() for t in model.state_dict().values())


def test_a_budget_in_both_steps_and_seconds_or_neither_is_an_input_error():
    for steps, seconds in ((10, 1.0), (None, None)):
        with pytest.raises(InputError) as caught:
            TrainConfig(steps=steps, seconds=seconds)
        assert caught.value.code == "budget_kind"


def test_a_pickled_object_is_refused(tmp_path):
    class Evil:
        def __reduce__(self):
            return (Path.touch, (tmp_path / "pwned",))

    path = tmp_path / "evil.pt"
    torch.save({"config": Evil()}, path)
    with pytest.raises(InputError) as caught:  # torch refuses to unpickle it; the student reads why
        load_checkpoint(path)
    assert caught.value.code == "checkpoint_unreadable"
    assert isinstance(caught.value.__context__, pickle.UnpicklingError)
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("data", [b"", b"not a model at all", b"PK\x03\x04" + bytes(100)])
def test_a_file_that_is_no_checkpoint_is_refused_with_a_message(data):
    with pytest.raises(InputError) as caught:
        load_checkpoint(data)
    assert caught.value.code == "checkpoint_unreadable"


def test_a_checkpoint_whose_config_names_a_larger_model_than_its_weights_is_refused_before_building_it(corpus):
    """A changed file could name a model of billions of numbers; it is counted on the meta
    device, without memory, and refused."""
    model = small_model(corpus.vocabulary.size)
    run = RunSummary(heads=2, parameters=1, steps=1, wall_time=1.0, tokens_per_second=1.0, final_test_loss=2.0)
    record = torch.load(
        io.BytesIO(checkpoint_bytes(model, corpus.vocabulary, CheckpointMeta("copy", corpus.sha256, run))),
        weights_only=True,
    )
    record["config"]["embedding_dim"] *= 4096
    out = io.BytesIO()
    torch.save(record, out)
    with pytest.raises(InputError) as caught:
        load_checkpoint(out.getvalue())
    assert caught.value.code == "checkpoint_mismatch"
    assert caught.value.params["given"] == sum(tensor.numel() for tensor in model.state_dict().values())
    del record["meta"]
    out = io.BytesIO()
    torch.save(record, out)
    with pytest.raises(InputError, match="not a model saved"):
        load_checkpoint(out.getvalue())


def test_missing_tiny_shakespeare_says_where_to_put_it(monkeypatch):
    import gpt_core.data

    monkeypatch.setattr(gpt_core.data, "find_tiny_shakespeare", lambda: None)
    with pytest.raises(InputError, match="TINY_SHAKESPEARE"):
        gpt_core.data.load_tiny_shakespeare()


def test_generation_from_an_empty_prompt_starts_after_id_0(corpus):
    """An empty prompt is read as [0] (the id 0 is not returned): greedy, each token is the
    argmax after [0] and what came before; sampled, the first is the seeded draw from
    softmax of the logits after [0], computed here."""
    model = small_model(corpus.vocabulary.size)
    greedy = generate(model, [], 5, temperature=0)
    assert len(greedy) == 5
    for index in range(5):
        assert greedy[index] == _greedy_next(model, [0, *greedy[:index]]), f"token {index}"
    sampled = generate(model, [], 5, seed=7)
    assert len(sampled) == 5
    with torch.no_grad():
        logits, _ = model.eval()(torch.tensor([[0]]))
    probabilities = torch.softmax(logits[0, -1], dim=-1)
    assert sampled[0] == int(torch.multinomial(probabilities, 1, generator=torch.Generator().manual_seed(7)))


# --- properties added by the planted-bug audit -------------------------------------------


def _reference_logits_and_loss(model: GPT, ids: torch.Tensor, targets: torch.Tensor):
    """The GPT written out from its definition (pre-LayerNorm blocks with residuals, final
    LayerNorm, linear head), calling the attention layer that test_attention.py proves equal
    to torch's own; the loss is the mean of -log softmax at the targets."""
    import torch.nn.functional as F

    C = model.config.embedding_dim
    T = ids.shape[1]

    def norm(layer, x):
        return F.layer_norm(x, (C,), layer.weight, layer.bias, layer.eps)

    x = model.token_embedding.weight[ids] + model.position_embedding.weight[:T]
    for block in model.blocks:
        x = x + block.attention(norm(block.attention_norm, x))
        first, second = block.feed_forward[0], block.feed_forward[2]
        x = x + second(F.gelu(first(norm(block.feed_forward_norm, x))))
    logits = norm(model.final_norm, x) @ model.lm_head.weight.T + model.lm_head.bias
    log_probabilities = torch.log_softmax(logits, dim=-1)
    loss = -log_probabilities.gather(-1, targets.unsqueeze(-1)).mean()
    return logits, loss


def test_forward_and_loss_equal_the_gpt_written_out_from_its_definition(corpus):
    model = small_model(corpus.vocabulary.size, heads=2, blocks=2).eval()
    generator = torch.Generator().manual_seed(0)
    with torch.no_grad():  # LayerNorms away from their (1, 0) start, so each one's place matters
        for name, parameter in model.named_parameters():
            if "norm" in name:
                parameter.copy_(torch.randn(parameter.shape, generator=generator))
    inputs, targets = corpus.train.batch(torch.arange(3))
    inputs, targets = inputs[:, :11], targets[:, :11]  # T shorter than the context
    logits, loss = model(inputs, targets)
    expected_logits, expected_loss = _reference_logits_and_loss(model, inputs, targets)
    assert_close(logits, expected_logits, 1e-5, "logits vs the written-out GPT")
    assert abs(loss.item() - expected_loss.item()) <= 1e-5, (loss.item(), expected_loss.item())


def test_a_repeated_token_gets_different_logits_at_different_positions(corpus):
    model = small_model(corpus.vocabulary.size).eval()
    logits, _ = model(torch.zeros(1, 5, dtype=torch.long))
    for i in range(1, 5):
        assert not torch.allclose(logits[0, 0], logits[0, i]), f"position {i} looks like position 0"


def test_a_reused_gpt_trace_holds_one_layer_per_block(corpus):
    model = small_model(corpus.vocabulary.size, blocks=3).eval()
    trace = GPTTrace()
    model(torch.zeros(1, 4, dtype=torch.long), trace=trace)
    model(torch.zeros(1, 6, dtype=torch.long), trace=trace)
    assert len(trace.layers) == 3 and trace.layers[0].weights.shape[-1] == 6


@pytest.mark.parametrize("shape", [(5,), (1, 2, 3)])
def test_ids_that_are_not_b_by_t_are_refused_with_their_code(corpus, shape):
    model = small_model(corpus.vocabulary.size)
    with pytest.raises(InputError) as info:
        model(torch.zeros(shape, dtype=torch.long))
    assert info.value.code == "input_rank"


def test_a_window_needs_one_id_more_than_its_context():
    with pytest.raises(InputError) as info:
        CharDataset(list(range(4)), context_length=4)
    assert info.value.code == "corpus_too_short_for_window"
    dataset = CharDataset(list(range(5)), context_length=4)
    assert len(dataset) == 1
    x, y = dataset[0]
    assert x.tolist() == [0, 1, 2, 3] and y.tolist() == [1, 2, 3, 4]


@pytest.mark.parametrize(("context", "stride"), [(4, None), (5, 3), (3, 1)])
def test_every_window_is_full_and_targets_are_the_inputs_shifted_by_one(context, stride):
    ids = list(range(23))
    dataset = CharDataset(ids, context_length=context, stride=stride)
    for index in range(len(dataset)):
        x, y = dataset[index]
        assert len(x) == len(y) == context
        assert y[:-1].tolist() == x[1:].tolist() and y[-1].item() == x[-1].item() + 1
    last_x, _ = dataset[len(dataset) - 1]
    assert last_x[0].item() + dataset.stride + context > len(ids) - 1, "no full window was left out"


def test_the_shortest_corpus_accepted_is_ten_windows_of_context_plus_one():
    context = 8
    minimum = (context + 1) * 10
    text = synthetic_text("previous", 200, seed=0)
    with pytest.raises(InputError) as info:
        build_corpus("user", text[: minimum - 1], context_length=context)
    assert info.value.code == "corpus_too_short" and info.value.params["minimum"] == minimum
    corpus = build_corpus("user", text[:minimum], context_length=context)
    assert len(corpus.train.ids) + len(corpus.test.ids) == minimum


def test_a_corpus_of_exactly_max_vocab_characters_is_accepted():
    from gpt_core.data import MAX_VOCAB

    chars = "".join(chr(0x4E00 + i) for i in range(MAX_VOCAB))
    assert build_corpus("user", chars * 4, context_length=8).vocabulary.size == MAX_VOCAB
    with pytest.raises(InputError) as info:
        build_corpus("user", (chars + "a") * 4, context_length=8)
    assert info.value.code == "vocab_too_large"


def test_vocabulary_ids_follow_the_sorted_characters():
    vocabulary = CharVocabulary.from_text("cabbage")
    assert vocabulary.chars == ("a", "b", "c", "e", "g")
    assert vocabulary.encode("cab") == [2, 0, 1]
    assert vocabulary.size == 5


def test_user_bytes_of_exactly_the_limit_are_accepted():
    assert decode_user_text(b"x" * 100, max_bytes=100) == "x" * 100


def test_a_loaded_checkpoint_is_in_eval_mode(corpus):
    model = small_model(corpus.vocabulary.size).train()
    run = RunSummary(heads=2, parameters=1, steps=1, wall_time=1.0, tokens_per_second=1.0, final_test_loss=2.0)
    loaded = load_checkpoint(checkpoint_bytes(model, corpus.vocabulary, CheckpointMeta("copy", corpus.sha256, run)))
    assert not loaded.model.training
    assert not any(module.training for module in loaded.model.modules())


@pytest.mark.parametrize("half", [False, True])
def test_save_checkpoint_stores_float16_weights_only_when_asked(corpus, tmp_path, half):
    from gpt_core import save_checkpoint

    model = small_model(corpus.vocabulary.size)
    run = RunSummary(heads=2, parameters=1, steps=1, wall_time=1.0, tokens_per_second=1.0, final_test_loss=2.0)
    path = tmp_path / "model.pt"
    save_checkpoint(path, model, corpus.vocabulary, CheckpointMeta("copy", corpus.sha256, run), half=half)
    state = torch.load(path, weights_only=True)["state_dict"]
    dtypes = {tensor.dtype for tensor in state.values() if tensor.is_floating_point()}
    assert dtypes == ({torch.float16} if half else {torch.float32})
    loaded = load_checkpoint(path).model
    assert all(p.dtype == torch.float32 for p in loaded.parameters()), "loaded back as float32"
    if not half:  # the default keeps float32
        save_checkpoint(tmp_path / "default.pt", model, corpus.vocabulary, CheckpointMeta("copy", corpus.sha256, run))
        state = torch.load(tmp_path / "default.pt", weights_only=True)["state_dict"]
        assert {t.dtype for t in state.values() if t.is_floating_point()} == {torch.float32}


def _replayed_logits(model: GPT, prompt: list[int], new: list[int]) -> list[torch.Tensor]:
    """The logits each new id was drawn from: the last position of the model's forward over
    the last context_length ids before it."""
    ids, rows = list(prompt), []
    with torch.no_grad():
        for next_id in new:
            rows.append(model(torch.tensor([ids[-model.config.context_length :]]))[0][0, -1])
            ids.append(next_id)
    return rows


def test_greedy_generation_picks_the_argmax_of_the_last_context_window(corpus):
    model = small_model(corpus.vocabulary.size).eval()
    prompt = corpus.vocabulary.encode("abc=abc.ba")
    new = generate(model, prompt, 24, temperature=0)  # 34 ids: the window slides past the context of 16
    for step, (next_id, logits) in enumerate(zip(new, _replayed_logits(model, prompt, new), strict=True)):
        assert next_id == logits.argmax().item(), f"step {step}"


def test_top_k_sampling_draws_only_from_the_k_largest_logits(corpus):
    model = small_model(corpus.vocabulary.size).eval()
    prompt = corpus.vocabulary.encode("abc=")
    for seed in range(3):
        new = generate(model, prompt, 30, temperature=2.0, top_k=3, seed=seed)
        for next_id, logits in zip(new, _replayed_logits(model, prompt, new), strict=True):
            assert next_id in torch.topk(logits, 3).indices.tolist()


def test_a_tiny_temperature_samples_the_argmax(corpus):
    """logits / 1e-4: the top two logits of this model differ by > 0.007 at every step (checked
    below), so the argmax has probability above 1 - vocab * exp(-70)."""
    model = small_model(corpus.vocabulary.size).eval()
    prompt = corpus.vocabulary.encode("abc=abc.ba")
    greedy = generate(model, prompt, 24, temperature=0)
    gaps = [
        (top[0] - top[1]).item()
        for top in (torch.topk(row, 2).values for row in _replayed_logits(model, prompt, greedy))
    ]
    assert min(gaps) / 1e-4 > 50
    assert generate(model, prompt, 24, temperature=1e-4, seed=1) == greedy


@pytest.mark.parametrize("training", [True, False])
def test_generate_evaluate_and_train_leave_the_models_mode_as_documented(corpus, training):
    model = small_model(corpus.vocabulary.size).train(training)
    generate(model, [0, 1], 3, seed=0)
    assert model.training == training, "generate restores the mode"
    evaluate(model, corpus, 1, 4, torch.Generator().manual_seed(0))
    assert model.training == training, "evaluate restores the mode"
    train(model, corpus, TrainConfig(steps=2, batch_size=4, eval_every=2, eval_batches=1))
    assert not model.training, "a trained model is left in eval mode"


def test_evaluation_over_the_whole_split_is_the_mean_loss_over_every_window(corpus):
    model = small_model(corpus.vocabulary.size).eval()
    windows = len(corpus.test)
    assert windows % 7 != 0, "the last batch is smaller: it must count for its size"
    inputs, targets = corpus.test.batch(torch.arange(windows))
    with torch.no_grad():
        expected = model(inputs, targets)[1].item()
    assert evaluate(model, corpus, None, 7) == pytest.approx(expected, abs=1e-5)


def test_weight_decay_applies_to_every_matrix_and_to_no_bias_or_norm(corpus):
    from gpt_core.train_step import optimizer_for

    model = small_model(corpus.vocabulary.size)
    groups = optimizer_for(model, TrainConfig(weight_decay=0.25)).param_groups
    decayed = {id(p) for group in groups if group["weight_decay"] == 0.25 for p in group["params"]}
    plain = {id(p) for group in groups if group["weight_decay"] == 0.0 for p in group["params"]}
    for name, parameter in model.named_parameters():
        expected = name.endswith("weight") and "norm" not in name  # embeddings and linear weights
        assert (id(parameter) in decayed) == expected and (id(parameter) in plain) != expected, name


def test_tokens_per_second_counts_every_token_of_every_batch(corpus):
    reports = []
    config = TrainConfig(steps=3, batch_size=4, eval_every=3, eval_batches=1)
    result = train(small_model(corpus.vocabulary.size), corpus, config, on_progress=reports.append)
    tokens = result.steps * config.batch_size * corpus.train.context_length
    assert result.tokens_per_second * result.elapsed == pytest.approx(tokens)
    last = reports[-1]
    assert last.tokens_per_second * last.elapsed == pytest.approx(last.step * config.batch_size * 16)


def test_a_tiny_gradient_clip_holds_the_first_step_to_almost_nothing(corpus):
    """AdamW's first step moves each parameter by about lr whatever the gradient's size, unless
    the gradient is below its epsilon (1e-8): clipped to a norm of 1e-12 it is."""
    moved = {}
    for clip in (1.0, 1e-12):
        model = small_model(corpus.vocabulary.size)
        before = model.lm_head.bias.detach().clone()
        config = TrainConfig(
            steps=1, batch_size=4, warmup_steps=1, learning_rate=1e-2, grad_clip=clip, eval_every=1, eval_batches=1
        )
        train(model, corpus, config)
        moved[clip] = (model.lm_head.bias.detach() - before).abs().max().item()
    assert moved[1.0] > 5e-3 and moved[1e-12] < 1e-5, moved


def test_the_learning_rate_never_goes_below_its_floor():
    config = TrainConfig(steps=100, warmup_steps=10, learning_rate=1e-3, min_learning_rate_ratio=0.1)
    for fraction in (1.0, 1.5, 3.0):
        assert learning_rate_at(fraction, 100, config) == pytest.approx(1e-4)
    assert learning_rate_at(0.5, 9, config) == pytest.approx(1e-3), "the last warmup step reaches the peak"


def test_the_run_draws_batches_evaluations_and_dropout_from_different_streams():
    from gpt_core.train import Generators

    streams = Generators.from_seed(4)
    draws = [torch.rand(4, generator=g) for g in (streams.batches, streams.evaluation, streams.dropout)]
    assert not torch.equal(draws[0], draws[1]) and not torch.equal(draws[1], draws[2])
    again = Generators.from_seed(4)
    assert torch.equal(torch.rand(4, generator=again.batches), draws[0]), "each stream follows the seed"


@pytest.mark.parametrize(
    ("kwargs", "ok"),
    [
        (dict(steps=20_000), True),
        (dict(steps=20_001), False),
        (dict(steps=0), False),
        (dict(steps=1), True),
        (dict(steps=None, seconds=600.0), True),
        (dict(steps=None, seconds=0.0), False),
        (dict(steps=None, seconds=600.5), False),
        (dict(max_seconds=0.0), False),
        (dict(max_seconds=601.0), False),
    ],
)
def test_training_budgets_are_checked_at_their_bounds(kwargs, ok):
    if ok:
        TrainConfig(**kwargs)
        return
    with pytest.raises(InputError) as info:
        TrainConfig(**kwargs)
    assert info.value.code == "steps_range"


def test_history_points_round_trip_and_leave_out_a_missing_test_loss():
    from gpt_core import last_test_loss

    plain, evaluated = HistoryPoint(3, 0.123456, 2.345678), HistoryPoint(4, 0.5, 2.0, 1.987654)
    assert "test_loss" not in plain.to_dict() and evaluated.to_dict()["test_loss"] == 1.987654
    assert plain.to_dict(2) == {"step": 3, "elapsed": 0.12, "train_loss": 2.35}
    for point in (plain, evaluated):
        assert HistoryPoint.from_dict(point.to_dict()) == point
    history = [HistoryPoint(1, 0.1, 3.0, 2.9), plain, HistoryPoint(5, 0.6, 2.0, 1.5), HistoryPoint(6, 0.7, 1.9)]
    assert last_test_loss(history) == 1.5, "the latest evaluation"
    assert last_test_loss([plain]) is None


def test_refusals_of_files_and_bytes_carry_the_numbers_their_message_shows(tmp_path):
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("not the corpus", encoding="utf-8")
    expected = hashlib.sha256(b"the corpus").hexdigest()
    with pytest.raises(InputError) as info:
        read_verified(wrong, expected)
    actual = hashlib.sha256(wrong.read_bytes()).hexdigest()
    assert info.value.params == {"path": str(wrong), "expected": expected[:12], "actual": actual[:12]}
    with pytest.raises(InputError) as info:
        decode_user_text(b"x" * 101, max_bytes=100)
    assert info.value.params == {"size": 101, "limit": 100}
    with pytest.raises(InputError) as info:
        decode_user_text(b"caf\xe9 au lait")
    assert info.value.params == {"position": 3}, "the first byte that is not UTF-8"


def test_a_training_forward_draws_every_dropout_mask_from_its_generator(corpus):
    config = GPTConfig(
        vocab_size=corpus.vocabulary.size, context_length=16, embedding_dim=16, heads=2, blocks=2, dropout=0.3
    )
    model = GPT(config, seed=1)
    inputs, targets = corpus.train.batch(torch.arange(2))
    evaluated = model.eval()(inputs)[0]
    model.train()
    torch.manual_seed(0)
    before = torch.rand(3)
    torch.manual_seed(0)
    first = model(inputs, targets, generator=torch.Generator().manual_seed(5))[0]
    assert torch.equal(torch.rand(3), before), "nothing was drawn from torch's global state"
    assert torch.equal(model(inputs, targets, generator=torch.Generator().manual_seed(5))[0], first)
    assert not torch.allclose(first, evaluated), "dropout acted"
    other = model(inputs, targets, generator=torch.Generator().manual_seed(6))[0]
    assert not torch.equal(other, first), "another generator, other masks"


def test_gpt_config_head_dim_and_refusals_name_their_values():
    assert GPTConfig(vocab_size=5, embedding_dim=48, heads=3).head_dim == 16
    with pytest.raises(InputError) as info:
        GPTConfig(vocab_size=5, blocks=0)
    assert info.value.params == {"name": "blocks", "value": 0}
    with pytest.raises(InputError) as info:
        GPTConfig(vocab_size=5, embedding_dim=10, heads=4)
    assert info.value.params == {"output_dim": 10, "num_heads": 4}
    with pytest.raises(InputError) as info:
        GPTConfig(vocab_size=5, dropout=-0.5)
    assert info.value.code == "dropout_range" and info.value.params == {"dropout": -0.5}
    assert GPTConfig(vocab_size=1, context_length=1, embedding_dim=1, heads=1, blocks=1).head_dim == 1


def test_progress_reports_are_the_history_with_the_schedule_and_the_budget_used(corpus):
    reports = []
    config = TrainConfig(steps=4, batch_size=4, eval_every=2, eval_batches=1, warmup_steps=2, learning_rate=1e-2)
    result = train(small_model(corpus.vocabulary.size), corpus, config, on_progress=reports.append)
    assert [report.point for report in reports] == result.history
    for k, report in enumerate(reports):
        point = result.history[k]
        assert (report.step, report.elapsed, report.train_loss, report.test_loss) == (
            point.step,
            point.elapsed,
            point.train_loss,
            point.test_loss,
        )
        assert report.fraction == pytest.approx((k + 1) / 4), "a steps budget: steps done / steps"
        assert report.learning_rate == pytest.approx(learning_rate_at(k / 4, k, config))
    assert [report.learning_rate for report in reports[:2]] == pytest.approx([5e-3, 1e-2]), "warmup"
    assert result.final_test_loss == result.history[-1].test_loss and not result.stopped_early


def test_stopping_before_the_first_step_trains_nothing(corpus):
    model = small_model(corpus.vocabulary.size)
    before = {name: tensor.clone() for name, tensor in model.state_dict().items()}
    result = train(model, corpus, TrainConfig(steps=5, batch_size=4), should_stop=lambda: True)
    assert result.steps == 0 and result.history == [] and result.stopped_early
    assert math.isnan(result.final_test_loss)
    assert all(torch.equal(before[name], tensor) for name, tensor in model.state_dict().items())


def test_a_refused_budget_names_its_bounds_and_unit():
    with pytest.raises(InputError) as info:
        TrainConfig(steps=0)
    assert info.value.params == {"low": 1, "high": 20_000, "unit": "steps", "value": 0}
    with pytest.raises(InputError) as info:
        TrainConfig(steps=None, seconds=-1.0)
    assert info.value.params == {"low": 0, "high": 600.0, "unit": "seconds", "value": -1.0}
    with pytest.raises(InputError) as info:
        TrainConfig(steps=None, seconds=None)
    assert info.value.params == {"steps": None, "seconds": None}


def test_run_summary_from_a_result_rounds_only_when_asked():
    from gpt_core import TrainResult
    from gpt_core.runs import HISTORY_EVERY, compact_history

    history = [
        HistoryPoint(step, step * 0.123456, 3.0 - step * 0.0111111, 2.5 if step == 20 else None)
        for step in range(1, 26)
    ]
    result = TrainResult(
        steps=25,
        elapsed=3.456789,
        tokens_per_second=1234.56789,
        final_test_loss=2.345678,
        stopped_early=False,
        history=history,
    )
    summary = RunSummary.from_result(4, 999, result, sample="abc", seed=7)
    assert (summary.heads, summary.parameters, summary.steps, summary.seed, summary.sample) == (4, 999, 25, 7, "abc")
    assert (summary.wall_time, summary.tokens_per_second, summary.final_test_loss) == (3.456789, 1234.56789, 2.345678)
    assert summary.history == history and summary.history is not history
    record = summary.to_dict(2)
    assert (record["wall_time"], record["tokens_per_second"], record["final_test_loss"]) == (3.46, 1234.57, 2.35)
    assert record["history"][0] == {"step": 1, "elapsed": 0.12, "train_loss": 2.99}
    assert summary.to_dict()["wall_time"] == 3.456789, "no digits: no rounding"
    assert RunSummary.from_dict(summary.to_dict()) == summary
    unevaluated = RunSummary(1, 1, 1, 1.0, 1.0, None)
    assert (
        unevaluated.to_dict(2)["final_test_loss"] is None and RunSummary.from_dict(unevaluated.to_dict()) == unevaluated
    )
    kept = [point.step for point in compact_history(history)]
    assert kept == [step for step in range(1, 26) if step % HISTORY_EVERY == 0 or step == 20]


@pytest.mark.parametrize("kind", ["copy", "previous", "induction"])
def test_every_piece_of_a_synthetic_corpus_has_its_structure(kind):
    text = synthetic_text(kind, 5000, seed=2)
    if kind == "copy":
        pieces = text.split(".")[:-1]  # the last piece may be cut
        for piece in pieces:
            word, copy = piece.split("=")
            assert word == copy and word.isalpha() and word.islower(), piece
        assert len({piece for piece in pieces}) > 10, "random words"
    if kind == "previous":
        runs = text.split(".")[:-1]
        for run in runs:
            assert len(run) >= 2 and all(ord(b) == ord(a) + 1 for a, b in zip(run, run[1:], strict=False)), run
        assert len({run[0] for run in runs}) > 5, "runs start at random letters"
    if kind == "induction":
        for line in text.split("\n")[:-1]:
            pairs = line.split(" ")
            assert len(pairs) == 6 and all(len(pair) == 2 and pair.isalpha() for pair in pairs), line
            assert sorted(pairs[:3]) == sorted(pairs[3:]), line
    assert synthetic_text(kind, 5000, seed=3) != text, "another seed, another text"
    with pytest.raises(InputError) as info:
        synthetic_text("reverse")
    assert info.value.code == "unknown_choice"
