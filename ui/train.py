"""The Train page: train a tiny GPT in the browser, run the book's heads experiment, and
generate text. Training runs inside the page's script: a rerun (the stop button, any other
control, a page change) interrupts it at its next screen update, and the slot is released
in ``finally``. A student's model lives in their own session, never in a shared cache.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd
import streamlit as st
import torch

from figures import heads_overview_figure
from figures.training import experiment_figure, loss_curve_figure
from gpt_core import (
    GPT,
    SYNTHETIC_KINDS,
    CharVocabulary,
    CheckpointMeta,
    Corpus,
    GPTConfig,
    InputError,
    Progress,
    TrainConfig,
    build_corpus,
    checkpoint_bytes,
    decode_user_text,
    display_labels,
    find_tiny_shakespeare,
    generate,
    read_verified,
    synthetic_text,
    train,
)
from gpt_core.data import TINY_SHAKESPEARE_ENV
from gpt_core.experiment import answer, run_heads_experiment, run_record
from gpt_core.results import ShippedExperiment, load_experiment

from .playground import show_chart
from .shell import page_title, setup_page
from .strings import error_text, t

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENT_DIR = ROOT / "assets" / "heads_experiment"
THREADS_PER_TRAINING = 1  # each training uses one core; several trainings use several
TRAINING_SLOTS = int(os.environ.get("TRAINING_SLOTS", max(1, (os.cpu_count() or 2) // THREADS_PER_TRAINING)))
MAX_STEPS = 3000  # per training run, whatever the control says
MAX_SECONDS = 60
MAX_EXPERIMENT_STEPS = 500  # per head count in the in-app experiment
EXPERIMENT_EMBEDDING = 64  # the book's embedding size, the same for every head count
UI_UPDATE_S = 0.4  # how often the progress, numbers and curve are redrawn
WAIT_POLL_S = 0.5
STOP_WAIT_S = 10.0  # how long a new run waits for a stopping training to store its model
SYNTHETIC_LENGTH = 60_000
CORPORA = ("tinyshakespeare", *SYNTHETIC_KINDS, "own")
HEAD_CHOICES = (1, 2, 4, 8, 16)
BUDGET_KINDS = ("steps", "seconds")
GENERATE_MAX = 500
PROMPT_HINT_CHARS = 8

torch.set_num_threads(THREADS_PER_TRAINING)


@dataclass
class TrainedModel:
    """A model this session trained (or stopped), with what it learned from."""

    model: GPT
    vocabulary: CharVocabulary
    corpus: str
    history: list[dict] = field(default_factory=list)
    steps: int = 0
    test_loss: float | None = None
    tokens_per_second: float = 0.0
    stopped: bool = False
    prompt_hint: str = ""  # the start of its corpus: a prompt it can read
    corpus_sha256: str = ""
    wall_time: float = 0.0  # seconds of training


def checkpoint_of(trained: TrainedModel) -> bytes:
    """The model as a checkpoint file (gpt_core.load_checkpoint reads it, weights only)."""
    meta = CheckpointMeta(
        corpus=trained.corpus, corpus_sha256=trained.corpus_sha256, steps=trained.steps,
        test_loss=trained.test_loss if trained.test_loss is not None else float("nan"),
        wall_time=trained.wall_time, tokens_per_second=trained.tokens_per_second,
        extra={"history": trained.history},
    )  # fmt: skip
    return checkpoint_bytes(trained.model, trained.vocabulary, meta)


# --- shared, read-only resources -------------------------------------------------------


@st.cache_resource
def training_slots() -> threading.BoundedSemaphore:
    """How many trainings may run at once on this server, for all users together."""
    return threading.BoundedSemaphore(TRAINING_SLOTS)


@st.cache_resource
def tiny_shakespeare() -> str | None:
    """The corpus text if a verified copy is found (see gpt_core.data), else None."""
    path = find_tiny_shakespeare()
    return read_verified(path) if path is not None else None


@st.cache_resource
def shared_corpus(name: str, context_size: int) -> Corpus:
    """Tiny Shakespeare or a synthetic corpus: built once, read by everyone."""
    text = tiny_shakespeare() if name == "tinyshakespeare" else synthetic_text(name, SYNTHETIC_LENGTH)
    return build_corpus(name, text, context_size)


@st.cache_resource
def shipped_experiment() -> ShippedExperiment | None:
    return load_experiment(EXPERIMENT_DIR)


@st.cache_resource
def shipped_snapshots(heads: int) -> dict:
    """The shipped attention snapshots of one head count (read once, not on every rerun)."""
    return shipped_experiment().snapshots(heads)


@st.cache_resource
def shipped_model(heads: int):
    """A shipped checkpoint, for generation only (eval mode, no_grad: safe to share)."""
    experiment = shipped_experiment()
    return experiment.checkpoint(heads) if experiment is not None else None


# --- controls --------------------------------------------------------------------------


def _corpus_controls(lang: str) -> None:
    available = tiny_shakespeare() is not None
    st.radio(
        t("tr.corpus", lang), CORPORA, key="tr_corpus", horizontal=True,
        format_func=lambda name: t(f"tr.corpus.{name}", lang),
    )  # fmt: skip
    choice = st.session_state["tr_corpus"]
    if choice == "tinyshakespeare" and not available:
        st.warning(t("tr.no_shakespeare", lang), icon=":material/folder_off:")
    elif choice in SYNTHETIC_KINDS:
        st.caption(t(f"tr.corpus.{choice}.help", lang))
        st.code(synthetic_text(choice, 120), language=None)
    elif choice == "own":
        st.text_area(t("tr.own_text", lang), key="tr_own_text", height=120)
        st.file_uploader(t("tr.upload", lang), type=["txt", "md", "csv"], key="tr_upload")


def _model_controls(lang: str) -> None:
    cols = st.columns(4)
    cols[0].selectbox(t("tr.heads", lang), HEAD_CHOICES, key="tr_heads")
    cols[1].number_input(t("tr.head_dim", lang), 1, 64, key="tr_head_dim")
    cols[2].number_input(t("tr.blocks", lang), 1, 4, key="tr_blocks")
    cols[3].number_input(t("tr.context", lang), 8, 64, key="tr_context")
    h, d = st.session_state["tr_heads"], st.session_state["tr_head_dim"]
    st.markdown(t("tr.embedding", lang, h=h, d=d, C=h * d))
    budget = st.columns(2)
    budget[0].radio(
        t("tr.budget", lang), BUDGET_KINDS, key="tr_budget_kind", horizontal=True,
        format_func=lambda kind: t(f"tr.budget.{kind}", lang),
    )  # fmt: skip
    if st.session_state["tr_budget_kind"] == "steps":
        budget[1].number_input(t("tr.steps", lang), 10, MAX_STEPS, step=50, key="tr_steps")
    else:
        budget[1].number_input(t("tr.seconds", lang), 1, MAX_SECONDS, key="tr_seconds")


DEFAULTS = {
    "tr_corpus": "tinyshakespeare", "tr_own_text": "", "tr_heads": 2, "tr_head_dim": 32, "tr_blocks": 2,
    "tr_context": 32, "tr_budget_kind": "steps", "tr_steps": 300, "tr_seconds": 15, "tr_exp_steps": 150,
    "tr_prompt": "ROMEO:\n", "tr_temperature": 0.8, "tr_top_k": 10, "tr_length": 200, "tr_gen_seed": 0,
}  # fmt: skip


def _defaults() -> None:
    """Defaults on a first visit; a radio holding a stale label (its labels are translated,
    and Streamlit sends the label) goes back to its default."""
    for key, value in DEFAULTS.items():
        st.session_state.setdefault(key, value)
    for key, options in (("tr_corpus", CORPORA), ("tr_budget_kind", BUDGET_KINDS)):
        if st.session_state[key] not in options:
            st.session_state[key] = DEFAULTS[key]
    if tiny_shakespeare() is None and st.session_state["tr_corpus"] == "tinyshakespeare":
        st.session_state["tr_corpus"] = "copy"


# --- building what a run needs -----------------------------------------------------------


def _corpus() -> Corpus:
    """The chosen corpus, or InputError with a reason a student can read."""
    name = st.session_state["tr_corpus"]
    context = st.session_state["tr_context"]
    if name == "own":
        upload = st.session_state.get("tr_upload")
        text = decode_user_text(upload.getvalue()) if upload is not None else st.session_state["tr_own_text"]
        return build_corpus("own", text, context)
    if name == "tinyshakespeare" and tiny_shakespeare() is None:
        raise InputError("corpus_missing", env=TINY_SHAKESPEARE_ENV)
    return shared_corpus(name, context)


def _gpt_config(corpus: Corpus) -> GPTConfig:
    """The model the controls describe: embedding = heads × head_dim."""
    return GPTConfig(
        vocab_size=corpus.vocabulary.size,
        context_size=st.session_state["tr_context"],
        embedding_size=st.session_state["tr_heads"] * st.session_state["tr_head_dim"],
        heads=st.session_state["tr_heads"],
        blocks=st.session_state["tr_blocks"],
    )


def _train_config() -> TrainConfig:
    if st.session_state["tr_budget_kind"] == "steps":
        return TrainConfig(steps=min(st.session_state["tr_steps"], MAX_STEPS), eval_every=50)
    return TrainConfig(steps=None, seconds=min(float(st.session_state["tr_seconds"]), MAX_SECONDS), eval_every=50)


# --- running -----------------------------------------------------------------------------


class _Screen:
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

    def draw(self, progress, history: list[dict], label: str, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self.last_draw < UI_UPDATE_S:
            return
        self.last_draw = now
        self.status.info(label, icon=":material/model_training:")
        self.bar.progress(min(1.0, progress.fraction))
        self.numbers.markdown(
            t("tr.live", self.lang, step=progress.step, loss=f"{progress.train_loss:.3f}",
              speed=f"{progress.tokens_per_second:,.0f}", elapsed=f"{progress.elapsed:.1f}")
        )  # fmt: skip
        self.draws += 1
        with self.curve.container():
            show_chart(loss_curve_figure(history, self.lang), f"tr_live_curve_{self.draws}")


def _with_slot(screen: _Screen, work):
    """Run ``work()`` holding a server-wide training slot; the slot is freed whatever happens."""
    slots = training_slots()
    acquired = False
    try:
        while not (acquired := slots.acquire(timeout=WAIT_POLL_S)):
            screen.waiting()  # an st.* call: a rerun can interrupt the wait here
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


def _run_training(lang: str, corpus: Corpus, config: GPTConfig, train_config: TrainConfig) -> None:
    screen = _Screen(lang)
    torch.manual_seed(train_config.seed)
    model = GPT(config)
    history: list[dict] = []
    control = RunControl()
    st.session_state["tr_control"] = control

    def on_progress(progress) -> None:
        history.append(_record(progress))
        screen.draw(progress, history, t("tr.running", lang), force=progress.test_loss is not None)

    def trained(stopped: bool, result=None) -> TrainedModel:
        return TrainedModel(
            model=model.eval(), vocabulary=corpus.vocabulary, corpus=corpus.name, history=list(history),
            steps=len(history), test_loss=result.final_test_loss if result else _last_test_loss(history),
            tokens_per_second=result.tokens_per_second if result else 0.0, stopped=stopped,
            prompt_hint=corpus.text[:PROMPT_HINT_CHARS], corpus_sha256=corpus.sha256,
            wall_time=history[-1]["elapsed"] if history else 0.0,
        )  # fmt: skip

    try:
        result = _with_slot(
            screen, lambda: train(model, corpus, train_config, on_progress=on_progress, should_stop=control.stop.is_set)
        )
        _use_model(trained(stopped=result.stopped_early, result=result))
    except Exception:
        raise
    except BaseException:  # Streamlit stopped this run: set the model aside; the next run decides
        control.partial = trained(stopped=True) if history else None
        raise
    finally:
        control.done.set()
    screen.status.success(t("tr.done", lang, steps=result.steps, loss=f"{result.final_test_loss:.3f}"))


def _use_model(trained: TrainedModel) -> None:
    st.session_state["tr_model"] = trained
    st.session_state.pop("tr_generated", None)
    st.session_state["tr_gen_model"] = "mine"  # generate from what was just trained
    if trained.vocabulary.unknown(st.session_state.get("tr_prompt", "")):
        st.session_state["tr_prompt"] = trained.prompt_hint  # "ROMEO:" means nothing to a copying model


def _record(progress: Progress) -> dict:
    """A history record, as gpt_core.train keeps them."""
    record = {"step": progress.step, "elapsed": progress.elapsed, "train_loss": progress.train_loss}
    if progress.test_loss is not None:
        record["test_loss"] = progress.test_loss
    return record


def _last_test_loss(history: list[dict]) -> float | None:
    evaluated = [record["test_loss"] for record in history if "test_loss" in record]
    return evaluated[-1] if evaluated else None


def _run_experiment(lang: str, corpus: Corpus) -> None:
    screen = _Screen(lang)
    steps = min(st.session_state["tr_exp_steps"], MAX_EXPERIMENT_STEPS)
    # The same embedding for every head count (the book's 64); context and blocks from the controls.
    base = replace(_gpt_config(corpus), embedding_size=EXPERIMENT_EMBEDDING, heads=1)
    histories: dict[int, list[dict]] = {}

    def on_progress(heads: int, progress) -> None:
        history = histories.setdefault(heads, [])
        history.append(_record(progress))
        screen.draw(progress, history, t("tr.experiment_running", lang, heads=heads), progress.test_loss is not None)

    runs = _with_slot(
        screen,
        lambda: run_heads_experiment(corpus, base, TrainConfig(steps=steps, eval_every=max(10, steps // 10)),
                                     on_progress=on_progress),
    )  # fmt: skip
    st.session_state["tr_experiment"] = {"corpus": corpus.name, "runs": [run_record(run) for run in runs]}
    screen.status.success(t("tr.experiment_done", lang))


# --- views -------------------------------------------------------------------------------------


def _model_summary(lang: str) -> None:
    trained: TrainedModel | None = st.session_state.get("tr_model")
    if trained is None:
        st.caption(t("tr.no_model", lang))
        return
    key = "tr.model_stopped" if trained.stopped else "tr.model_ready"
    loss = f"{trained.test_loss:.3f}" if trained.test_loss is not None else "–"
    st.success(
        t(key, lang, steps=trained.steps, loss=loss, params=f"{trained.model.parameter_count():,}",
          heads=trained.model.config.heads),
        icon=":material/check_circle:",
    )  # fmt: skip
    if trained.history:
        show_chart(loss_curve_figure(trained.history, lang), "tr_curve")
    st.download_button(
        t("tr.download_model", lang), lambda: checkpoint_of(trained), file_name=f"gpt_{trained.corpus}.pt",
        mime="application/octet-stream", key="tr_download_model", icon=":material/download:",
        help=t("tr.download_model_help", lang),
    )  # fmt: skip


def _generate_section(lang: str) -> None:
    st.subheader(t("tr.generate", lang))
    choices = []
    if st.session_state.get("tr_model") is not None:
        choices.append("mine")
    if shipped_experiment() is not None:
        choices += [f"shipped{heads}" for run in shipped_experiment().runs for heads in [run.heads]]
    if not choices:
        st.caption(t("tr.generate_none", lang))
        return
    if st.session_state.get("tr_gen_model") not in choices:
        st.session_state["tr_gen_model"] = choices[0]
    st.selectbox(
        t("tr.generate_with", lang), choices, key="tr_gen_model",
        format_func=lambda c: t("tr.model_mine", lang) if c == "mine"
        else t("tr.model_shipped", lang, heads=c.removeprefix("shipped")),
    )  # fmt: skip
    cols = st.columns([3, 1, 1, 1, 1])
    cols[0].text_area(t("tr.prompt", lang), key="tr_prompt", height=68)
    cols[1].slider(t("tr.temperature", lang), 0.0, 2.0, step=0.1, key="tr_temperature")
    cols[2].number_input(t("tr.top_k", lang), 1, 256, key="tr_top_k")
    cols[3].number_input(t("tr.length", lang), 1, GENERATE_MAX, key="tr_length")
    cols[4].number_input(t("tr.seed", lang), 0, 2**31 - 1, key="tr_gen_seed")
    if st.button(t("tr.generate_button", lang), key="tr_generate", icon=":material/edit_note:"):
        choice = st.session_state["tr_gen_model"]
        if choice == "mine":
            model, vocabulary = st.session_state["tr_model"].model, st.session_state["tr_model"].vocabulary
        else:
            checkpoint = shipped_model(int(choice.removeprefix("shipped")))
            model, vocabulary = checkpoint.model, checkpoint.vocabulary
        prompt = st.session_state["tr_prompt"]
        missing = sorted(vocabulary.unknown(prompt))
        ids = vocabulary.encode(prompt)
        output = generate(model, ids, st.session_state["tr_length"], st.session_state["tr_temperature"],
                          st.session_state["tr_top_k"], seed=st.session_state["tr_gen_seed"])  # fmt: skip
        st.session_state["tr_generated"] = (prompt, vocabulary.decode(output), missing)
    generated = st.session_state.get("tr_generated")
    if generated:
        prompt, text, missing = generated
        if missing:
            st.caption(t("tr.prompt_dropped", lang, chars=" ".join(display_labels(missing))))
        st.code(prompt + text, language=None, wrap_lines=True)


def _experiment_view(lang: str, runs: list[dict], source: str, key: str) -> None:
    """Curves, table, the answer and samples of one experiment (``key`` keeps widgets apart)."""
    st.caption(source)
    left, right = st.columns(2)
    with left:
        show_chart(experiment_figure(runs, "step", lang), f"tr_{key}_steps_chart")
    with right:
        show_chart(experiment_figure(runs, "elapsed", lang), f"tr_{key}_time_chart")
    table = pd.DataFrame(
        {
            t("tr.col.heads", lang): [run["heads"] for run in runs],
            t("tr.col.head_dim", lang): [EXPERIMENT_EMBEDDING // run["heads"] for run in runs],
            t("tr.col.params", lang): [f"{run['parameters']:,}" for run in runs],
            t("tr.col.steps", lang): [run["steps"] for run in runs],
            t("tr.col.time", lang): [f"{run['wall_time']:.1f}" for run in runs],
            t("tr.col.speed", lang): [f"{run['tokens_per_second']:,.0f}" for run in runs],
            t("tr.col.loss", lang): [f"{run['final_test_loss']:.3f}" for run in runs],
        }
    )
    st.dataframe(table, hide_index=True, key=f"tr_{key}_table")
    facts = answer(runs)
    if facts["same_parameters"]:
        st.info(t("tr.same_params", lang, params=f"{runs[0]['parameters']:,}"), icon=":material/balance:")
    st.markdown(
        t("tr.answer", lang, best=facts["best_heads"], best_loss=f"{facts['best_loss']:.3f}",
          most=facts["most_heads"], most_loss=f"{facts['most_heads_loss']:.3f}",
          spread=f"{facts['spread']:.3f}", fastest=facts["fastest_heads"], slowest=facts["slowest_heads"],
          ratio=f"{facts['speed_ratio']:.2f}")
        + " " + t("tr.answer_more_yes" if facts["more_is_better"] else "tr.answer_more_no", lang)
    )  # fmt: skip
    st.markdown(f"**{t('tr.samples', lang)}**")
    columns = st.columns(len(runs))
    for column, run in zip(columns, runs, strict=True):
        column.caption(t("train.heads_label", lang, heads=run["heads"]))
        column.code(run["sample"], language=None, wrap_lines=True)


def _snapshots_view(lang: str, experiment: ShippedExperiment) -> None:
    st.markdown(f"**{t('tr.snapshots', lang)}**")
    st.caption(t("tr.snapshots_help", lang))
    cols = st.columns(3)
    heads = cols[0].selectbox(t("tr.heads", lang), [run.heads for run in experiment.runs], index=2, key="tr_snap_heads")
    snapshots = shipped_snapshots(heads)
    steps = sorted(snapshots)
    step = cols[1].select_slider(t("tr.snap_step", lang), steps, value=steps[-1], key="tr_snap_step")
    blocks = snapshots[step].shape[0]
    block = cols[2].selectbox(t("tr.block", lang), list(range(1, blocks + 1)), key="tr_snap_block")
    prompt = experiment.snapshot_prompt
    T = snapshots[step].shape[-1]
    labels = display_labels(list(prompt[:T]))
    show_chart(heads_overview_figure(snapshots[step][block - 1], labels, "weights", lang, cols=4), "tr_snap_chart")


# --- the page ----------------------------------------------------------------------------------


def _on_stop() -> None:
    st.session_state["tr_stop_requested"] = True
    control = st.session_state.get("tr_control")
    if control is not None:
        control.stop.set()  # the trainer ends between steps, if it gets there first


def _promote_stopped_run() -> None:
    """After the stop button, the run it interrupted becomes the model; after any other
    rerun (a control, a page change) the previous model stays."""
    control = st.session_state.get("tr_control")
    partial = control.partial if control is not None else None
    if control is not None:
        control.partial = None
    if st.session_state.pop("tr_stop_requested", False) and partial is not None:
        _use_model(partial)


def _wait_for_previous_run() -> None:
    """If a training run is still ending (it overlaps this run: Streamlit stops it at its
    next screen update), wait until it has stored its model (after the stop button) or
    left the previous one alone (any other rerun), and freed its slot."""
    control = st.session_state.get("tr_control")
    if control is not None and not control.done.is_set():
        control.done.wait(timeout=STOP_WAIT_S)


def _request(name: str) -> None:
    st.session_state[name] = True


def render() -> None:
    lang = setup_page("train")
    page_title("train", lang)
    st.caption(t("page.train.blurb", lang))
    _defaults()
    _wait_for_previous_run()
    _promote_stopped_run()
    train_tab, experiment_tab = st.tabs([t("tr.tab.train", lang), t("tr.tab.experiment", lang)])
    with train_tab:
        _corpus_controls(lang)
        _model_controls(lang)
        buttons = st.columns([1, 1, 4])
        buttons[0].button(t("tr.start", lang), key="tr_start", type="primary", icon=":material/play_arrow:",
                          on_click=_request, args=("tr_start_requested",))  # fmt: skip
        buttons[1].button(t("tr.stop", lang), key="tr_stop_button", icon=":material/stop:",
                          on_click=_on_stop)  # fmt: skip
        if st.session_state.pop("tr_start_requested", False):
            try:
                corpus = _corpus()
                _run_training(lang, corpus, _gpt_config(corpus), _train_config())
            except InputError as error:
                st.error(error_text(error, lang), icon=":material/error:")
        _model_summary(lang)
        _generate_section(lang)
    with experiment_tab:
        st.markdown(t("tr.experiment_intro", lang))
        shipped = shipped_experiment()
        mine = st.session_state.get("tr_experiment")
        cols = st.columns([2, 2, 3], vertical_alignment="bottom")
        cols[0].number_input(t("tr.exp_steps", lang), 10, MAX_EXPERIMENT_STEPS, step=10, key="tr_exp_steps")
        cols[1].button(t("tr.exp_run", lang), key="tr_exp_start", icon=":material/science:",
                       on_click=_request, args=("tr_exp_requested",))  # fmt: skip
        cols[2].caption(t("tr.exp_run_help", lang))
        if st.session_state.pop("tr_exp_requested", False):
            try:
                _run_experiment(lang, _corpus())
                mine = st.session_state.get("tr_experiment")
            except InputError as error:
                st.error(error_text(error, lang), icon=":material/error:")
        if mine is not None:
            source = t("tr.exp_source_mine", lang, corpus=t(f"tr.corpus.{mine['corpus']}", lang))
            _experiment_view(lang, mine["runs"], source, "mine")
        if shipped is not None:
            st.divider()
            records = [run.__dict__ for run in shipped.runs]
            _experiment_view(lang, records, t("tr.exp_source_shipped", lang, steps=shipped.runs[0].steps), "shipped")
            _snapshots_view(lang, shipped)
        elif mine is None:
            st.info(t("tr.exp_missing", lang))
