"""The explorer's next-token odds: the model's probabilities for the token after the prompt as
bars, cut and renormalised by temperature, top-k and top-p, a seeded draw that a button adds
to the prompt (the link keeps the longer prompt), and the attention row of the last query
in the chosen block and head, the row behind the odds.

The numbers are gpt_core's (the source's ``next_step``, ``gpt_core.odds``); the logits of
a (model, prompt) are computed once for every session."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import streamlit as st

from figures import generation_figure, odds_figure
from figures.generation import generation_window
from gpt_core import InputError, display_label, next_token_odds, sample
from gpt_core.playground import MAX_SEED
from gpt_core.source import AttentionSource, NextStep
from links.explorer import MAX_PROMPT_CHARS, MAX_TEMPERATURE, MIN_TOP_P
from string_table import error_text, t
from string_table.figure_words import figure_words

from ..charts import show_chart, sized_for_page, type_scale
from ..markdown import literal
from ..shared.shared_cache import SharedResults
from . import views

ODDS_CHART_KEY = "ex_odds_chart"
ODDS_ROW_CHART_KEY = "ex_odds_row_chart"
SHOWN = 20  # the likeliest tokens drawn
TEMPERATURE_STEP = 0.1
TOP_P_STEP = 0.05


# (source, prompt) -> NextStep: the same for everyone.
SHARED_STEPS: SharedResults[NextStep] = SharedResults(max_entries=64)


def _compute(source: AttentionSource, prompt: str) -> NextStep:
    return source.next_step(prompt)


def next_step(source: AttentionSource, prompt: str) -> NextStep:
    """The next token's logits of ``prompt`` through ``source``, computed once for everyone."""
    return SHARED_STEPS.get((source.identity, prompt), lambda: _compute(source, prompt))


def _append(prompt_key: str, longer: str) -> None:
    """The Sample button: the prompt with the drawn token (before the page reruns)."""
    st.session_state[prompt_key] = longer


def _controls(lang: str, key: Callable[[str], str], vocab: int) -> tuple[float, int | None, float | None, int]:
    ss = st.session_state
    if isinstance(ss.get(key("top_k")), int) and ss[key("top_k")] > vocab:
        ss[key("top_k")] = vocab  # a link's k beyond this vocabulary keeps every token: the same odds
    temp_col, k_col, p_col, seed_col = st.columns(4)
    temp_col.slider(t("odds.temperature", lang), 0.0, MAX_TEMPERATURE, step=TEMPERATURE_STEP, key=key("odds_temp"))
    k_col.number_input(
        t("odds.top_k", lang), 0, vocab, step=1, key=key("top_k"), help=t("odds.top_k_help", lang, vocab=vocab)
    )
    p_col.slider(t("odds.top_p", lang), MIN_TOP_P, 1.0, step=TOP_P_STEP, key=key("top_p"))
    seed_col.number_input(t("odds.seed", lang), 0, MAX_SEED, step=1, key=key("sample_seed"))
    temperature = round(float(ss[key("odds_temp")]), 2)
    top_k = int(ss[key("top_k")]) or None
    top_p = round(float(ss[key("top_p")]), 2)
    return temperature, top_k, (top_p if top_p < 1 else None), int(ss[key("sample_seed")])


def odds(view: views.ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    """The next-token odds tab."""
    st.caption(t("odds.intro", lang))
    source = view.source
    if not source.capabilities.generates:
        st.info(t("ex.no_generation", lang), icon=":material/info:")
        return
    prompt = view.identity[-1] if view.identity else view.trace.text_used
    try:
        step = next_step(source, prompt)
    except InputError as error:
        st.error(error_text(error, lang))
        return
    if step.logits is None:
        st.info(t("odds.no_logits", lang), icon=":material/info:")
        return
    vocab = int(step.logits.numel())
    if step.padding:
        st.info(
            t("odds.padded", lang, rows=vocab + step.padding, vocab=vocab, extra=step.padding), icon=":material/info:"
        )
    temperature, top_k, top_p, seed = _controls(lang, key, vocab)
    try:
        found = next_token_odds(step.logits, temperature, top_k, top_p)
    except InputError as error:  # the controls' ranges keep this from happening; a message, never a traceback
        st.error(error_text(error, lang))
        return
    shown = min(SHOWN, vocab)
    ids = found.ids[:shown].tolist()
    tokens = [source.token(i) for i in ids]
    labels = [item.label for item in tokens]
    last = display_label(step.context[-1]) if step.context else ""
    title = t("odds.title", lang, last=last, T=len(step.context))
    before, after = found.before[:shown].numpy(), found.after[:shown].numpy()
    scale = type_scale()

    def build():
        return odds_figure(labels, before, after, found.kept, figure_words(lang), title=title, scale=scale)

    name = view.file_name("odds", temp=temperature, k=top_k, p=top_p)
    share = view.shared("odds", temperature, top_k, top_p, scale)  # the view's identity: the source and prompt
    show_chart(build, ODDS_CHART_KEY, sized=True, share=share, file_name=name)
    st.caption(t("odds.kept", lang, kept=found.kept, vocab=vocab, shown=shown))
    _sample(found, seed, source, prompt, lang, key)
    _row(view, step, lang)


def _sample(found, seed: int, source: AttentionSource, prompt: str, lang: str, key: Callable[[str], str]) -> None:
    drawn = sample(found, seed)
    item = source.token(drawn)
    p = float(found.by_id(found.after)[drawn])
    st.markdown(t("odds.drawn", lang, seed=seed, token=literal(item.label), p=p))
    if item.text is None:
        st.info(t("odds.not_text", lang, token=literal(item.label)), icon=":material/info:")
        return
    longer = prompt + item.text
    if len(longer) > MAX_PROMPT_CHARS:
        st.info(t("odds.prompt_full", lang, limit=MAX_PROMPT_CHARS), icon=":material/info:")
        return
    st.button(
        t("odds.sample", lang),
        key="ex_odds_sample",
        help=t("odds.sample_help", lang),
        on_click=_append,
        args=(key("prompt"), longer),
    )


def _row(view: views.ExplorerView, step: NextStep, lang: str) -> None:
    """The last query's attention over the context in the chosen block and head."""
    st.subheader(t(f"odds.row_title.{view.source.words.unit}", lang, block=view.layer + 1, head=view.head + 1))
    st.caption(t("odds.row_help", lang, unit=t(f"ex.col.{view.source.words.unit}", lang)))
    row = step.rows[view.layer, view.head].numpy().astype(np.float32)
    sized = sized_for_page()
    last = step.context[-1] if step.context else ""
    first = generation_window(len(row))
    if first:
        st.caption(
            t("ex.generation_window", lang, first=first, last=len(row) - 1, share=f"{float(row[:first].sum()):.1%}")
        )

    def build():
        return generation_figure(
            [row],
            [last],
            [step.context],
            view.head,
            view.layer,
            figure_words(lang),
            unit_word=f"ex.col.{view.source.words.unit}",
            size=sized,
        )

    show_chart(
        build,
        ODDS_ROW_CHART_KEY,
        sized=True,
        share=view.shared("odds_row", view.layer, view.head, sized),  # the step: the view's source and prompt
        file_name=view.file_name("odds_row", block=view.layer + 1, head=view.head + 1),
    )
