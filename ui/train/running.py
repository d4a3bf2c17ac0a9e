"""Training inside the page's script. A rerun (the stop button, any other control, a page
change) interrupts it at its next screen update, and the slot is released in ``finally``.
A student's model lives in their own session, never in a shared cache."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import streamlit as st

from figures import loss_curve_figure
from figures.export import export_name
from gpt_core import (
    GPT,
    Corpus,
    GPTConfig,
    HistoryPoint,
    Progress,
    RunSummary,
    TrainConfig,
    last_test_loss,
    train,
)
from gpt_core.experiment import HEAD_COUNTS, run_heads_experiment
from string_table import t
from string_table.figure_words import figure_words

from ..charts import show_chart
from ..runtime import all_cores
from ..shared.models import MODEL_STATE, SESSION_KEY, TrainedModel
from ..shared.resources import training_slots
from .plan import ExperimentPlan
from .state import PAGE

UI_UPDATE_S = 0.4  # how often the progress, numbers and curve are redrawn
WAIT_POLL_S = 0.5
STOP_WAIT_S = 10.0  # how long a new run waits for a stopping training to store its model
PROMPT_HINT_CHARS = 8

CONTROL_STATE = "tr_control"
EXPERIMENT_STATE = "tr_experiment"
Result = TypeVar("Result")


class Screen:
    """The live view of a run: status line, progress bar, numbers and the loss curve."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.status = st.empty()
        self.bar = st.progress(0.0)
        self.numbers = st.empty()
        self.curve = st.empty()
        self.last_draw = 0.0
        self.draws = 0  # each redraw of the curve needs its own key within one script run

    def waiting(self) -> None:
        self.status.info(t("tr.waiting", self.lang), icon=":material/hourglass_top:")

    def draw(self, progress: Progress, history: list[HistoryPoint], label: str) -> None:
        """Redraw at most every UI_UPDATE_S, and always after an evaluation."""
        now = time.perf_counter()
        if progress.test_loss is None and now - self.last_draw < UI_UPDATE_S:
            return
        self.last_draw = now
        self.status.info(label, icon=":material/model_training:")
        self.bar.progress(min(1.0, progress.fraction))
        self.numbers.markdown(
            t(
                "tr.live",
                self.lang,
                step=progress.step,
                loss=f"{progress.train_loss:.3f}",
                speed=f"{progress.tokens_per_second:,.0f}",
                elapsed=f"{progress.elapsed:.1f}",
            )
        )
        self.draws += 1
        with self.curve.container():
            show_chart(
                loss_curve_figure(history, figure_words(self.lang)),
                f"tr_live_curve_{self.draws}",
                table=False,
                file_name=export_name("loss", "training", step=progress.step),
            )

    def clear(self) -> None:
        """Remove the live progress (status, bar, numbers, curve) once the run has ended: the
        page then shows the finished model's own message and curve, and no stale step count
        or "Training…" beside them."""
        self.status.empty()
        self.bar.empty()
        self.numbers.empty()
        self.curve.empty()


def with_slot(screen: Screen, work: Callable[[], Result]) -> Result:
    """Run ``work()`` holding a server-wide training slot; the slot is freed whatever happens."""
    slots = training_slots()
    acquired = False
    try:
        while not (acquired := slots.acquire(timeout=WAIT_POLL_S)):
            screen.waiting()  # an st.* call: a rerun can interrupt the wait here
        with all_cores():  # a training is torch's work: any core (ui/runtime.py)
            return work()
    finally:
        if acquired:
            slots.release()


@dataclass
class RunControl:
    """Signals between a training run and the runs after it.

    Streamlit starts the next script run at once and stops the old one at its next st.*
    call, so the two overlap: the stop button sets ``stop`` (the trainer checks it between
    steps), and the training run sets ``done`` when its model is stored and its slot freed.
    """

    stop: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)
    # The model of a run Streamlit stopped. Set here, not in st.session_state: a stopped
    # run's every st.* access (session_state too) raises again.
    partial: TrainedModel | None = None


def _trained(model: GPT, corpus: Corpus, history: list[HistoryPoint], stopped: bool, result=None) -> TrainedModel:
    """What a run (finished, or stopped with ``result`` None) leaves this session."""
    if result is not None:
        run = RunSummary.from_result(model.config.heads, model.parameter_count(), result)
    else:
        run = RunSummary(
            heads=model.config.heads,
            parameters=model.parameter_count(),
            steps=len(history),
            wall_time=history[-1].elapsed if history else 0.0,
            tokens_per_second=0.0,
            final_test_loss=last_test_loss(history),
            history=list(history),
        )
    return TrainedModel(
        model=model.eval(),
        vocabulary=corpus.vocabulary,
        corpus=corpus.name,
        corpus_sha256=corpus.sha256,
        run=run,
        stopped=stopped,
        prompt_hint=corpus.text[:PROMPT_HINT_CHARS],
    )


def run_training(lang: str, corpus: Corpus, config: GPTConfig, train_config: TrainConfig) -> None:
    screen = Screen(lang)
    model = GPT(config, seed=train_config.seed)
    history: list[HistoryPoint] = []
    control = RunControl()
    st.session_state[CONTROL_STATE] = control

    def on_progress(progress: Progress) -> None:
        history.append(progress.point)
        screen.draw(progress, history, t("tr.running", lang))

    try:
        result = with_slot(
            screen, lambda: train(model, corpus, train_config, on_progress=on_progress, should_stop=control.stop.is_set)
        )
        use_model(_trained(model, corpus, history, result.stopped_early, result))
    except Exception:
        screen.clear()  # failed: the error says why; a half-filled bar would say "still running"
        raise
    except BaseException:  # Streamlit stopped this run: set the model aside; the next run decides
        control.partial = _trained(model, corpus, history, stopped=True) if history else None
        raise
    finally:
        control.done.set()
    screen.clear()  # finished, or stopped by the button: the model's message and curve are drawn below


def use_model(trained: TrainedModel) -> None:
    st.session_state[MODEL_STATE] = trained
    st.session_state.pop("tr_generated", None)
    PAGE.set("gen_model", SESSION_KEY)  # generate from what was just trained
    if trained.vocabulary.unknown(PAGE.get("prompt")):
        PAGE.set("prompt", trained.prompt_hint)  # "ROMEO:" means nothing to a copying model


def run_experiment(lang: str, corpus: Corpus, plan: ExperimentPlan) -> None:
    screen = Screen(lang)
    histories: dict[int, list[HistoryPoint]] = {}
    started = []  # (heads, seed) of each run begun, in order

    def on_progress(heads: int, progress: Progress) -> None:
        if progress.step == 1:  # a new run (the next head count, or the next seed)
            histories[heads] = []
            started.append((heads, plan.seeds[len(started) // len(HEAD_COUNTS)]))
        history = histories.setdefault(heads, [])
        history.append(progress.point)
        label = t("tr.experiment_running", lang, run=len(started), runs=plan.runs, heads=heads, seed=started[-1][1])
        screen.draw(progress, history, label)

    try:
        runs = with_slot(
            screen,
            lambda: run_heads_experiment(corpus, plan.base, plan.train, on_progress=on_progress, seeds=plan.seeds),
        )
    except Exception:
        screen.clear()
        raise
    screen.clear()  # the results below replace the last run's live curve
    st.session_state[EXPERIMENT_STATE] = {"corpus": corpus.name, "runs": [run.summary for run in runs]}
    screen.status.success(t("tr.experiment_done", lang))
