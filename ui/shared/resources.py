"""What every student of one server shares, read-only: the training slots, the corpora
and the shipped results. A student's own model never lives here (st.session_state)."""

from __future__ import annotations

import threading

import streamlit as st

from gpt_core import Checkpoint, Corpus, InputError, build_corpus, find_tiny_shakespeare, read_verified, synthetic_text
from gpt_core.data import TINY_SHAKESPEARE_ENV
from gpt_core.results import ShippedExperiment, load_experiment
from seeing_attention.paths import ASSETS

from ..runtime import count_setting, usable_cpus

EXPERIMENT_DIR = ASSETS / "heads_experiment"
# How many trainings may run at once on this server, for all users together: one per usable
# CPU, a container's CPU limit included (each training computes with one thread, see ui/runtime.py).
TRAINING_SLOTS = count_setting("TRAINING_SLOTS", usable_cpus())
# The most memory one training may take, estimated before it starts (gpt_core.train's
# gpt_core.memory.estimate_training_bytes); a larger model is refused. Two slots stay under ~1.2-1.5 GB.
TRAINING_MEMORY_MB = count_setting("TRAINING_MEMORY_MB", 600)
TRAINING_MAX_BYTES = TRAINING_MEMORY_MB * 2**20
SYNTHETIC_LENGTH = 60_000  # characters of a generated corpus
SHIPPED_RUNS = 8  # head counts of the shipped experiment, with room to spare
SHARED_CORPORA = 12  # corpus × context pairs kept built at once (each up to ~20 MB of windows)


@st.cache_resource
def training_slots() -> threading.BoundedSemaphore:
    return threading.BoundedSemaphore(TRAINING_SLOTS)


@st.cache_resource
def download_lock() -> threading.Lock:
    """One download at a time on this server (two students may click at once)."""
    return threading.Lock()


@st.cache_resource
def tiny_shakespeare() -> str | None:
    """The corpus text if a verified copy is found (see gpt_core.data), else None."""
    path = find_tiny_shakespeare()
    return read_verified(path) if path is not None else None


@st.cache_resource(max_entries=SHARED_CORPORA)
def shared_corpus(name: str, context_length: int) -> Corpus:
    """Tiny Shakespeare or a synthetic corpus: built once, read by everyone. Raises
    ``InputError("corpus_missing")`` (the page's message) where this server has no verified
    copy of Tiny Shakespeare; a failure is not cached, so a download later is seen."""
    if name != "tinyshakespeare":
        return build_corpus(name, synthetic_text(name, SYNTHETIC_LENGTH), context_length)
    text = tiny_shakespeare()
    if text is None:
        raise InputError("corpus_missing", env=TINY_SHAKESPEARE_ENV)
    return build_corpus(name, text, context_length)


@st.cache_resource
def shipped_experiment() -> ShippedExperiment | None:
    return load_experiment(EXPERIMENT_DIR)


@st.cache_resource(max_entries=SHIPPED_RUNS)
def shipped_snapshots(heads: int) -> dict:
    """The shipped attention snapshots of one head count (read once, not on every rerun)."""
    return shipped_experiment().snapshots(heads)


@st.cache_resource(max_entries=SHIPPED_RUNS)
def shipped_model(heads: int) -> Checkpoint | None:
    """A shipped checkpoint, for generation only (eval mode, no_grad: safe to share)."""
    experiment = shipped_experiment()
    return experiment.checkpoint(heads) if experiment is not None else None
