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
from links.train import (
    BLOCKS_RANGE,
    BUDGET_KINDS,
    CONTEXT_RANGE,
    CORPORA,
    HEAD_CHOICES,
    HEAD_DIM_RANGE,
    OWN_TEXT_MAX_CHARS,
    RUN_MAX_SECONDS,
    RUN_MAX_STEPS,
    RUN_MIN_STEPS,
)
from string_table import error_text, t

from ..markdown import literal
from ..shared.resources import TRAINING_MAX_BYTES, download_lock, shared_corpus, tiny_shakespeare
from ..shell import browser_on_this_machine
from .state import PAGE, key

STEPS_STEP = 50  # the steps box moves by this much
EVAL_EVERY = 50  # steps between held-out evaluations of a run
SAMPLE_PREVIEW_CHARS = 120  # of a synthetic corpus, shown under the choice
OWN_TEXT_PX = 120


def corpus_controls(lang: str) -> None:
    st.radio(
        t("tr.corpus", lang),
        CORPORA,
        key=key("corpus"),
        horizontal=True,
        format_func=lambda name: t(f"tr.corpus.{name}", lang),
    )
    choice = PAGE.get("corpus")
    if choice == "tinyshakespeare" and tiny_shakespeare() is None:
        corpus_download(lang)
    elif choice in SYNTHETIC_KINDS:
        st.caption(t(f"tr.corpus.{choice}.help", lang))
        st.code(synthetic_text(choice, SAMPLE_PREVIEW_CHARS), language=None)
    elif choice == "own":
        st.text_area(t("tr.own_text", lang), key=key("own_text"), height=OWN_TEXT_PX, max_chars=OWN_TEXT_MAX_CHARS)
        st.file_uploader(
            t("tr.upload", lang),
            type=["txt", "md", "csv"],
            key="tr_upload",
            help=t("tr.upload_help", lang, limit_mb=upload_limit_mb()),
        )


def upload_limit_mb() -> int:
    """The server's upload limit (``server.maxUploadSize``, .streamlit/config.toml), in MB."""
    return int(st.get_option("server.maxUploadSize"))


def corpus_download(lang: str) -> None:
    """Tiny Shakespeare is not on this server: say where it can come from, and offer to
    download it once (checksum verified, kept in the cache folder)."""
    said = t("tr.no_shakespeare", lang, env=TINY_SHAKESPEARE_ENV, data_env=DATA_DIR_ENV)
    if browser_on_this_machine():  # the server's folders mean nothing to a student elsewhere
        said += " " + t("tr.no_shakespeare_cache", lang, cache=literal(str(corpus_cache_dir())))
    st.warning(said, icon=":material/folder_off:")
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
    cols[0].selectbox(t("tr.heads", lang), HEAD_CHOICES, key=key("heads"))
    cols[1].number_input(t("tr.head_dim", lang), *HEAD_DIM_RANGE, key=key("head_dim"))
    cols[2].number_input(t("tr.blocks", lang), *BLOCKS_RANGE, key=key("blocks"))
    cols[3].number_input(t("tr.context", lang), *CONTEXT_RANGE, key=key("context"))
    h, d = PAGE.get("heads"), PAGE.get("head_dim")
    st.markdown(t("tr.embedding", lang, h=h, d=d, C=h * d))
    budget = st.columns(2)
    budget[0].radio(
        t("tr.budget", lang),
        BUDGET_KINDS,
        key=key("budget_kind"),
        horizontal=True,
        format_func=lambda kind: t(f"tr.budget.{kind}", lang),
    )
    if PAGE.get("budget_kind") == "steps":
        budget[1].number_input(t("tr.steps", lang), RUN_MIN_STEPS, RUN_MAX_STEPS, step=STEPS_STEP, key=key("steps"))
    else:
        budget[1].number_input(t("tr.seconds", lang), 1, RUN_MAX_SECONDS, key=key("seconds"))


def chosen_corpus() -> Corpus:
    """The chosen corpus, or InputError with a reason a student can read."""
    name = PAGE.get("corpus")
    context = PAGE.get("context")
    if name == "own":
        upload = st.session_state.get("tr_upload")
        text = decode_user_text(upload.getvalue()) if upload is not None else PAGE.get("own_text")
        if not text.strip():  # nothing pasted, and no file (or one the upload box refused)
            raise InputError("own_corpus_empty", limit_mb=upload_limit_mb())
        return build_corpus("own", text, context)
    return shared_corpus(name, context)  # InputError("corpus_missing") where the server lacks it


def gpt_config(corpus: Corpus) -> GPTConfig:
    """The model the controls describe: embedding = heads × head_dim."""
    return GPTConfig(
        vocab_size=corpus.vocabulary.size,
        context_length=PAGE.get("context"),
        embedding_dim=PAGE.get("heads") * PAGE.get("head_dim"),
        heads=PAGE.get("heads"),
        blocks=PAGE.get("blocks"),
    )


def train_config() -> TrainConfig:
    if PAGE.get("budget_kind") == "steps":
        steps = min(PAGE.get("steps"), RUN_MAX_STEPS)
        return TrainConfig(
            steps=steps, eval_every=EVAL_EVERY, max_seconds=RUN_MAX_SECONDS, max_bytes=TRAINING_MAX_BYTES
        )
    seconds = min(float(PAGE.get("seconds")), RUN_MAX_SECONDS)
    return TrainConfig(
        steps=None, seconds=seconds, eval_every=EVAL_EVERY, max_seconds=RUN_MAX_SECONDS, max_bytes=TRAINING_MAX_BYTES
    )
