"""The heads experiment, its shipped results, and the training figures."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest
import torch

from figures.training import HEAD_COUNT_COLORS, experiment_figure, loss_curve_figure
from gpt_core import GPTConfig, HistoryPoint, RunSummary, TrainConfig, build_corpus, compact_history, synthetic_text
from gpt_core.experiment import answer, attention_snapshot, run_heads_experiment
from gpt_core.results import load_experiment
from ui.figure_text import training_text

EN = training_text("en")

ASSETS = Path(__file__).resolve().parents[2] / "assets"


def _record(heads, loss, speed, params=100):
    return RunSummary(heads=heads, parameters=params, steps=1, wall_time=1.0, tokens_per_second=speed,
                      final_test_loss=loss)  # fmt: skip


def test_answer_reads_the_numbers():
    facts = answer([_record(1, 1.9, 1000), _record(2, 1.8, 900), _record(4, 1.85, 800), _record(8, 1.86, 500)])
    assert facts["best_heads"] == 2 and facts["most_heads"] == 8
    assert facts["fastest_heads"] == 1 and facts["slowest_heads"] == 8 and facts["speed_ratio"] == 2.0
    assert facts["spread"] == pytest.approx(0.1) and facts["same_parameters"]
    assert not facts["more_is_better"]
    assert answer([_record(1, 2.0, 1), _record(2, 1.9, 1)])["more_is_better"]
    assert not answer([_record(1, 2.0, 1, 5), _record(2, 1.9, 1, 6)])["same_parameters"]


def test_small_experiment_runs_every_head_count_with_equal_parameters_and_snapshots():
    corpus = build_corpus("previous", synthetic_text("previous", 4000), context_length=16)
    base = GPTConfig(vocab_size=corpus.vocabulary.size, context_length=16, embedding_dim=16, heads=1, blocks=1)
    seen = []
    runs = run_heads_experiment(corpus, base, TrainConfig(steps=6, batch_size=8, eval_every=3),
                                snapshot_steps=(0, 3), on_progress=lambda h, p: seen.append((h, p.step)))  # fmt: skip
    assert [run.summary.heads for run in runs] == [1, 2, 4, 8]
    assert len({run.summary.parameters for run in runs}) == 1
    assert seen[:6] == [(1, step) for step in range(1, 7)]
    for run in runs:
        assert sorted(run.snapshots) == [0, 3, 6]
        assert run.snapshots[6].shape[1] == run.summary.heads
        assert run.summary.steps == 6 and isinstance(run.summary.sample, str) and run.summary.sample
        assert RunSummary.from_dict(run.summary.to_dict()) == run.summary


def test_attention_snapshot_rows_sum_to_one():
    corpus = build_corpus("copy", synthetic_text("copy", 3000), context_length=8)
    from gpt_core import GPT

    model = GPT(GPTConfig(vocab_size=corpus.vocabulary.size, context_length=8, embedding_dim=8, heads=2, blocks=2))
    weights = attention_snapshot(model, corpus.vocabulary.encode("abc=abc."))
    assert weights.shape == (2, 2, 8, 8)
    torch.testing.assert_close(weights.sum(-1), torch.ones(2, 2, 8))


def test_compact_history_keeps_every_evaluation():
    history = [HistoryPoint(s, 0.1 * s, 1.0, 2.0 if s % 7 == 0 else None) for s in range(1, 50)]
    kept = [point.step for point in compact_history(history, every=10)]
    assert kept == [7, 10, 14, 20, 21, 28, 30, 35, 40, 42, 49]


def test_shipped_results_are_complete_small_and_consistent():
    experiment = load_experiment(ASSETS / "heads_experiment")
    assert experiment is not None
    assert experiment.corpus_sha256 == "86c4e6aa9db7c042ec79f339dcb96d42b0075e16b8fc2e86bf0ca57e2dc565ed"
    assert [run.heads for run in experiment.runs] == [1, 2, 4, 8]
    assert len({run.parameters for run in experiment.runs}) == 1
    assert sum(path.stat().st_size for path in ASSETS.rglob("*") if path.is_file()) <= 5_000_000
    for run in experiment.runs:
        checkpoint = experiment.checkpoint(run.heads)
        assert checkpoint.model.config.heads == run.heads
        assert checkpoint.meta.run.final_test_loss == pytest.approx(run.final_test_loss, abs=1e-3)
        assert checkpoint.meta.run.steps == run.steps
        snapshots = experiment.snapshots(run.heads)
        assert 0 in snapshots and run.steps in snapshots
        np.testing.assert_allclose(snapshots[run.steps].sum(-1), 1.0, atol=1e-2)  # float16 on disk
    assert load_experiment(ASSETS / "nowhere") is None


def test_loss_curve_has_train_and_held_out_lines():
    history = [HistoryPoint(1, 0.1, 3.0), HistoryPoint(2, 0.2, 2.5, 2.6)]
    figure = loss_curve_figure(history, EN)
    names = [trace.name for trace in figure.data]
    assert names == ["train loss", "held-out loss"]
    assert list(figure.data[1].x) == [2] and list(figure.data[1].y) == [2.6]
    assert list(loss_curve_figure(history, EN, x="elapsed").data[0].x) == [0.1, 0.2]
    go.Figure(figure.to_dict())  # valid Plotly


def test_experiment_figure_one_line_per_head_count_in_its_colour():
    runs = [RunSummary(h, 100, 10, 1.0 * h, 1000.0, 2 - h / 10, [HistoryPoint(10, 1.0 * h, 2.0, 2 - h / 10)])
            for h in (1, 2, 4, 8)]  # fmt: skip
    figure = experiment_figure(runs, "elapsed", EN)
    assert [trace.name for trace in figure.data] == ["h = 1", "h = 2", "h = 4", "h = 8"]
    assert [trace.line.color for trace in figure.data] == [HEAD_COUNT_COLORS[h] for h in (1, 2, 4, 8)]
    assert list(figure.data[3].x) == [8.0]
    go.Figure(json.loads(figure.to_json()))
