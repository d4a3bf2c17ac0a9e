"""The Train page: a tab to train a model and generate from it, a tab for the heads
experiment. The stop button and the overlap of script runs are handled here."""

from __future__ import annotations

import streamlit as st

from gpt_core import InputError
from links.train import (
    EXPERIMENT_DEFAULT_SEEDS,
    EXPERIMENT_DEFAULT_STEPS,
    EXPERIMENT_MAX_SEEDS,
    EXPERIMENT_MAX_STEPS,
    EXPERIMENT_MIN_STEPS,
)
from string_table import error_text, t

from ..first_screen import ask_for_the_rest, is_first_screen, main_width
from ..shared.models import MODEL_STATE
from ..shared.resources import shipped_experiment
from ..shell import page_title, setup_page
from . import views
from .controls import chosen_corpus, corpus_controls, gpt_config, model_controls, train_config
from .plan import EXPERIMENT_EMBEDDING, page_plan, seeds_text, show_estimate
from .running import CONTROL_STATE, EXPERIMENT_STATE, STOP_WAIT_S, run_experiment, run_training, use_model
from .state import PAGE, key
from .upload import model_upload

STOP_REQUESTED = "tr_stop_requested"
START_REQUESTED = "tr_start_requested"
EXPERIMENT_REQUESTED = "tr_exp_requested"


def _on_stop() -> None:
    st.session_state[STOP_REQUESTED] = True
    control = st.session_state.get(CONTROL_STATE)
    if control is not None:
        control.stop.set()  # the trainer ends between steps, if it gets there first


def _promote_stopped_run() -> None:
    """After the stop button, the run it interrupted becomes the model; after any other
    rerun (a control, a page change) the previous model stays."""
    control = st.session_state.get(CONTROL_STATE)
    partial = control.partial if control is not None else None
    if control is not None:
        control.partial = None
    if st.session_state.pop(STOP_REQUESTED, False) and partial is not None:
        use_model(partial)


def _wait_for_previous_run() -> None:
    """If a training run is still ending (it overlaps this run: Streamlit stops it at its
    next screen update), wait until it has stored its model (after the stop button) or
    left the previous one alone (any other rerun), and freed its slot."""
    control = st.session_state.get(CONTROL_STATE)
    if control is not None and not control.done.is_set():
        control.done.wait(timeout=STOP_WAIT_S)


def _request(name: str) -> None:
    st.session_state[name] = True


def _said_here(error: InputError, lang: str) -> str:
    """An error as this page says it: gpt_core's missing-corpus message sends the reader
    to the Train page, and here they are."""
    if error.code == "corpus_missing":
        return t("tr.shakespeare_first", lang, tab=t("tr.tab.train", lang))
    return error_text(error, lang)


def _train_tab(lang: str) -> None:
    corpus_controls(lang)
    model_controls(lang)
    buttons = st.columns([1, 1, 4])
    buttons[0].button(
        t("tr.start", lang),
        key="tr_start",
        type="primary",
        icon=":material/play_arrow:",
        on_click=_request,
        args=(START_REQUESTED,),
    )
    buttons[1].button(t("tr.stop", lang), key="tr_stop_button", icon=":material/stop:", on_click=_on_stop)
    if st.session_state.pop(START_REQUESTED, False):
        try:
            corpus = chosen_corpus()
            run_training(lang, corpus, gpt_config(corpus), train_config())
        except InputError as error:
            st.error(_said_here(error, lang), icon=":material/error:")
    views.model_summary(lang)
    model_upload(lang)
    views.generate_section(lang)


def _experiment_tab(lang: str) -> None:
    st.markdown(t("tr.experiment_intro", lang))
    cols = st.columns([2, 2, 2, 3], vertical_alignment="bottom")
    cols[0].number_input(
        t("tr.exp_steps", lang),
        EXPERIMENT_MIN_STEPS,
        EXPERIMENT_MAX_STEPS,
        step=EXPERIMENT_MIN_STEPS,
        key=key("exp_steps"),
    )
    cols[1].number_input(t("tr.exp_seeds_input", lang), 1, EXPERIMENT_MAX_SEEDS, key=key("exp_seeds"))
    cols[2].button(
        t("tr.exp_run", lang),
        key="tr_exp_start",
        icon=":material/science:",
        on_click=_request,
        args=(EXPERIMENT_REQUESTED,),
    )
    cols[3].caption(
        t("tr.exp_run_help", lang, steps=EXPERIMENT_DEFAULT_STEPS, seeds=seeds_text(EXPERIMENT_DEFAULT_SEEDS, lang))
    )
    corpus, missing = None, None
    try:
        corpus = chosen_corpus()
    except InputError as error:  # said when Run is pressed; no estimate without a corpus
        missing = error
    if corpus is not None:
        plan = page_plan(corpus)
        show_estimate(lang, corpus, plan)  # before it starts: how long, on this server
    if st.session_state.pop(EXPERIMENT_REQUESTED, False):
        if corpus is None:
            st.error(_said_here(missing, lang), icon=":material/error:")
        else:
            try:
                run_experiment(lang, corpus, plan)
            except InputError as error:  # e.g. too slow to stop on a busy server: said here, as Train does
                st.error(_said_here(error, lang), icon=":material/error:")
    mine = st.session_state.get(EXPERIMENT_STATE)
    shipped = shipped_experiment()
    if mine is not None:
        source = t("tr.exp_source_mine", lang, corpus=t(f"tr.corpus.{mine['corpus']}", lang))
        views.experiment_view(lang, mine["runs"], EXPERIMENT_EMBEDDING, source, "mine")
    if shipped is not None:
        st.divider()
        source = t(
            "tr.exp_source_shipped", lang, steps=shipped.runs[0].steps, seeds=seeds_text(len(shipped.seeds), lang)
        )
        views.experiment_view(lang, shipped.runs, shipped.config["embedding_dim"], source, "shipped")
        views.snapshots_view(lang, shipped)
    elif mine is None:
        st.info(t("tr.exp_missing", lang))


RESTARTED_STATE = "tr_restarted"  # this page reconnected to a server that had restarted


def render() -> None:
    lang = setup_page("train")
    first_visit = is_first_screen("train")
    page_title("train", lang)
    st.caption(t("page.train.blurb", lang))
    if PAGE.restarted_under_the_page():
        st.session_state[RESTARTED_STATE] = True
    PAGE.restore()
    restart_note = st.empty()
    if st.session_state.get(RESTARTED_STATE) and MODEL_STATE not in st.session_state:
        restart_note.warning(t("tr.restarted", lang), icon=":material/restart_alt:")
    values = PAGE.values()  # a widget's new value is in the session before the run starts
    PAGE.settle(values)
    PAGE.write_url(values, lang)
    PAGE.show_notes(lang)
    _wait_for_previous_run()
    _promote_stopped_run()
    train_tab, experiment_tab = st.tabs([t("tr.tab.train", lang), t("tr.tab.experiment", lang)])
    with train_tab:
        _train_tab(lang)
    with experiment_tab:
        _experiment_tab(lang)
    if MODEL_STATE in st.session_state:  # trained or uploaded in this run: nothing is lost any more
        st.session_state.pop(RESTARTED_STATE, None)
        restart_note.empty()
    PAGE.reread_after_restart()
    if first_visit and main_width() is None:
        # The snapshots are planned for the page's width: a session that came straight here
        # learns it from the browser, which asks for one more run once a chart is drawn.
        ask_for_the_rest("train")
