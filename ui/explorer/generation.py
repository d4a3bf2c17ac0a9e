"""The explorer's generation: the prompt continued token by token, and where the chosen head
looked at each step. Made once per its settings for every session, kept in the session."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from figures import generation_figure
from figures.generation import generation_window
from gpt_core.playground import MAX_SEED
from gpt_core.source import generate_with_attention
from links.explorer import MAX_GENERATE, MAX_TEMPERATURE
from string_table import t
from string_table.figure_words import figure_words

from ..charts import show_chart, sized_for_page
from ..shared.shared_cache import SharedResults
from .views import GENERATION_CHART_KEY, ExplorerView

GENERATION_STATE = "ex_generation"  # (settings, steps): the last generation, kept
TEMPERATURE_STEP = 0.1
# Generations by (source, prompt, n, temperature, seed): the same for everyone.
SHARED_GENERATIONS: SharedResults[tuple] = SharedResults(max_entries=64)


def _generate(view: ExplorerView, n: int, temperature: float, seed: int) -> tuple[str, list, list, list]:
    """(the text with its continuation, the rows, the new tokens' labels, the contexts' labels)."""
    prompt = view.trace.text_used
    steps = generate_with_attention(view.source, prompt, n, temperature, seed)
    new = view.source.decode([step.token.token_id for step in steps])
    return (
        prompt + new,
        [step.rows for step in steps],
        [step.token.label for step in steps],
        [step.context for step in steps],
    )


def generation(view: ExplorerView, lang: str, key: Callable[[str], str]) -> None:
    if not view.source.capabilities.generates:
        st.info(t("ex.no_generation", lang), icon=":material/info:")
        return
    padding, vocab = view.about.padding, view.about.vocabulary
    if padding:  # its extra ids are never chosen (the source gives them no probability)
        st.info(t("odds.padded", lang, rows=vocab + padding, vocab=vocab, extra=padding), icon=":material/info:")
    st.caption(t(f"ex.generate_intro.{view.source.words.token}", lang))
    n_col, temp_col, seed_col = st.columns(3)
    n_col.slider(t("ex.generate_n", lang), 1, MAX_GENERATE, key=key("n"))
    temp_col.slider(t("ex.temperature", lang), 0.0, MAX_TEMPERATURE, step=TEMPERATURE_STEP, key=key("temp"))
    seed_col.number_input(t("ex.seed", lang), 0, MAX_SEED, step=1, key=key("seed"))
    ss = st.session_state
    n, temperature, seed = ss[key("n")], round(float(ss[key("temp")]), 2), int(ss[key("seed")])
    settings = (view.source.identity, view.trace.text_used, n, temperature, seed)
    kept = ss.get(GENERATION_STATE)
    if kept is None or kept[0] != settings:  # the same settings give every session the same text: made once
        kept = (settings, SHARED_GENERATIONS.get(settings, lambda: _generate(view, n, temperature, seed)))
        ss[GENERATION_STATE] = kept
    text, rows, chars, contexts = kept[1]
    st.caption(t("ex.generated_text", lang))
    st.code(text, language=None, wrap_lines=True)
    if not rows:
        return
    sized = sized_for_page()
    head_rows = [row[view.layer, view.head].numpy() for row in rows]
    first = generation_window(max(len(row) for row in head_rows))
    if first:
        before = max(float(row[:first].sum()) for row in head_rows)
        st.caption(
            t(
                "ex.generation_window",
                lang,
                first=first,
                last=max(len(row) for row in head_rows) - 1,
                share=f"{before:.1%}",
            )
        )

    def build():
        return generation_figure(
            head_rows,
            chars,
            contexts,
            view.head,
            view.layer,
            figure_words(lang),
            unit_word=f"ex.col.{view.source.words.unit}",
            size=sized,
        )

    shared = ("generation", settings, view.layer, view.head, sized)
    show_chart(
        build,
        GENERATION_CHART_KEY,
        sized=True,
        share=shared,
        file_name=view.file_name("generation", block=view.layer + 1, head=view.head + 1, n=n, seed=seed),
    )
