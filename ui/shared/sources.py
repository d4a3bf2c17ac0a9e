"""Every source of attention a page can show, behind one registry and one shared cache.

A page names a source the way its link does: ``random`` (the book's layer, random weights),
``h2``/``h4``/``h8`` (the shipped heads experiment's models), ``session`` (the model this
session trained) or a real model the host offers (``gpt2``, a folder's last part). The
registry (``gpt_core.registry``) gives a ``gpt_core.source.AttentionSource``; ``trace`` reads a
text through it once for every session of the server, keyed by the source's identity (a name
with a serial that is never reused, or its settings) and the text. Pages speak only this
module and the interface; what is Streamlit's (the caches, a download's progress, this
session's model) stays in the providers here (ui/shared/models.py, ui/shared/real_models.py).

Adding a kind of source: one class with the interface, and one provider line in ``REGISTRY``
below (or in ``registry()`` for one that needs this session).
"""

from __future__ import annotations

from dataclasses import asdict

import streamlit as st
import torch

from gpt_core import PlaygroundConfig
from gpt_core.attention import Trace
from gpt_core.registry import RANDOM as RANDOM  # random weights' link name, for a page that shows them
from gpt_core.registry import ModelProvider, RandomProvider, Registry
from gpt_core.source import AttentionSource, Note, source_induction_scores
from string_table import t

from ..markdown import literal
from ..step_timing import timed
from . import models, real_models
from .shared_cache import MISSING, SharedResults

TRACES_SHARED = 64  # (source, text) traces kept for every session
TRACES_MB = 768  # and their memory (a real model's 12 × 12 heads of 512 tokens: ~150 MB)
INDUCTION_SHARED = 16


def _trace_bytes(trace: Trace) -> int:
    return sum(weights.nbytes for weights in trace.weights)


TRACES: SharedResults[Trace] = SharedResults(TRACES_SHARED, TRACES_MB * 2**20, _trace_bytes)
INDUCTION: SharedResults[torch.Tensor] = SharedResults(INDUCTION_SHARED)


def registry(lang: str) -> Registry:
    """The sources there are here now, in the order a list shows them: random weights, the
    shipped models, this session's, then the real ones the host offers (a real one is
    downloaded when opened, with progress and messages in ``lang``)."""
    return Registry(
        [
            RandomProvider(),
            ModelProvider(models.model_keys, models.load, models.label_note),
            ModelProvider(
                lambda: list(real_models.offered()),
                lambda name: real_models.load(name, lang),
                real_models.label_note,
                light=False,
            ),
        ]
    )


def names(light: bool = False) -> list[str]:
    """Every source's name there is now (the link's and the select box's choices); ``light``:
    only those that open and trace in moments (no real model)."""
    return registry("en").names(light)


def model_names(light: bool = False) -> list[str]:
    """The models there are now: sources whose sizes are their own (random weights are set up
    by the reader); ``light``: only those that open and trace in moments."""
    return [name for name in names(light) if not settings_of(name)]


def fallback_model(names: list[str], default: str) -> str:
    """The model a link falls back to: ``default`` when it is here, else the first there is."""
    return default if default in names or not names else names[0]


def preferred_model(names: list[str]) -> str:
    """The model a page offers first: this session's own when it trained one, else the first."""
    return models.SESSION_KEY if models.SESSION_KEY in names else names[0]


def settings_of(name: str) -> tuple[str, ...]:
    """The settings the source ``name`` takes, by their link names (a model: none)."""
    return registry("en").settings(name)


def is_offered(name: str | None) -> bool:
    return registry("en").offers(name)


def load(name: str, lang: str, config: PlaygroundConfig | None = None) -> AttentionSource | None:
    """The source ``name`` names (random weights: with ``config``); None when there is no such
    source here (another session's model, a head count not shipped), or after a message that
    names a real model that cannot be had."""
    return registry(lang).open(name, asdict(config) if config is not None else None)


def shipped_model_name(heads: int) -> str:
    """The name of the heads experiment's shipped model of ``heads`` heads ("h4")."""
    return models.shipped_key(heads)


def missing_reason(name: str) -> str:
    """Why a link's source is not here: this session trained no model, or no such model."""
    return "session_model_missing" if name == models.SESSION_KEY else "model_missing"


def default_prompt_of(name: str) -> str | None:
    """The default prompt of the model ``name`` names, without loading a real one."""
    if name in real_models.offered():
        return real_models.DEFAULT_PROMPT
    source = models.load(name)
    return source.default_prompt if source is not None else None


def label(name: str, lang: str) -> str:
    """How a select box names a source: "Random weights", "Shipped model, h = 4", "gpt2 (real model)"."""
    # Asked outside the page's run too (a select box formats its value): each provider names its
    # own, whether or not it can open it now.
    if name in real_models.offered():
        note = real_models.label_note(name)
    else:
        note = RandomProvider().label(name) if registry(lang).settings(name) else models.label_note(name)
    return t(note.key, lang, **note.values)  # plain text: a select box shows no Markdown


def note_text(note: Note, lang: str) -> str:
    """A source's note in ``lang``; the values that are the reader's own text shown literally,
    never as Markdown."""
    values = {name: literal(value) if name in note.literal else value for name, value in note.values.items()}
    return t(note.key, lang, **values)


def show_notes(notes: list[Note], lang: str) -> None:
    """A source's notes on a trace: what was cut or left out as warnings, remarks as captions."""
    for note in notes:
        if note.level == "warning":
            st.warning(note_text(note, lang), icon=":material/content_cut:")
        else:
            st.caption(note_text(note, lang))


def show_failure(lang: str) -> None:
    """The message of the last real model this session could not have (shown until the
    student chooses again)."""
    real_models.show_failure(lang)


def is_traced(source: AttentionSource, text: str) -> bool:
    """Whether ``text`` through ``source`` is already computed (then reading it is light)."""
    return TRACES.peek((source.identity, text)) is not MISSING


def trace(source: AttentionSource, text: str) -> Trace:
    """``text`` through ``source``, computed once for every session. Raises
    ``gpt_core.InputError`` for a text the source cannot read."""
    return TRACES.get((source.identity, text), lambda: timed("trace", lambda: source.trace(text)))


def induction(source: AttentionSource) -> torch.Tensor:
    """(layers, h) induction scores of ``source``, computed once for every session."""
    return INDUCTION.get(source.identity, lambda: source_induction_scores(source))


def facts(source: AttentionSource, lang: str) -> str | None:
    """One line of what a model fixes, in the book's letters (None: its settings say it all)."""
    note = source.facts()
    return note_text(note, lang) if note is not None else None


def gqa_note(source: AttentionSource, lang: str) -> str | None:
    """How the query heads share key/value heads, when they do."""
    d = source.description
    if d.kv_heads == d.heads:
        return None
    return t("real.gqa", lang, h=d.heads, h_kv=d.kv_heads, groups=d.groups)
