"""Real language models a page can show: the ones the host offers (``ATTENTION_MODELS``, a
comma-separated list of Hugging Face ids or local folders; gpt_core.hf.DEFAULT_MODELS when it
is not set). A link names one by its id (a local folder by its last part), and a student can
choose only from that list.

Each model is loaded once per process and shared by every session, read only; the first use
downloads it into the Hugging Face cache with a progress bar. A text's trace through a model
is computed once and shared too. transformers is imported only here, when a model is chosen.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property

import streamlit as st

from gpt_core import InputError, hf
from gpt_core.explore import ModelTrace

from ..numbers import format_bytes, parameters_text
from ..strings import error_text, t
from .shared_cache import MISSING, SharedResults

MODELS_LOADED = 8  # real models held in memory at once (a host offers a few)
TRACES_SHARED = 16  # (model, text) traces kept for everyone (each (layers, h, T, T) weights)
DEFAULT_PROMPT = "The cat sat on the mat because it was tired. 动手学大模型"
_LOCK = threading.Lock()
FAILED_STATE = "real_model_failed"  # (key, InputError): the last real model that could not be had


def offered() -> dict[str, str]:
    """The models this server offers: the name a link carries -> the id or folder to load."""
    return {hf.short_name(entry): entry for entry in hf.offered_models()}


def is_real(key: str | None) -> bool:
    return key is not None and key in offered()


def label(key: str, lang: str) -> str:
    """"gpt2 (real model)" for a select box."""
    return t("models.real", lang, name=key)


@dataclass(frozen=True)
class RealLoaded:
    """A loaded real model, with the names a page reads from a trained GPT too."""

    key: str
    real: hf.RealModel
    default_prompt: str = DEFAULT_PROMPT
    serial: int = 0

    @property
    def description(self) -> hf.ModelDescription:
        return self.real.description

    @property
    def heads(self) -> int:
        return self.description.heads

    @property
    def blocks(self) -> int:
        return self.description.layers

    @property
    def head_dim(self) -> int:
        return self.description.head_dim

    @property
    def embedding_dim(self) -> int:
        return self.description.hidden

    @property
    def context_length(self) -> int:
        return min(self.description.context or hf.MAX_REAL_TOKENS, hf.MAX_REAL_TOKENS)


@st.cache_resource(max_entries=MODELS_LOADED, show_spinner=False)
def _load(entry: str) -> hf.RealModel:
    """One copy per process, for every session (eval mode, no gradients: read only)."""
    return hf.load(entry)


def _download(entry: str, lang: str) -> None:
    """Fetch ``entry`` into the cache with a progress bar, unless it is there already."""
    if hf.local_folder(entry) is not None:
        return
    bar = st.progress(0.0, text=t("real.downloading", lang, name=entry, done="0 B", total="…"))

    def show(done: int, total: int) -> None:
        text = t("real.downloading", lang, name=entry, done=format_bytes(done), total=format_bytes(total))
        bar.progress(done / total if total else 1.0, text=text)

    with _LOCK:  # two students choosing it at once: one download
        hf.fetch(entry, progress=show)
    bar.empty()


def load(key: str, lang: str) -> RealLoaded | None:
    """The model the link or the box names, loaded (downloaded first, with progress, when it
    is not in the cache); None after a message that names it, when it cannot be had."""
    entry = offered().get(key)
    if entry is None:
        st.error(error_text(InputError("model_not_offered", name=key, offered=", ".join(offered()) or "–"), lang))
        return None
    try:
        _download(entry, lang)
        with st.spinner(t("real.loading", lang, name=key), show_time=True):
            real = _load(entry)
    except InputError as error:
        st.session_state[FAILED_STATE] = (key, error)
        show_failure(lang)
        return None
    return RealLoaded(key, real)


def show_failure(lang: str) -> None:
    """The message of the last real model this session could not have (a page that fell back
    to another model shows it on every run until the student chooses again)."""
    failed = st.session_state.get(FAILED_STATE)
    if failed is not None:
        st.error(error_text(failed[1], lang), icon=":material/cloud_off:")


# (model, text) traces, computed once for everyone (the tensors are only read).
REAL_TRACES: SharedResults[hf.RealTrace] = SharedResults(TRACES_SHARED)


def is_traced(loaded: RealLoaded, text: str) -> bool:
    """Whether ``text`` through ``loaded`` is already computed (then reading it is light)."""
    return REAL_TRACES.peek((offered()[loaded.key], text)) is not MISSING


def trace(loaded: RealLoaded, text: str) -> hf.RealTrace:
    """The trace of ``text`` through ``loaded``, computed once for everyone. Raises
    gpt_core.InputError for a text the model cannot read (empty)."""
    entry = offered()[loaded.key]
    return REAL_TRACES.get((entry, text), lambda: hf.trace(_load(entry), text))


class RealModelTrace(ModelTrace):
    """A real model's trace under the names the explorer reads from a trained GPT's trace
    (its layers are built when asked for; its weights are kept)."""

    def __init__(self, traced: hf.RealTrace) -> None:
        super().__init__(traced.text_used, (), traced.cut, traced.labels, traced.layers)  # type: ignore[arg-type]
        self.real = traced

    @cached_property
    def weights(self) -> list:
        return self.real.weights


def facts(loaded: RealLoaded, lang: str) -> str:
    """One line of what the model is, in the book's letters."""
    d = loaded.description
    return t(
        "real.facts", lang, family=d.family, layers=d.layers, h=d.heads, h_kv=d.kv_heads, d=d.head_dim, C=d.width,
        hidden=d.hidden, context=d.context, params=parameters_text(d.parameters), size=format_bytes(d.bytes),
    )  # fmt: skip


def gqa_note(loaded: RealLoaded, lang: str) -> str | None:
    """How the query heads share key/value heads, when they do."""
    d = loaded.description
    if d.kv_heads == d.heads:
        return None
    return t("real.gqa", lang, h=d.heads, h_kv=d.kv_heads, groups=d.groups)
