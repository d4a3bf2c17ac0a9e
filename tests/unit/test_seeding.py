"""Randomness comes from explicit generators: the same configuration gives bit-identical
numbers whatever other threads (other students' sessions) do at the same moment."""

from __future__ import annotations

import threading

import pytest
import torch
from torch import nn

from gpt_core import (
    GPT,
    GPTConfig,
    MultiHeadAttention,
    PlaygroundConfig,
    TrainConfig,
    build_corpus,
    generate,
    synthetic_text,
    trace_attention,
    train,
)
from gpt_core.seeding import build_seeded, dropout, initialize, seeded_generator

THREADS = 4
CALLS_PER_THREAD = 100
TRAIN_EVERY = 25  # every n-th call of a thread trains a few steps instead
LINK = ("The cat sat on the mat.", PlaygroundConfig(heads=4, head_dim=4, seed=7))
LINK_DROPOUT = ("The cat sat on the mat.", PlaygroundConfig(heads=4, head_dim=4, seed=7, dropout=0.3, training=True))
OTHERS = [
    ("动手学大模型", PlaygroundConfig(heads=2, head_dim=8, seed=1)),
    ("to be or not to be", PlaygroundConfig(heads=8, head_dim=2, seed=99, dropout=0.5, training=True)),
    ("abcabcabc", PlaygroundConfig(heads=1, head_dim=16, seed=3, tokenizer="char", qkv_bias=True)),
]


@pytest.fixture(scope="module")
def corpus():
    return build_corpus("copy", synthetic_text("copy", 3000), context_length=8)


def _train_tiny(corpus, seed: int) -> dict[str, torch.Tensor]:
    config = GPTConfig(
        vocab_size=corpus.vocabulary.size, context_length=8, embedding_dim=8, heads=2, blocks=1, dropout=0.1
    )
    model = GPT(config, seed=seed)
    train(model, corpus, TrainConfig(steps=3, batch_size=4, eval_every=3, eval_batches=1, seed=seed))
    return {name: tensor.clone() for name, tensor in model.state_dict().items()}


def _traced(text: str, config: PlaygroundConfig) -> dict[str, torch.Tensor]:
    return trace_attention(text, config).trace.tensors()


def _assert_identical(actual: dict[str, torch.Tensor], expected: dict[str, torch.Tensor], what: str) -> None:
    assert actual.keys() == expected.keys(), what
    for name in expected:
        assert torch.equal(actual[name], expected[name]), f"{what}: {name} differs"


def test_initialize_draws_the_numbers_torch_manual_seed_would():
    torch.manual_seed(5)
    reference = MultiHeadAttention(6, 8, 10, 0.0, 2, qkv_bias=True)
    seeded = initialize(MultiHeadAttention(6, 8, 10, 0.0, 2, qkv_bias=True), seeded_generator(5))
    _assert_identical(seeded.state_dict(), reference.state_dict(), "attention layer")
    config = GPTConfig(vocab_size=11, context_length=8, embedding_dim=8, heads=2, blocks=2)
    built = GPT(config, seed=3)
    torch.manual_seed(3)  # torch's own initialisation of the same layers, in the same order
    C, T, V = config.embedding_dim, config.context_length, config.vocab_size
    reference = {"token_embedding": nn.Embedding(V, C), "position_embedding": nn.Embedding(T, C)}
    for b in range(config.blocks):
        reference[f"blocks.{b}.attention"] = MultiHeadAttention(C, C, T, 0.0, config.heads)
        reference[f"blocks.{b}.feed_forward.0"] = nn.Linear(C, 4 * C)
        reference[f"blocks.{b}.feed_forward.2"] = nn.Linear(4 * C, C)
    reference["lm_head"] = nn.Linear(C, V)
    state = built.state_dict()
    for prefix, layer in reference.items():
        for name, tensor in layer.state_dict().items():
            assert torch.equal(state[f"{prefix}.{name}"], tensor), f"{prefix}.{name}"
    for name, tensor in state.items():
        if "norm" in name:
            assert torch.equal(tensor, torch.ones_like(tensor) if name.endswith("weight") else torch.zeros_like(tensor))
    assert not torch.equal(GPT(config, seed=4).lm_head.weight, built.lm_head.weight)


def test_dropout_from_a_generator_zeroes_cells_and_scales_survivors():
    layer = torch.nn.Dropout(0.25).train()
    x = torch.rand(64, 64) + 0.5
    first = dropout(x, layer, seeded_generator(1))
    assert torch.equal(first, dropout(x, layer, seeded_generator(1)))
    kept = first != 0
    torch.testing.assert_close(first[kept], x[kept] / 0.75)
    assert 0.15 < 1 - kept.float().mean().item() < 0.35
    assert torch.equal(dropout(x, layer.eval(), seeded_generator(1)), x), "eval mode changes nothing"


def test_many_threads_get_bit_identical_numbers_for_the_same_configuration(corpus):
    jobs = [LINK, LINK_DROPOUT, *OTHERS]
    expected = {index: _traced(*job) for index, job in enumerate(jobs)}
    expected_model = _train_tiny(corpus, seed=11)
    failures: list[str] = []
    stop_noise = threading.Event()

    def noise() -> None:  # another session seeding and drawing from torch's global state
        while not stop_noise.is_set():
            torch.manual_seed(int(torch.randint(0, 1000, (1,))))
            torch.rand(100)

    finished: list[int] = []

    def student(offset: int) -> None:
        # Every exception counts, not only a failed comparison: a computation that raises in
        # a thread must fail the test too (a thread's exception never reaches pytest).
        try:
            for call in range(CALLS_PER_THREAD):
                if call % TRAIN_EVERY == offset:
                    _assert_identical(_train_tiny(corpus, seed=11), expected_model, "a training")
                    continue
                index = (call + offset) % len(jobs)
                _assert_identical(_traced(*jobs[index]), expected[index], f"job {index}")
            finished.append(offset)
        except BaseException as error:  # noqa: BLE001  # reported below, whatever it is
            failures.append(f"thread {offset}: {type(error).__name__}: {error}")

    noisy = threading.Thread(target=noise)
    noisy.start()
    threads = [threading.Thread(target=student, args=(offset,)) for offset in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop_noise.set()
    noisy.join()
    assert not failures, failures[:5]
    assert sorted(finished) == list(range(THREADS)), "every thread ran all its calls"


def test_two_overlapping_trainings_give_the_same_models_as_each_alone(corpus):
    alone = [_train_tiny(corpus, seed) for seed in (1, 2)]
    together: dict[int, dict] = {}
    threads = [threading.Thread(target=lambda s=s: together.__setitem__(s, _train_tiny(corpus, s))) for s in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    _assert_identical(together[1], alone[0], "seed 1")
    _assert_identical(together[2], alone[1], "seed 2")


def test_generation_depends_only_on_its_seed(corpus):
    model = GPT(GPTConfig(vocab_size=corpus.vocabulary.size, context_length=8, embedding_dim=8, heads=2, blocks=1))
    prompt = corpus.vocabulary.encode("abc=")
    torch.manual_seed(0)
    first = generate(model, prompt, 30, temperature=1.0, seed=5)
    torch.manual_seed(12345)
    assert generate(model, prompt, 30, temperature=1.0, seed=5) == first


def test_the_dropout_mask_is_drawn_in_the_inputs_precision():
    """A float64 input's mask is the generator's float64 draw (written out here), kept where it
    is at least p; the survivors scaled by 1 / (1 − p)."""
    x = torch.rand(4, 6, dtype=torch.float64, generator=torch.Generator().manual_seed(3)) + 1
    layer = nn.Dropout(0.4).train()
    keep = torch.rand(x.shape, generator=torch.Generator().manual_seed(5), dtype=torch.float64) >= 0.4
    assert torch.equal(dropout(x, layer, seeded_generator(5)), x * keep / 0.6)


def test_a_module_built_on_the_meta_device_fills_its_mask_once_it_has_memory(monkeypatch):
    filled = []
    triu = torch.triu
    monkeypatch.setattr(torch, "triu", lambda *args, **kw: filled.append(args[0].device.type) or triu(*args, **kw))
    module = build_seeded(lambda: MultiHeadAttention(4, 4, 5, 0.0, 2), seeded_generator(0))
    assert filled == ["cpu"], "the meta module's mask was computed (it holds no numbers)"
    # 1 marks a key after the query: row i is 0 up to column i and 1 after it.
    expected = [[1.0 if key > query else 0.0 for key in range(5)] for query in range(5)]
    assert module.mask.tolist() == expected
