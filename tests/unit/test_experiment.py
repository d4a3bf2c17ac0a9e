"""The heads experiment, its shipped results, and the training figures."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest
import torch

from figures.training import HEAD_COUNT_COLORS, experiment_figure, final_loss_figure, loss_curve_figure
from gpt_core import GPTConfig, HistoryPoint, RunSummary, TrainConfig, build_corpus, compact_history, synthetic_text
from gpt_core.experiment import answer, attention_snapshot, loss_at_time, run_heads_experiment
from gpt_core.results import load_experiment
from ui.figure_text import training_text

EN = training_text("en")

ASSETS = Path(__file__).resolve().parents[2] / "assets"


def _record(heads, loss, speed, params=100, seed=0, history=()):
    return RunSummary(heads=heads, parameters=params, steps=1, wall_time=1.0, tokens_per_second=speed,
                      final_test_loss=loss, seed=seed, history=list(history))  # fmt: skip


def _seeded(losses_by_heads: dict[int, list[float]], speeds: dict[int, float] | None = None) -> list[RunSummary]:
    speeds = speeds or {heads: 1000.0 / heads for heads in losses_by_heads}
    return [_record(heads, loss, speeds[heads], seed=seed)
            for heads, losses in losses_by_heads.items() for seed, loss in enumerate(losses)]  # fmt: skip


# The table: seeds 0-2 of the book-size experiment.
BOOK_LIKE = {1: [1.805, 1.810, 1.821], 2: [1.763, 1.769, 1.775], 4: [1.766, 1.774, 1.773], 8: [1.776, 1.775, 1.810]}


def test_answer_calls_differences_within_the_seed_spread_ties():
    verdict = answer(_seeded(BOOK_LIKE))
    assert verdict.seeds == 3 and verdict.noise_known
    assert verdict.at_steps.best == 2
    assert verdict.at_steps.ties == (4, 8), "0.002 and 0.018 are within the spreads 0.012 and 0.035"
    assert verdict.at_steps.worse == (1,), "1 head: 0.043 worse, more than either spread"
    assert verdict.least_stable == 8
    assert verdict.slower_with_more_heads and verdict.fastest == 1 and verdict.slowest == 8
    assert verdict.speed_ratio == pytest.approx(8.0)
    stats = {item.heads: item for item in verdict.stats}
    assert stats[2].mean == pytest.approx(1.769) and stats[2].sd == pytest.approx(0.006)
    assert (stats[8].low, stats[8].high) == (1.775, 1.810)


def test_answer_names_a_clear_winner_only_beyond_the_noise():
    verdict = answer(_seeded({1: [2.00, 2.01, 2.02], 2: [1.90, 1.91, 1.92], 4: [1.80, 1.81, 1.80]}))
    assert verdict.at_steps.best == 4 and verdict.at_steps.ties == () and verdict.at_steps.worse == (1, 2)


def test_answer_with_one_seed_does_not_know_the_noise():
    verdict = answer(_seeded({1: [1.90], 2: [1.795], 4: [1.80], 8: [1.85]}))
    assert verdict.seeds == 1 and not verdict.noise_known and verdict.least_stable is None
    assert verdict.at_steps.best == 2
    assert verdict.at_steps.ties == (4,), "0.005 is below the one-seed resolution of 0.01"
    assert not answer([_record(1, 2.0, 1, 5), _record(2, 1.9, 1, 6)]).same_parameters


def test_answer_compares_at_equal_wall_time():
    """h = 8 is slower: at equal time it has had fewer steps, and the ranking changes."""

    def run(heads, seconds_per_step, losses, seed=0):
        history = [HistoryPoint(step, step * seconds_per_step, 9.9, loss) for step, loss in losses]
        return RunSummary(heads, 100, losses[-1][0], losses[-1][0] * seconds_per_step, 1.0 / seconds_per_step,
                          losses[-1][1], history, seed=seed)  # fmt: skip

    runs = [
        run(1, 1.0, [(10, 2.0), (20, 1.9)]),
        run(8, 2.0, [(10, 1.95), (20, 1.7)]),  # best at equal steps, but 40 s in all
    ]
    verdict = answer(runs)
    assert verdict.at_steps.best == 8 and verdict.at_steps.worse == (1,)
    assert verdict.equal_seconds == 20.0, "the shortest run's last evaluation"
    assert verdict.at_time.best == 1 and verdict.at_time.worse == (8,), "after 20 s: 1.9 against 1.95"
    assert loss_at_time(runs[1], 30.0) == pytest.approx(1.825), "halfway between its evaluations at 20 s and 40 s"
    assert loss_at_time(runs[1], 50.0) is None


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


def test_experiment_with_seeds_runs_each_head_count_per_seed_and_snapshots_the_first():
    corpus = build_corpus("previous", synthetic_text("previous", 4000), context_length=16)
    base = GPTConfig(vocab_size=corpus.vocabulary.size, context_length=16, embedding_dim=16, heads=1, blocks=1)
    config = TrainConfig(steps=4, batch_size=8, eval_every=2)
    runs = run_heads_experiment(corpus, base, config, head_counts=(1, 2), snapshot_steps=(0,), seeds=(0, 1))
    assert [(run.summary.heads, run.summary.seed) for run in runs] == [(1, 0), (2, 0), (1, 1), (2, 1)]
    assert [bool(run.snapshots) for run in runs] == [True, True, False, False]
    assert runs[0].summary.final_test_loss != runs[2].summary.final_test_loss, "another seed, another run"
    again = run_heads_experiment(corpus, base, config, head_counts=(2,), seeds=(1,))
    assert again[0].summary.final_test_loss == runs[3].summary.final_test_loss, "a seed reproduces its run"


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
    assert experiment.head_counts == [1, 2, 4, 8] and experiment.seeds == [0, 1, 2]
    assert sorted((run.heads, run.seed) for run in experiment.runs) == [(h, s) for h in (1, 2, 4, 8) for s in (0, 1, 2)]
    assert all(run.final_test_loss is not None and run.history for run in experiment.runs), "every seed is complete"
    assert len({run.parameters for run in experiment.runs}) == 1
    assert sum(path.stat().st_size for path in ASSETS.rglob("*") if path.is_file()) <= 5_000_000
    for heads in experiment.head_counts:
        run = experiment.checkpointed_run(heads)
        assert run.seed == 0, "weights and snapshots are shipped for seed 0"
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


def test_experiment_figure_draws_the_mean_and_a_band_from_lowest_to_highest_seed():
    runs = [
        RunSummary(h, 100, 20, 2.0, 1000.0, loss, [HistoryPoint(10, 1.0 + seed, 2.5, loss + 0.3),
                                                  HistoryPoint(20, 2.0 + seed, 2.4, loss)], seed=seed)
        for h in (1, 2) for seed, loss in enumerate((1.9 + h / 100, 1.8 + h / 100, 2.0 + h / 100))
    ]  # fmt: skip
    figure = experiment_figure(runs, "step", EN)
    names = [trace.name for trace in figure.data]
    assert names == ["h = 1: lowest–highest seed", "h = 1", "h = 2: lowest–highest seed", "h = 2"]
    mean, band = figure.data[1], figure.data[0]
    assert list(mean.x) == [10, 20] and list(mean.y) == pytest.approx([2.21, 1.91])
    assert list(band.y) == pytest.approx([2.31, 2.01, 1.81, 2.11]), "highest forward, lowest back"
    assert band.fill == "toself"
    by_time = experiment_figure(runs, "elapsed", EN)
    assert list(by_time.data[1].x) == pytest.approx([2.0, 3.0]), "x is the seeds' mean wall time"
    go.Figure(json.loads(figure.to_json()))


def test_final_loss_figure_shows_every_seed_and_the_mean_with_sd():
    runs = _seeded({1: [2.0, 2.2, 2.1], 2: [1.8, 1.9, 2.0]})
    figure = final_loss_figure(runs, EN)
    points, mean = figure.data[0], figure.data[1]
    assert list(points.y) == [2.0, 2.2, 2.1] and list(points.text) == ["seed 0", "seed 1", "seed 2"]
    assert list(mean.y) == pytest.approx([2.1]) and list(mean.error_y.array) == pytest.approx([0.1])
    assert list(figure.layout.xaxis.ticktext) == ["1", "2"]
    go.Figure(json.loads(figure.to_json()))


def test_experiment_figure_one_line_per_head_count_in_its_colour():
    runs = [RunSummary(h, 100, 10, 1.0 * h, 1000.0, 2 - h / 10, [HistoryPoint(10, 1.0 * h, 2.0, 2 - h / 10)])
            for h in (1, 2, 4, 8)]  # fmt: skip
    figure = experiment_figure(runs, "elapsed", EN)
    assert [trace.name for trace in figure.data] == ["h = 1", "h = 2", "h = 4", "h = 8"]
    assert [trace.line.color for trace in figure.data] == [HEAD_COUNT_COLORS[h] for h in (1, 2, 4, 8)]
    assert list(figure.data[3].x) == [8.0]
    go.Figure(json.loads(figure.to_json()))


def test_seed_0_checkpoints_reproduce_their_shipped_losses_on_tiny_shakespeare():
    """Evaluating each shipped float16 checkpoint on the whole test split gives the loss
    results.json states for seed 0 (needs the corpus: it is never committed)."""
    from gpt_core import find_tiny_shakespeare, load_tiny_shakespeare
    from gpt_core.train import evaluate

    if find_tiny_shakespeare() is None:
        pytest.skip("Tiny Shakespeare not found (set TINY_SHAKESPEARE): the check needs the corpus")
    experiment = load_experiment(ASSETS / "heads_experiment")
    corpus = build_corpus(
        "tinyshakespeare", load_tiny_shakespeare(), context_length=experiment.config["context_length"]
    )
    for heads in experiment.head_counts:
        run = experiment.checkpointed_run(heads)
        model = experiment.checkpoint(heads).model.float()
        assert evaluate(model, corpus, None, 512) == pytest.approx(run.final_test_loss, abs=2e-4)
