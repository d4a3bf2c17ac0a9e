"""The in-app heads experiment's plan: what it runs (the page's controls, and the same
embedding for every head count) and how long that takes on this server, said before it
starts. The time comes from a few steps measured here (``gpt_core.experiment``), shared
by every student of the server for a few minutes."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from gpt_core import Corpus, GPTConfig, TrainConfig
from gpt_core.experiment import HEAD_COUNTS, StepTimes, estimate_seconds, measure_step_times
from links.train import EXPERIMENT_DEFAULT_SEEDS, EXPERIMENT_DEFAULT_STEPS, EXPERIMENT_MAX_STEPS, EXPERIMENT_MIN_STEPS
from string_table import t

from ..shared.resources import SHARED_CORPORA, TRAINING_MAX_BYTES
from .state import PAGE

EXPERIMENT_EMBEDDING = 64  # the book's embedding size, the same for every head count
EXPERIMENT_EVALUATIONS = 10  # held-out evaluations per run
# The whole experiment's wall-time cap, shared out among its runs: part of a class period.
# The defaults took 4-5 minutes on a busy 2-core machine (docs/benchmarks.md).
EXPERIMENT_MAX_SECONDS = 600
ESTIMATE_TTL_S = 300  # a measured speed is used this long, by every student of the server
SECONDS_SHOWN_BELOW = 90  # shorter estimates are said in seconds, longer in minutes
SECONDS_ROUNDING = 10


@dataclass(frozen=True)
class ExperimentPlan:
    base: GPTConfig  # heads aside, the model every run trains
    train: TrainConfig  # how each run trains
    seeds: tuple[int, ...]

    @property
    def runs(self) -> int:
        return len(HEAD_COUNTS) * len(self.seeds)


def experiment_plan(vocab_size: int, steps: int, seeds: int, context: int, blocks: int) -> ExperimentPlan:
    """``steps`` per run, ``seeds`` seeds per head count, each run capped at its share of
    EXPERIMENT_MAX_SECONDS, for a corpus of ``vocab_size`` characters."""
    base = GPTConfig(
        vocab_size=vocab_size, context_length=context, embedding_dim=EXPERIMENT_EMBEDDING, heads=1, blocks=blocks
    )
    runs = len(HEAD_COUNTS) * seeds
    eval_every = max(EXPERIMENT_MIN_STEPS, steps // EXPERIMENT_EVALUATIONS)
    train = TrainConfig(
        steps=steps, eval_every=eval_every, max_seconds=EXPERIMENT_MAX_SECONDS / runs, max_bytes=TRAINING_MAX_BYTES
    )
    return ExperimentPlan(base, train, tuple(range(seeds)))


def default_plan(vocab_size: int) -> ExperimentPlan:
    """The plan of a page opened without a link: its default steps, seeds, context and
    blocks (the corpus, too, is the page's default: ``PAGE.by_name["corpus"].default``)."""
    context, blocks = PAGE.by_name["context"].default, PAGE.by_name["blocks"].default
    return experiment_plan(vocab_size, EXPERIMENT_DEFAULT_STEPS, EXPERIMENT_DEFAULT_SEEDS, context, blocks)


def page_plan(corpus: Corpus) -> ExperimentPlan:
    """The plan the page's controls describe (context and blocks from the first tab)."""
    steps = min(PAGE.get("exp_steps"), EXPERIMENT_MAX_STEPS)
    return experiment_plan(
        corpus.vocabulary.size, steps, PAGE.get("exp_seeds"), PAGE.get("context"), PAGE.get("blocks")
    )


@st.cache_resource(ttl=ESTIMATE_TTL_S, max_entries=SHARED_CORPORA)
def step_times(
    _corpus: Corpus, _plan: ExperimentPlan, corpus_sha256: str, context: int, blocks: int
) -> dict[int, StepTimes]:
    """What a step of each head count takes on this server now (about a second to measure)."""
    return measure_step_times(_corpus, _plan.base, _plan.train)


def seeds_text(seeds: int, lang: str) -> str:
    return t("tr.one_seed", lang) if seeds == 1 else t("tr.n_seeds", lang, n=seeds)


def duration_text(seconds: float, lang: str) -> str:
    if seconds < SECONDS_SHOWN_BELOW:
        rounded = max(SECONDS_ROUNDING, round(seconds / SECONDS_ROUNDING) * SECONDS_ROUNDING)
        return t("tr.about_seconds", lang, n=rounded)
    return t("tr.about_minutes", lang, n=round(seconds / 60))


def show_estimate(lang: str, corpus: Corpus, plan: ExperimentPlan) -> None:
    """How long the plan will take here, and what it runs; a warning when the cap would cut it short."""
    times = step_times(corpus, plan, corpus.sha256, plan.base.context_length, plan.base.blocks)
    seconds = estimate_seconds(times, corpus, plan.train, len(plan.seeds))
    step_ms = [item.train_step * 1000 for item in times.values()]
    st.caption(
        t(
            "tr.exp_plan",
            lang,
            duration=duration_text(seconds, lang),
            runs=plan.runs,
            heads=len(HEAD_COUNTS),
            seeds=seeds_text(len(plan.seeds), lang),
            steps=plan.train.steps,
            low=f"{min(step_ms):.0f}",
            high=f"{max(step_ms):.0f}",
        )
    )
    if seconds > EXPERIMENT_MAX_SECONDS:
        st.warning(
            t(
                "tr.exp_too_long",
                lang,
                minutes=EXPERIMENT_MAX_SECONDS // 60,
                steps=plan.train.steps,
                run_cap=f"{plan.train.max_seconds:.0f}",
            ),
            icon=":material/timer:",
        )
