"""The heads experiment's times against a clock the test controls: gpt_core.train and
gpt_core.experiment read ``time.perf_counter`` from their own ``time``, which these tests
replace by a clock that moves only when a training step, a held-out batch or a sample
"takes" the seconds the test gives it (each then runs for real). Every expected number is
worked out here from what the docstrings state: measure_step_times times PROBE_STEPS (2)
steps after one untimed warm-up step, one held-out batch and PROBE_TOKENS (10) sampled
characters, at the sampling settings of the experiment (temperature 0.8, top 10), of a fresh
model seeded like the run; a run's wall time is its training steps' time."""

from __future__ import annotations

import importlib
import inspect
from types import SimpleNamespace

import pytest
import torch

from gpt_core import GPT, GPTConfig, TrainConfig, build_corpus
from gpt_core.experiment import StepTimes, heads_statistics, measure_step_times, run_heads_experiment

TRAINING = importlib.import_module("gpt_core.train")  # the modules: the package exports functions of these names
EXPERIMENT = importlib.import_module("gpt_core.experiment")
START = 1000.0  # the clock's first reading: every time below is a sum of binary fractions
TEXT = "ROMEO:\nBut soft, what light through yonder window breaks?\n" * 40


class FakeClock:
    """``perf_counter`` that stands still until something the test times moves it."""

    def __init__(self) -> None:
        self.now = START

    def perf_counter(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def corpus():
    """The corpus, and a first model built once: torch imports its compiler the first time
    a model is made (seconds on a busy machine), a cost of the process, not of a test."""
    corpus = build_corpus("user", TEXT, context_length=8)
    GPT(_config(corpus, heads=1))
    return corpus


def _config(corpus, heads: int) -> GPTConfig:
    return GPTConfig(vocab_size=corpus.vocabulary.size, context_length=8, embedding_dim=8, heads=heads, blocks=1)


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    torch.set_num_threads(1)
    fake = FakeClock()
    for module in (TRAINING, EXPERIMENT):
        monkeypatch.setattr(module, "time", SimpleNamespace(perf_counter=fake.perf_counter))
    return fake


def _steps_take(monkeypatch, clock: FakeClock, seconds) -> None:
    """The i-th training step of a model takes ``seconds(model, i)`` on the clock."""
    real_step = TRAINING.training_step
    taken: dict[GPT, int] = {}

    def step(model, *args, **kwargs):
        index = taken.get(model, 0)
        taken[model] = index + 1
        clock.now += seconds(model, index)
        return real_step(model, *args, **kwargs)

    monkeypatch.setattr(TRAINING, "training_step", step)


def _arguments(function, args, kwargs) -> dict:
    """A call's arguments by name, defaults included (however they were passed)."""
    bound = inspect.signature(function).bind(*args, **kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


def _calls_recorded(monkeypatch, clock: FakeClock, took: dict[str, float]) -> dict[str, list[dict]]:
    """The experiment's calls of ``train``, ``evaluate`` and ``generate``, each recorded by its
    arguments' names (``train``'s with the model's first weights, as ``first_weights``), then
    run for real; ``evaluate`` and ``generate`` take ``took[name]`` × the model's heads seconds."""
    calls = {"train": [], "evaluate": [], "generate": []}
    real = {name: getattr(EXPERIMENT, name) for name in calls}

    def spy(name):
        def call(*args, **kwargs):
            arguments = _arguments(real[name], args, kwargs)
            model = arguments["model"]
            if name == "train":
                arguments["first_weights"] = {key: value.clone() for key, value in model.state_dict().items()}
            else:
                clock.now += took[name] * model.config.heads
            calls[name].append(arguments)
            return real[name](*args, **kwargs)

        return call

    for name in calls:
        monkeypatch.setattr(EXPERIMENT, name, spy(name))
    return calls


def test_step_times_are_the_probes_measured_times_of_a_fresh_model_per_head_count(corpus, clock, monkeypatch):
    """h heads: the warm-up step takes 7 s, the timed ones 1.5 h and 2.5 h s (a step: 2 h s),
    the held-out batch 0.25 h s, the 10 sampled characters 1.25 h s (0.125 h s each). The
    probe trains 3 steps of a steps budget with no cap and no evaluation but the final one
    (one batch), whatever the experiment's budget; it samples from "ROMEO:\\n"."""
    _steps_take(monkeypatch, clock, lambda model, i: [7.0, 1.5, 2.5][i] * (model.config.heads if i else 1))
    calls = _calls_recorded(monkeypatch, clock, took={"evaluate": 0.25, "generate": 1.25})
    config = TrainConfig(
        steps=None,
        seconds=30.0,
        max_seconds=20.0,
        batch_size=4,
        eval_every=5,
        eval_batches=6,
        seed=5,
        learning_rate=0.01,
    )
    times = measure_step_times(corpus, _config(corpus, heads=1), config, head_counts=(1, 2))

    assert times == {
        1: StepTimes(train_step=2.0, forward=0.25, sample_token=0.125),
        2: StepTimes(train_step=4.0, forward=0.5, sample_token=0.25),
    }
    probe = TrainConfig(steps=3, batch_size=4, eval_every=20_000, eval_batches=1, seed=5, learning_rate=0.01)
    assert [call["config"] for call in calls["train"]] == [probe, probe]
    models = [call["model"] for call in calls["train"]]
    assert [model.config for model in models] == [_config(corpus, heads=1), _config(corpus, heads=2)]
    for model, call in zip(models, calls["train"], strict=True):
        assert call["corpus"] is corpus
        fresh = GPT(model.config, seed=5).state_dict()  # the run's seed sets the first weights
        assert all(torch.equal(call["first_weights"][key], fresh[key]) for key in fresh)
    for model, call in zip(models, calls["evaluate"], strict=True):
        assert call["model"] is model and call["corpus"] is corpus
        assert (call["batches"], call["batch_size"], call["generator"]) == (1, 4, None)
    prompt = [corpus.vocabulary.chars.index(char) for char in "ROMEO:\n"]
    for model, call in zip(models, calls["generate"], strict=True):
        assert call["model"] is model
        assert {key: value for key, value in call.items() if key != "model"} == {
            "prompt_ids": prompt,
            "max_new_tokens": 10,
            "temperature": 0.8,
            "top_k": 10,
            "seed": 5,
            "max_seconds": None,
        }


def test_an_experiments_runs_keep_their_wall_time_speed_and_parameters_and_average_them(corpus, clock, monkeypatch):
    """Two seeds of 2 heads, 2 steps each: seed 0's steps take 1 and 2 s, seed 1's 2.5 s
    each. Wall times 3 s and 5 s; 2 steps × 4 windows × 8 characters = 64 tokens, so 64 / 3
    and 12.8 tokens per second; over the seeds, 4 s and their mean speed. The parameters
    of a one-block model of 8 channels and context 8 over V characters: embeddings 8 V + 64,
    the block 848 (two LayerNorms 32, query/key/value 192, output 72, MLP 288 + 264), the
    final LayerNorm 16 and the head 8 V + V: 17 V + 928."""
    durations = [[1.0, 2.0], [2.5, 2.5]]  # by run, in the order the models are trained
    runs_seen: list[GPT] = []

    def seconds(model, i):
        if model not in runs_seen:
            runs_seen.append(model)
        return durations[runs_seen.index(model)][i]

    _steps_take(monkeypatch, clock, seconds)
    config = TrainConfig(steps=2, batch_size=4, eval_every=100, eval_batches=1)
    runs = run_heads_experiment(corpus, _config(corpus, heads=1), config, head_counts=(2,), seeds=(0, 1))

    summaries = [run.summary for run in runs]
    parameters = 17 * len(set(TEXT)) + 928
    assert [(s.seed, s.steps, s.wall_time, s.parameters) for s in summaries] == [
        (0, 2, 3.0, parameters),
        (1, 2, 5.0, parameters),
    ]
    assert [s.tokens_per_second for s in summaries] == [64 / 3.0, 12.8]
    assert [[point.elapsed for point in s.history] for s in summaries] == [[3.0], [5.0]], "the evaluated last step"
    [stats] = heads_statistics(summaries)
    assert (stats.heads, stats.seeds, stats.parameters) == (2, (0, 1), parameters)
    assert stats.wall_time == 4.0
    assert stats.tokens_per_second == pytest.approx((64 / 3.0 + 12.8) / 2)
