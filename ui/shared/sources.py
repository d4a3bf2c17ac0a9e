"""Every source of attention a page can show, behind one loader and one shared cache.

A page names a source the way its link does: ``random`` (the book's layer, random weights),
``h2``/``h4``/``h8`` (the shipped heads experiment's models), ``session`` (the model this
session trained) or a real model the host offers (``gpt2``, a folder's last part). ``load``
gives a ``gpt_core.source.AttentionSource``; ``trace`` reads a text through it once for every
session of the server, keyed by the source's identity (a name with a serial that is never
reused, or its settings) and the text. Pages speak only this module and the interface: the
backends (ui/shared/models.py, ui/shared/real_models.py, gpt_core.sources) stay here.

Adding a model family: one class in ``gpt_core/sources.py`` and one line in ``load`` below.
"""

from __future__ import annotations

import torch

from gpt_core import PlaygroundConfig
from gpt_core.attention import Trace
from gpt_core.source import AttentionSource, source_induction_scores
from gpt_core.sources import RandomWeights, TinyGPT

from ..strings import t
from . import models, real_models
from .resources import shipped_experiment, shipped_snapshots
from .shared_cache import MISSING, SharedResults

RANDOM = "random"
SESSION = models.SESSION_KEY
TRACES_SHARED = 64  # (source, text) traces kept for every session
TRACES_MB = 768  # and their memory (a real model's 12 × 12 heads of 512 tokens: ~150 MB)
INDUCTION_SHARED = 16


def _trace_bytes(trace: Trace) -> int:
    return sum(weights.nbytes for weights in trace.weights)


TRACES: SharedResults[Trace] = SharedResults(TRACES_SHARED, TRACES_MB * 2**20, _trace_bytes)
INDUCTION: SharedResults[torch.Tensor] = SharedResults(INDUCTION_SHARED)


def model_names(real: bool = True) -> list[str]:
    """The models there are here: the shipped ones, this session's, then (unless ``real`` is
    false) the real ones the host offers."""
    return [*models.model_keys(), *(real_models.offered() if real else ())]


def is_offered(name: str | None) -> bool:
    return name == RANDOM or name in model_names()


def load(name: str, lang: str, config: PlaygroundConfig | None = None) -> AttentionSource | None:
    """The source ``name`` names (random weights: with ``config``); None when there is no such
    model here (another session's model, a head count not shipped), or after a message that
    names a real model that cannot be had. A real model is downloaded first, with progress."""
    if name == RANDOM:
        return RandomWeights(config if config is not None else PlaygroundConfig())
    if real_models.is_real(name):
        return real_models.load(name, lang)
    loaded = models.load(name)
    if loaded is None:
        return None
    return TinyGPT(loaded.model, loaded.vocabulary, name, loaded.default_prompt[: loaded.context_length],
                   serial=loaded.serial, snapshots=name in models.shipped_keys(),
                   retrainable=name == SESSION)  # fmt: skip


def default_prompt_of(name: str) -> str | None:
    """The default prompt of the model ``name`` names, without loading a real one."""
    if real_models.is_real(name):
        return real_models.DEFAULT_PROMPT
    loaded = models.load(name)
    return loaded.default_prompt[: loaded.context_length] if loaded is not None else None


def label(name: str, lang: str) -> str:
    """How a select box names a source: "Random weights", "Shipped model, h = 4", "gpt2 (real model)"."""
    if name == RANDOM:
        return t("pg.weights.random", lang)
    return real_models.label(name, lang) if real_models.is_real(name) else models.label(name, lang)


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
    return TRACES.get((source.identity, text), lambda: source.trace(text))


def induction(source: AttentionSource) -> torch.Tensor:
    """(layers, h) induction scores of ``source``, computed once for every session."""
    return INDUCTION.get(source.identity, lambda: source_induction_scores(source))


def snapshot_steps(source: AttentionSource) -> tuple[int, ...]:
    """The training steps whose attention was kept (the shipped models), else none."""
    if not source.capabilities.snapshots:
        return ()
    return tuple(sorted(shipped_snapshots(source.description.heads)))


def snapshot(source: AttentionSource, step: int) -> tuple:
    """The kept weights (layers, h, T, T) at ``step`` and the prompt they were taken on."""
    weights = shipped_snapshots(source.description.heads)[step]
    return weights, shipped_experiment().snapshot_prompt[: weights.shape[-1]]


def facts(source: AttentionSource, lang: str) -> str:
    """One line of what a model fixes, in the book's letters."""
    d = source.description
    if d.origin == "hub":
        return real_models.facts(d, lang)
    return t("pg.trained_facts", lang, h=d.heads, d=d.head_dim, C=d.hidden, context=d.context, chars=d.vocabulary)


def gqa_note(source: AttentionSource, lang: str) -> str | None:
    """How the query heads share key/value heads, when they do."""
    return real_models.gqa_note(source.description, lang)
