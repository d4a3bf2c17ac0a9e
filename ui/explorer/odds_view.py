"""The explorer's next-token odds: the model's probabilities for the token after the prompt as
bars, cut and renormalised by temperature, top-k and top-p, a seeded draw that a button adds
to the prompt (the link keeps the longer prompt), and the attention row of the last query
in the chosen block and head, the row behind the odds.

The numbers are gpt_core's (``gpt_core.odds``); the logits of a (model, prompt) are
computed once for every session."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

from figures import generation_figure, odds_figure
from gpt_core import InputError, display_label, hf, next_token, next_token_odds, sample
from gpt_core.playground import MAX_SEED

from ..charts import show_chart, sized_for_page, type_scale
from ..figure_text import figure_words
from ..markdown import literal
from ..shared.shared_cache import SharedResults
from ..strings import error_text, t
from . import views
from .state import MAX_PROMPT_CHARS, MAX_TEMPERATURE, MIN_TOP_P

ODDS_CHART_KEY = "ex_odds_chart"
ODDS_ROW_CHART_KEY = "ex_odds_row_chart"
SHOWN = 20  # the likeliest tokens drawn
TEMPERATURE_STEP = 0.1
TOP_P_STEP = 0.05


@dataclass(frozen=True)
class Token:
    """One token of the vocabulary as the page shows it and adds it to the prompt."""

    label: str  # visible (whitespace and newlines drawn)
    text: str | None  # what it adds to the prompt; None: not text (a byte of a character, a special token)


@dataclass(frozen=True)
class NextStep:
    """A prompt through a model: the next token's logits and the attention behind them."""

    logits: torch.Tensor | None  # (vocab,); None: the model gave none
    rows: torch.Tensor  # (blocks, h, T_ctx) the last query's weights
    context: list[str]  # the tokens read: a character model's characters, a real model's labels
    padding: int = 0  # the model's scores of ids its tokenizer has no token for (left out of the odds)


# (model, serial, prompt) -> NextStep: the same for everyone.
SHARED_STEPS: SharedResults[NextStep] = SharedResults(max_entries=64)


def _compute(loaded, prompt: str) -> NextStep:
    if views.is_real(loaded):
        traced = hf.trace(loaded.real, prompt, logits=True)
        rows = torch.stack([weights[0, :, -1, :] for weights in traced.weights])
        if traced.logits is None:
            return NextStep(None, rows, traced.labels)
        scores = traced.logits[0, -1].float()
        logits = hf.token_logits(loaded.real, scores)  # a padded embedding's extra ids are no token
        return NextStep(logits, rows, traced.labels, scores.numel() - logits.numel())
    step = next_token(loaded.model, loaded.vocabulary, prompt)
    return NextStep(step.logits, step.rows, list(step.context))


def next_step(loaded, prompt: str) -> NextStep:
    """The next token's logits of ``prompt`` through ``loaded``, computed once for everyone."""
    identity = (loaded.key, getattr(loaded, "serial", 0), prompt)
    return SHARED_STEPS.get(identity, lambda: _compute(loaded, prompt))


def token(loaded, token_id: int) -> Token:
    """How token ``token_id`` of ``loaded``'s vocabulary is shown and written."""
    if views.is_real(loaded):
        piece = hf.piece(loaded.real, token_id)
        return Token(piece.label, piece.text if piece.kind == "text" else None)
    char = loaded.vocabulary.decode([token_id])
    return Token(display_label(char), char)


def vocabulary_size(loaded, step: NextStep) -> int:
    return int(step.logits.numel()) if step.logits is not None else 0


def _append(prompt_key: str, longer: str) -> None:
    """The Sample button: the prompt with the drawn token (before the page reruns)."""
    st.session_state[prompt_key] = longer


def _controls(lang: str, key: Callable[[str], str], vocab: int) -> tuple[float, int | None, float | None, int]:
    ss = st.session_state
    if isinstance(ss.get(key("top_k")), int) and ss[key("top_k")] > vocab:
        ss[key("top_k")] = vocab  # a link's k beyond this vocabulary keeps every token: the same odds
    temp_col, k_col, p_col, seed_col = st.columns(4)
    temp_col.slider(t("odds.temperature", lang), 0.0, MAX_TEMPERATURE, step=TEMPERATURE_STEP, key=key("odds_temp"))
    k_col.number_input(t("odds.top_k", lang), 0, vocab, step=1, key=key("top_k"),
                       help=t("odds.top_k_help", lang, vocab=vocab))  # fmt: skip
    p_col.slider(t("odds.top_p", lang), MIN_TOP_P, 1.0, step=TOP_P_STEP, key=key("top_p"))
    seed_col.number_input(t("odds.seed", lang), 0, MAX_SEED, step=1, key=key("sample_seed"))
    temperature = round(float(ss[key("odds_temp")]), 2)
    top_k = int(ss[key("top_k")]) or None
    top_p = round(float(ss[key("top_p")]), 2)
    return temperature, top_k, (top_p if top_p < 1 else None), int(ss[key("sample_seed")])


def odds(view: views.ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    """The next-token odds tab."""
    st.caption(t("odds.intro", lang))
    loaded = view.loaded
    prompt = view.identity[2] if len(view.identity) > 2 else view.trace.text_used
    try:
        step = next_step(loaded, prompt)
    except InputError as error:
        st.error(error_text(error, lang))
        return
    if step.logits is None:
        st.info(t("odds.no_logits", lang), icon=":material/info:")
        return
    vocab = vocabulary_size(loaded, step)
    if step.padding:
        st.info(t("odds.padded", lang, rows=vocab + step.padding, vocab=vocab, extra=step.padding),
                icon=":material/info:")  # fmt: skip
    temperature, top_k, top_p, seed = _controls(lang, key, vocab)
    try:
        found = next_token_odds(step.logits, temperature, top_k, top_p)
    except InputError as error:  # the controls' ranges keep this from happening; a message, never a traceback
        st.error(error_text(error, lang))
        return
    shown = min(SHOWN, vocab)
    ids = found.ids[:shown].tolist()
    tokens = [token(loaded, i) for i in ids]
    labels = [item.label for item in tokens]
    last = display_label(step.context[-1]) if step.context else ""
    title = t("odds.title", lang, last=last, T=len(step.context))
    before, after = found.before[:shown].numpy(), found.after[:shown].numpy()
    scale = type_scale()

    def build():
        return odds_figure(labels, before, after, found.kept, figure_words(lang), title=title, scale=scale)

    show_chart(build, ODDS_CHART_KEY, sized=True, file_name=views.file_name(view, "odds", temp=temperature, k=top_k, p=top_p))
    st.caption(t("odds.kept", lang, kept=found.kept, vocab=vocab, shown=shown))
    _sample(found, seed, loaded, prompt, lang, key)
    _row(view, step, lang)


def _sample(found, seed: int, loaded, prompt: str, lang: str, key: Callable[[str], str]) -> None:
    drawn = sample(found, seed)
    item = token(loaded, drawn)
    p = float(found.by_id(found.after)[drawn])
    st.markdown(t("odds.drawn", lang, seed=seed, token=literal(item.label), p=p))
    if item.text is None:
        st.info(t("odds.not_text", lang, token=literal(item.label)), icon=":material/info:")
        return
    longer = prompt + item.text
    if len(longer) > MAX_PROMPT_CHARS:
        st.info(t("odds.prompt_full", lang, limit=MAX_PROMPT_CHARS), icon=":material/info:")
        return
    st.button(t("odds.sample", lang), key="ex_odds_sample", help=t("odds.sample_help", lang), on_click=_append,
              args=(key("prompt"), longer))  # fmt: skip


def _row(view: views.ExplorerView, step: NextStep, lang: str) -> None:
    """The last query's attention over the context in the chosen block and head."""
    st.subheader(t("odds.row_title", lang, block=view.block + 1, head=view.head + 1))
    st.caption(t("odds.row_help", lang))
    row = step.rows[view.block, view.head].numpy().astype(np.float32)
    sized = sized_for_page()
    last = step.context[-1] if step.context else ""

    def build():
        return generation_figure([row], [last], [step.context], view.head, view.block, figure_words(lang), **sized)

    show_chart(build, ODDS_ROW_CHART_KEY, sized=True,
               file_name=views.file_name(view, "odds_row", block=view.block + 1, head=view.head + 1))  # fmt: skip
