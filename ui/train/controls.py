"""The Train page's controls, their defaults and the limits of one in-app run."""

from __future__ import annotations

import streamlit as st

from gpt_core import (
    SYNTHETIC_KINDS,
    Corpus,
    GPTConfig,
    InputError,
    TrainConfig,
    build_corpus,
    corpus_cache_dir,
    decode_user_text,
    download_tiny_shakespeare,
    synthetic_text,
)
from gpt_core.data import DATA_DIR_ENV, TINY_SHAKESPEARE_ENV

from ..markdown import literal
from ..strings import error_text, t
from .resources import download_lock, shared_corpus, tiny_shakespeare

RUN_MAX_STEPS = 3000  # one in-app training run, whatever the control says
RUN_MAX_SECONDS = 60  # the wall-time cap of any in-app run, whatever its budget
RUN_MIN_STEPS = 10
STEPS_STEP = 50  # the steps box moves by this much
EXPERIMENT_MAX_STEPS = 500  # per head count in the in-app experiment
EXPERIMENT_MIN_STEPS = 10
EVAL_EVERY = 50  # steps between held-out evaluations of a run
HEAD_CHOICES = (1, 2, 4, 8, 16)
HEAD_DIM_RANGE = (1, 64)
BLOCKS_RANGE = (1, 4)
CONTEXT_RANGE = (8, 64)
CORPORA = ("tinyshakespeare", *SYNTHETIC_KINDS, "own")
BUDGET_KINDS = ("steps", "seconds")
SAMPLE_PREVIEW_CHARS = 120  # of a synthetic corpus, shown under the choice
OWN_TEXT_PX = 120
OWN_TEXT_MAX_CHARS = 200_000  # a pasted corpus; longer texts can be uploaded (up to 5 MB)

DEFAULTS = {
    "tr_corpus": "tinyshakespeare", "tr_own_text": "", "tr_heads": 2, "tr_head_dim": 32, "tr_blocks": 2,
    "tr_context": 32, "tr_budget_kind": "steps", "tr_steps": 300, "tr_seconds": 15, "tr_exp_steps": 150,
    "tr_prompt": "ROMEO:\n", "tr_temperature": 0.8, "tr_top_k": 10, "tr_length": 200, "tr_gen_seed": 0,
}  # fmt: skip


def set_defaults() -> None:
    """Defaults on a first visit; a radio holding a stale label (its labels are translated,
    and Streamlit sends the label) goes back to its default."""
    for key, value in DEFAULTS.items():
        st.session_state.setdefault(key, value)
    for key, options in (("tr_corpus", CORPORA), ("tr_budget_kind", BUDGET_KINDS)):
        if st.session_state[key] not in options:
            st.session_state[key] = DEFAULTS[key]


def corpus_controls(lang: str) -> None:
    st.radio(
        t("tr.corpus", lang), CORPORA, key="tr_corpus", horizontal=True,
        format_func=lambda name: t(f"tr.corpus.{name}", lang),
    )  # fmt: skip
    choice = st.session_state["tr_corpus"]
    if choice == "tinyshakespeare" and tiny_shakespeare() is None:
        corpus_download(lang)
    elif choice in SYNTHETIC_KINDS:
        st.caption(t(f"tr.corpus.{choice}.help", lang))
        st.code(synthetic_text(choice, SAMPLE_PREVIEW_CHARS), language=None)
    elif choice == "own":
        st.text_area(t("tr.own_text", lang), key="tr_own_text", height=OWN_TEXT_PX, max_chars=OWN_TEXT_MAX_CHARS)
        st.file_uploader(t("tr.upload", lang), type=["txt", "md", "csv"], key="tr_upload")


def corpus_download(lang: str) -> None:
    """Tiny Shakespeare is not on this server: say where it can come from, and offer to
    download it once (checksum verified, kept in the cache folder)."""
    st.warning(
        t("tr.no_shakespeare", lang, env=TINY_SHAKESPEARE_ENV, data_env=DATA_DIR_ENV,
          cache=literal(str(corpus_cache_dir()))),
        icon=":material/folder_off:",
    )  # fmt: skip
    if st.button(t("tr.download", lang), key="tr_download", icon=":material/download:"):
        with download_lock(), st.spinner(t("tr.downloading", lang)):
            try:
                download_tiny_shakespeare()
            except InputError as error:
                st.error(error_text(error, lang), icon=":material/cloud_off:")
                return
        tiny_shakespeare.clear()
        st.rerun()


def model_controls(lang: str) -> None:
    cols = st.columns(4)
    cols[0].selectbox(t("tr.heads", lang), HEAD_CHOICES, key="tr_heads")
    cols[1].number_input(t("tr.head_dim", lang), *HEAD_DIM_RANGE, key="tr_head_dim")
    cols[2].number_input(t("tr.blocks", lang), *BLOCKS_RANGE, key="tr_blocks")
    cols[3].number_input(t("tr.context", lang), *CONTEXT_RANGE, key="tr_context")
    h, d = st.session_state["tr_heads"], st.session_state["tr_head_dim"]
    st.markdown(t("tr.embedding", lang, h=h, d=d, C=h * d))
    budget = st.columns(2)
    budget[0].radio(
        t("tr.budget", lang), BUDGET_KINDS, key="tr_budget_kind", horizontal=True,
        format_func=lambda kind: t(f"tr.budget.{kind}", lang),
    )  # fmt: skip
    if st.session_state["tr_budget_kind"] == "steps":
        budget[1].number_input(t("tr.steps", lang), RUN_MIN_STEPS, RUN_MAX_STEPS, step=STEPS_STEP, key="tr_steps")
    else:
        budget[1].number_input(t("tr.seconds", lang), 1, RUN_MAX_SECONDS, key="tr_seconds")


def chosen_corpus() -> Corpus:
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


def gpt_config(corpus: Corpus) -> GPTConfig:
    """The model the controls describe: embedding = heads × head_dim."""
    return GPTConfig(
        vocab_size=corpus.vocabulary.size,
        context_length=st.session_state["tr_context"],
        embedding_dim=st.session_state["tr_heads"] * st.session_state["tr_head_dim"],
        heads=st.session_state["tr_heads"],
        blocks=st.session_state["tr_blocks"],
    )


def train_config() -> TrainConfig:
    if st.session_state["tr_budget_kind"] == "steps":
        steps = min(st.session_state["tr_steps"], RUN_MAX_STEPS)
        return TrainConfig(steps=steps, eval_every=EVAL_EVERY, max_seconds=RUN_MAX_SECONDS)
    seconds = min(float(st.session_state["tr_seconds"]), RUN_MAX_SECONDS)
    return TrainConfig(steps=None, seconds=seconds, eval_every=EVAL_EVERY, max_seconds=RUN_MAX_SECONDS)
