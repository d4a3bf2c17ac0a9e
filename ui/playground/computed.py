"""The playground's computation, whatever the weights: one layer of a source's trace as the
views read it, computed once per (source, text, layer) for every session of the server, and
what the source read of the text (left out, cut) in words.

The source is any ``gpt_core.source.AttentionSource`` (ui/shared/sources.py): random
weights, a shipped or trained tiny GPT, a real model. Nothing here asks which."""

from __future__ import annotations

from contextlib import nullcontext

import streamlit as st

from gpt_core import STAGES, InputError, PlaygroundTrace, head_statistics
from gpt_core.attention import Trace
from gpt_core.source import HEAVY_WORK, AttentionSource, trace_work
from string_table import error_text, t

from ..markdown import literal
from ..shared import sources
from ..shared.lanes import heavy_turn
from ..shared.shared_cache import SharedResults
from ..views.held import KEEP_MAX_BYTES
from .views import View

MEMO_STATE = "pg_memo"
SHARED_VIEW_ENTRIES = 128  # (source, text, layer) computations kept for every session of the server
SHARED_VIEW_MB = 256  # and the memory they may hold (random weights: 16 heads × 128 tokens, ~6 MB)
MEMO_MAX_BYTES = KEEP_MAX_BYTES  # a session keeps its last view itself up to this size (a short text's)


# Views shared by every session, by (source, text, layer): the arrays are only read.
SHARED_VIEWS: SharedResults[View] = SharedResults(SHARED_VIEW_ENTRIES, SHARED_VIEW_MB * 2**20, View.nbytes)


def layer_view(source: AttentionSource, trace: Trace, layer: int, identity: tuple = (), text: str = "") -> View:
    """Layer ``layer`` (0-based) of ``trace`` (of ``text``) as numpy arrays, ready for the figures."""
    traced = trace.layers[layer]
    result = PlaygroundTrace(
        tokens=trace.tokens,
        labels=trace.labels,
        total_tokens=trace.total_tokens,
        config=source.description,
        trace=traced,
    )
    return View(
        result=result,
        stages={stage: getattr(traced, stage)[0].numpy() for stage in STAGES},
        dropped_weights=traced.dropped_weights[0].numpy(),
        statistics={name: value.numpy() for name, value in head_statistics(traced.weights[0]).items()},
        source=source,
        labels=trace.labels,
        layer=layer,
        identity=identity,
        text=text,
        text_used=trace.text_used,
        left_out=trace.left_out,
        notes=source.notes(trace),
    )


def compute(source: AttentionSource, text: str, layer: int = 0) -> View:
    """Layer ``layer`` of ``text`` through ``source``: computed only when one of them changed,
    and once for every session of the server that asks for the same (a class on one link).
    Raises ``InputError`` for a text the source cannot read."""
    key = (source.identity, text, layer)
    memo = st.session_state.get(MEMO_STATE)
    if memo is not None and memo[0] == key:
        return memo[1]
    view = SHARED_VIEWS.get(key, lambda: layer_view(source, sources.trace(source, text), layer, key, text))
    # A session keeps its own reference only to a small view: a long text's (a real model's 12
    # heads of 512 tokens, ~70 MB) lives in the shared, bounded cache alone, so that a class of
    # long texts costs the server that bound, not a view per student.
    if view.nbytes() <= MEMO_MAX_BYTES:
        st.session_state[MEMO_STATE] = (key, view)
    else:
        st.session_state.pop(MEMO_STATE, None)
    return view


def readable_view(source: AttentionSource, text: str, layer: int, lang: str) -> tuple[View, str] | None:
    """The view of ``text`` and the text it is of, or None after the message a student reads
    (no text yet, a text the source refuses and no example of its own it reads). A text the
    source cannot read (the book's Chinese example for a model of Tiny Shakespeare) gives the
    view of the source's own example, with a note: the student's text stays in the box. A text
    no session has put through a model yet is heavy work: in the lane (ui/shared/lanes.py), so
    a class opening new texts at once cannot stall light reruns."""
    if not text.strip():
        st.info(t("pg.empty", lang), icon=":material/edit:")
        return None
    try:
        return _view_in_turn(source, text, layer, lang), text
    except InputError as error:
        refused = error
    own = source.default_prompt
    if own.strip() and own != text:
        try:
            view = _view_in_turn(source, own, layer, lang)
        except InputError:
            pass
        else:
            reason = error_text(refused, lang)
            st.warning(t("pg.own_example", lang, reason=reason, example=literal(own)), icon=":material/swap_horiz:")
            return view, own
    st.error(error_text(refused, lang))
    return None


def _view_in_turn(source: AttentionSource, text: str, layer: int, lang: str) -> View:
    heavy = trace_work(source.description, source.description.reads) > HEAVY_WORK and not sources.is_traced(
        source, text
    )
    with heavy_turn(lang) if heavy else nullcontext():
        return compute(source, text, layer)
