"""Real language models a page can show: the ones the host offers (``ATTENTION_MODELS``, a
comma-separated list of Hugging Face ids or local folders; gpt_core.hf.DEFAULT_MODELS when it
is not set). A link names one by its id (a local folder by its last part), and a student can
choose only from that list.

Each model is loaded once per process and shared by every session, read only (a
``gpt_core.sources.HubModel``); the first use downloads it into the Hugging Face cache with a
progress bar. transformers is imported only when a model is chosen.
"""

from __future__ import annotations

import itertools
import os
import threading
import time

import streamlit as st

from gpt_core import InputError, hf
from gpt_core.hf.hub import fetch_command
from gpt_core.source import Note
from gpt_core.sources import HubModel
from string_table import error_text, t

from ..numbers import format_bytes

MODELS_LOADED = 8  # real models held in memory at once (a host offers a few)
DEFAULT_PROMPT = "The cat sat on the mat because it was tired. 动手学大模型"
_LOCK = threading.Lock()
FAILED_STATE = "real_model_failed"  # (key, InputError): the last real model that could not be had
_SERIALS = itertools.count(1)
HERE_TTL_S = 30.0  # how long "is this model on this computer" is taken as known
_HERE: dict[tuple, tuple[bool, float]] = {}  # (entry, cache settings) -> (here, when looked)


def offered() -> dict[str, str]:
    """The models this server offers: the name a link carries -> the id or folder to load."""
    return {hf.short_name(entry): entry for entry in hf.offered_models()}


def is_real(key: str | None) -> bool:
    return key is not None and key in offered()


def is_here(key: str) -> bool:
    """True when the model is on this computer (a folder, or the cache's complete copy): it
    opens without the network. Looked up at most every HERE_TTL_S seconds per cache: a model
    downloaded meanwhile loses its mark by then (the box's label does not change under the
    run that downloads it)."""
    entry = offered().get(key, key)
    where = (entry, os.environ.get("HF_HUB_CACHE"), os.environ.get("HF_HOME"))
    seen = _HERE.get(where)
    if seen is None or time.monotonic() - seen[1] > HERE_TTL_S:
        seen = _HERE[where] = (hf.local_folder(entry) is not None, time.monotonic())
    return seen[0]


def label_note(key: str) -> Note:
    """ "gpt2 (real model)" for a select box; one not on this computer says so, with the
    command that fetches it ahead (a server without the network cannot)."""
    if is_here(key):
        return Note("models.real", {"name": key})
    return Note("models.real_not_here", {"name": key, "command": fetch_command(offered().get(key, key))})


@st.cache_resource(max_entries=MODELS_LOADED, show_spinner=False)
def _load(entry: str) -> HubModel:
    """One copy per process, for every session (eval mode, no gradients: read only); its
    serial is never reused (a copy evicted and loaded again gets a new one)."""
    return HubModel(hf.load(entry), hf.short_name(entry), DEFAULT_PROMPT, serial=next(_SERIALS))


def _download(entry: str, lang: str) -> None:
    """Fetch ``entry`` into the cache with a progress bar, unless it is there already."""
    if hf.local_folder(entry) is not None:
        return
    bar = st.progress(0.0, text=t("real.downloading", lang, name=entry, done="0 B", total="…"))

    def show(done: int, total: int) -> None:
        text = t("real.downloading", lang, name=entry, done=format_bytes(done), total=format_bytes(total))
        bar.progress(done / total if total else 1.0, text=text)

    try:
        with _LOCK:  # two students choosing it at once: one download
            hf.fetch(entry, progress=show)
    finally:  # a failed download leaves its message, never a bar
        bar.empty()


def load(key: str, lang: str) -> HubModel | None:
    """The model the link or the box names, loaded (downloaded first, with progress, when it
    is not in the cache); None after a message that names it, when it cannot be had."""
    entry = offered().get(key)
    if entry is None:
        st.error(error_text(InputError("model_not_offered", name=key, offered=", ".join(offered()) or "–"), lang))
        return None
    try:
        _download(entry, lang)
        with st.spinner(t("real.loading", lang, name=key), show_time=True):
            return _load(entry)
    except InputError as error:
        st.session_state[FAILED_STATE] = (key, error)
        show_failure(lang)
        return None


def show_failure(lang: str) -> None:
    """The message of the last real model this session could not have (a page that fell back
    to another model shows it on every run until the student chooses again)."""
    failed = st.session_state.get(FAILED_STATE)
    if failed is not None:
        st.error(error_text(failed[1], lang), icon=":material/cloud_off:")
