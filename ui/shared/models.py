"""Trained models a page can look into: the shipped heads experiment's models (one per head
count, shared read-only by every user) and the model this session trained (its own, in
st.session_state). A model is named by a short key that a link can carry: ``h4`` for the
shipped 4-head model, ``session`` for this session's model.

Each is a ``gpt_core.sources.TinyGPT``; pages reach them through ui/shared/sources.py's registry.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import streamlit as st

from gpt_core import GPT, CharVocabulary, CheckpointMeta, RunSummary, checkpoint_bytes
from gpt_core.source import Note
from gpt_core.sources import TinyGPT
from string_table import t

from ..memory import JANITOR
from .resources import shipped_experiment, shipped_model, shipped_snapshots

SESSION_KEY = "session"
SHIPPED_PREFIX = "h"
MODEL_STATE = "tr_model"  # this session's trained model (a TrainedModel)
_SERIALS = itertools.count(1)  # never reused, unlike id(): a new model never gets an old one's traces


@dataclass
class TrainedModel:
    """A model this session trained (or stopped), with what it learned from."""

    model: GPT
    vocabulary: CharVocabulary
    corpus: str
    corpus_sha256: str
    run: RunSummary
    stopped: bool = False
    prompt_hint: str = ""  # the start of its corpus: a prompt it can read
    # A number no other model of this process gets (a memo keyed on id() could hand a new
    # model, allocated where a freed one was, the old one's traces).
    serial: int = field(default_factory=lambda: next(_SERIALS), init=False, compare=False)

    def __post_init__(self) -> None:
        # Once Streamlit forgets the session (and its model), memory is trimmed soon after.
        JANITOR.watch(self)


def checkpoint_file_name(trained: TrainedModel) -> str:
    """The name the Train page downloads this session's model as (its snippet loads that file)."""
    return f"gpt_{trained.corpus}.pt"


def checkpoint_of(trained: TrainedModel) -> bytes:
    """The model as a checkpoint file (gpt_core.load_checkpoint reads it, weights only)."""
    meta = CheckpointMeta(corpus=trained.corpus, corpus_sha256=trained.corpus_sha256, run=trained.run)
    return checkpoint_bytes(trained.model, trained.vocabulary, meta)


def shipped_key(heads: int) -> str:
    return f"{SHIPPED_PREFIX}{heads}"


def shipped_keys() -> list[str]:
    experiment = shipped_experiment()
    return [shipped_key(h) for h in experiment.head_counts] if experiment is not None else []


def has_session_model() -> bool:
    return st.session_state.get(MODEL_STATE) is not None


def model_keys() -> list[str]:
    """The models there are now: the shipped ones, then this session's, if it trained one."""
    return shipped_keys() + ([SESSION_KEY] if has_session_model() else [])


def load(key: str) -> TinyGPT | None:
    """The model named ``key``, or None when there is no such model here (a link to another
    session's model, a head count that was not shipped)."""
    if key == SESSION_KEY:
        trained = st.session_state.get(MODEL_STATE)
        if trained is None:
            return None
        context = trained.model.config.context_length
        return TinyGPT(
            trained.model,
            trained.vocabulary,
            key,
            (trained.prompt_hint or "")[:context],
            serial=trained.serial,
            checkpoint=checkpoint_file_name(trained),  # the file the Train page's download writes
        )
    if key not in shipped_keys():
        return None
    heads = int(key.removeprefix(SHIPPED_PREFIX))
    checkpoint = shipped_model(heads)
    if checkpoint is None:
        return None
    experiment = shipped_experiment()
    run = experiment.checkpointed_run(heads)
    return TinyGPT(
        checkpoint.model,
        checkpoint.vocabulary,
        key,
        experiment.snapshot_prompt[: checkpoint.model.config.context_length],
        checkpoint=f"assets/heads_experiment/{run.checkpoint_file}",
        snapshots=lambda: shipped_snapshots(heads),
        snapshot_prompt=experiment.snapshot_prompt,
    )


def label_note(key: str) -> Note:
    """ "Shipped model, h = 4" / "Your model": every page's one name for it."""
    if key == SESSION_KEY:
        return Note("models.session")
    return Note("models.shipped", {"heads": key.removeprefix(SHIPPED_PREFIX)})


def label(key: str, lang: str) -> str:
    note = label_note(key)
    return t(note.key, lang, **note.values)
