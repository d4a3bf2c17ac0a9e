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
    with pytest.raises(InputError, match="context_length"):
        model(torch.zeros(1, 17, dtype=torch.long))


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
    [("", "empty_text"), ("   \n", "empty_text"), ("abc" * 20, "corpus_too_short"),
     ("".join(chr(0x4E00 + i) for i in range(600)) * 3, "vocab_too_large")],
)  # fmt: skip
def test_bad_corpora_are_refused_with_a_reason(text, code):
    with pytest.raises(InputError) as info:
        build_corpus("user", text, context_length=32)
    assert info.value.code == code


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
    result = train(model, corpus, TrainConfig(steps=500, batch_size=8), on_progress=reports.append,
                   should_stop=lambda: len(reports) >= 7)  # fmt: skip
    assert result.steps == 7 and result.stopped_early


def test_time_budget_ends_training(corpus):
    model = small_model(corpus.vocabulary.size)
    result = train(model, corpus, TrainConfig(steps=None, seconds=0.5, batch_size=8))
    assert result.steps > 0 and result.elapsed >= 0.5 and not result.stopped_early


def test_generation_is_deterministic_for_a_seed_and_greedy_at_temperature_zero(corpus):
    model = small_model(corpus.vocabulary.size)
    prompt = corpus.vocabulary.encode("abc=")
    first = generate(model, prompt, 20, temperature=1.0, top_k=5, seed=3)
    assert first == generate(model, prompt, 20, temperature=1.0, top_k=5, seed=3)
    assert first != generate(model, prompt, 20, temperature=1.0, top_k=5, seed=4)
    assert len(first) == 20
    greedy = generate(model, prompt, 10, temperature=0)
    assert greedy == generate(model, prompt, 10, temperature=0, seed=99)


def test_top_k_one_is_greedy(corpus):
    model = small_model(corpus.vocabulary.size)
    prompt = corpus.vocabulary.encode("ab")
    assert generate(model, prompt, 8, temperature=1.0, top_k=1, seed=1) == generate(model, prompt, 8, temperature=0)


def test_generation_longer_than_the_context_slides_the_window(corpus):
    model = small_model(corpus.vocabulary.size)
    assert len(generate(model, corpus.vocabulary.encode("a"), 40, seed=0)) == 40


# --- checkpoints -----------------------------------------------------------------------------


def test_checkpoint_round_trip_with_weights_only(corpus, tmp_path):
    model = small_model(corpus.vocabulary.size).eval()
    run = RunSummary(heads=2, parameters=model.parameter_count(), steps=3, wall_time=1.0, tokens_per_second=10.0,
                     final_test_loss=2.5, history=[HistoryPoint(1, 0.5, 3.0), HistoryPoint(3, 1.0, 2.7, 2.5)])  # fmt: skip
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
    with pytest.raises(pickle.UnpicklingError):
        load_checkpoint(path)
    assert not (tmp_path / "pwned").exists()


def test_missing_tiny_shakespeare_says_where_to_put_it(monkeypatch):
    import gpt_core.data

    monkeypatch.setattr(gpt_core.data, "find_tiny_shakespeare", lambda: None)
    with pytest.raises(InputError, match="TINY_SHAKESPEARE"):
        gpt_core.data.load_tiny_shakespeare()


def test_generation_from_an_empty_prompt(corpus):
    model = small_model(corpus.vocabulary.size)
    assert len(generate(model, [], 5, seed=0)) == 5
