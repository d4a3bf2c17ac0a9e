"""The Train page's heads experiment answers at its defaults.

The runs of the page's default experiment, stored by benchmarks/in_class_experiment.py in
tests/golden/in_class_experiment.json, are checked against the page's own constants (so a
changed default fails here until it is measured again), and gpt_core.experiment.answer on
them must be a clear reading over several seeds: never "too short" or "cannot tell".
Running all of them takes minutes (the benchmark does); here one run's warm-up is
reproduced (its learning rate does not depend on the run's length)."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path

import pytest
import torch

from gpt_core import GPT, RunSummary, build_corpus, find_tiny_shakespeare, load_tiny_shakespeare, synthetic_text, train
from gpt_core.experiment import HEAD_COUNTS, answer
from gpt_core.reproduce import COMPUTE_THREADS
from gpt_core.runs import HISTORY_EVERY
from links.train import EXPERIMENT_DEFAULT_SEEDS, EXPERIMENT_DEFAULT_STEPS
from string_table import t
from ui.shared.resources import SYNTHETIC_LENGTH
from ui.shared.verdict import answer_text
from ui.train.plan import default_plan
from ui.train.state import PAGE

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "in_class_experiment.json"
REPRODUCED_HEADS = 2
MARGIN = 2.0  # a worse head count trails the best by this many times the noise, at least
STORED_DIGITS = 1e-4  # losses are stored to 4 digits


def _stored() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def _runs() -> list[RunSummary]:
    return [RunSummary.from_dict(run) for run in _stored()["runs"]]


def test_the_stored_runs_are_the_pages_defaults():
    record = _stored()
    plan = default_plan(record["base"]["vocab_size"])
    assert record["corpus"] == PAGE.by_name["corpus"].default
    recipe = {name: value for name, value in asdict(plan.train).items() if name != "max_bytes"}  # the host's bound
    assert record["base"] == asdict(plan.base) and record["train"] == recipe
    assert record["seeds"] == list(plan.seeds) == list(range(EXPERIMENT_DEFAULT_SEEDS))
    assert record["torch_threads"] == COMPUTE_THREADS, "computed as the app computes"
    runs = _runs()
    assert sorted((run.heads, run.seed) for run in runs) == [(h, s) for h in HEAD_COUNTS for s in plan.seeds]
    assert all(run.steps == EXPERIMENT_DEFAULT_STEPS for run in runs), "no run was cut short by the time cap"


def test_at_its_defaults_the_experiment_answers_whether_more_heads_are_better():
    runs = _runs()
    verdict = answer(runs)
    assert verdict.reading == "clear" and verdict.seeds == EXPERIMENT_DEFAULT_SEEDS > 1
    assert verdict.at_steps.worse, "some head count is worse than the best by more than the seed spread"
    stats = {item.heads: item for item in verdict.stats}
    best = stats[verdict.at_steps.best]
    for heads in verdict.at_steps.worse:
        noise = max(stats[heads].spread, best.spread)
        assert stats[heads].mean - best.mean > MARGIN * noise, f"h = {heads} is worse with room to spare"
    for lang in ("en", "zh"):
        said = answer_text(runs, lang)
        for unanswered in ("tr.verdict.more_unknown", "tr.verdict.more_one_seed"):
            assert t(unanswered, lang) not in said


@pytest.fixture
def default_corpus():
    name, context = PAGE.by_name["corpus"].default, PAGE.by_name["context"].default
    if name == "tinyshakespeare":
        if find_tiny_shakespeare() is None:
            pytest.skip("Tiny Shakespeare not found (set TINY_SHAKESPEARE): the check needs the corpus")
        return build_corpus(name, load_tiny_shakespeare(), context)
    return build_corpus(name, synthetic_text(name, SYNTHETIC_LENGTH), context)


@pytest.fixture
def app_threads():
    """The app's thread count while the test computes (the stored runs were made with it)."""
    before = torch.get_num_threads()
    torch.set_num_threads(COMPUTE_THREADS)
    yield
    torch.set_num_threads(before)


@pytest.mark.corpus
def test_the_stored_runs_come_from_this_code_one_warm_up_reproduced(default_corpus, app_threads):
    record = _stored()
    assert record["corpus_sha256"] == default_corpus.sha256
    plan = default_plan(default_corpus.vocabulary.size)
    stored = next(run for run in _runs() if run.heads == REPRODUCED_HEADS and run.seed == plan.seeds[0])
    warm_up = replace(plan.train, steps=plan.train.warmup_steps, seed=stored.seed, max_seconds=None)
    model = GPT(replace(plan.base, heads=REPRODUCED_HEADS), seed=stored.seed)
    again = {point.step: point for point in train(model, default_corpus, warm_up).history}
    compared = [point for point in stored.history if point.step < warm_up.steps]
    assert len(compared) >= warm_up.steps // HISTORY_EVERY - 1
    for point in compared:
        assert again[point.step].train_loss == pytest.approx(point.train_loss, abs=STORED_DIGITS), point.step
        if point.test_loss is not None:
            assert again[point.step].test_loss == pytest.approx(point.test_loss, abs=STORED_DIGITS), point.step
