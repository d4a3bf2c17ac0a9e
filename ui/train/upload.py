"""A model the student downloaded from this page, uploaded again: after a server restart,
on another day or another computer, it is this session's model everywhere (the Train
page's generation, the playground's and the explorer's weights)."""

from __future__ import annotations

import streamlit as st

from gpt_core import InputError, load_checkpoint
from string_table import error_text, t

from ..shared.models import TrainedModel
from .controls import upload_limit_mb
from .running import use_model

UPLOAD_KEY = "tr_model_upload"
LOADED_STATE = "tr_model_upload_loaded"  # the id of the file last loaded (each file once)


def _prompt_hint(chars: tuple[str, ...]) -> str:
    """A prompt the model can read: its first letter, else its first character."""
    letters = [char for char in chars if char.isalpha()]
    return (letters or list(chars) or [""])[0]


def model_upload(lang: str) -> None:
    """A box for a model file (.pt, weights only, at most the server's upload size); a
    readable one becomes this session's model, an unreadable one says why."""
    upload = st.file_uploader(
        t("tr.upload_model", lang),
        type=["pt"],
        key=UPLOAD_KEY,
        help=t("tr.upload_model_help", lang, limit_mb=upload_limit_mb()),
    )
    if upload is None or st.session_state.get(LOADED_STATE) == upload.file_id:
        return
    st.session_state[LOADED_STATE] = upload.file_id
    try:
        checkpoint = load_checkpoint(upload.getvalue())
    except InputError as error:
        st.error(error_text(error, lang), icon=":material/error:")
        return
    meta = checkpoint.meta
    use_model(
        TrainedModel(
            model=checkpoint.model,
            vocabulary=checkpoint.vocabulary,
            corpus=meta.corpus,
            corpus_sha256=meta.corpus_sha256,
            run=meta.run,
            prompt_hint=_prompt_hint(checkpoint.vocabulary.chars),
        )
    )
    st.rerun()  # the model's summary above the box, and every page's choice of weights, follow
