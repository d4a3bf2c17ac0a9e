"""The lesson's steps 10 and 11: the token question, "which earlier token will token N read
most in head h?", asked of the book's layer with random weights (step 10) and of a trained
head with a visible pattern (step 11: the shipped model's previous-token head, chosen by
``gpt_core.token_question.previous_token_head``). The options are the tokens up to N; the
answer is the head's live softmax row (every key tied at its maximum is right), drawn once
revealed as a bar per key in the head's colour. In a room the teacher's chart of the class's
choices and the student's own choice draw that row (``ui/room``), not the step."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from figures import heads_overview_figure, qkv_figure
from figures.token_question import token_question_figure
from gpt_core import PlaygroundConfig, position_label
from gpt_core.lesson import BOOK_TEXT
from gpt_core.token_question import (
    MAX_QUERY,
    TRAINED_HEADS,
    TRAINED_PROMPT,
    TokenRow,
    previous_token_head,
    strongest_keys,
)
from string_table import t
from string_table.figure_words import figure_words

from ..charts import page_width
from ..markdown import literal
from ..shared import sources
from ..shared.resources import shipped_experiment
from .layout import StepLayout
from .questions import Question

RANDOM_HEADS, RANDOM_HEAD_DIM = 4, 8
TEXT_KEY, HEAD_KEY = "ls_text_10", "ls_head_10"
MODEL_KEY = "ls_h_11"  # step 11: which shipped model (its head count)
TAP_PX = 44  # an option's least height and width on a phone: a fingertip's target
# The options as tokens to tap on a phone (a narrow or touch screen): each a boxed target at
# least TAP_PX square, alone or in a room; a projector's screen keeps the lesson's radios.
TAP_CSS = """<style>@media (max-width: 640px), (pointer: coarse) {{
{keys} {{ gap: 0.5rem; flex-wrap: wrap; }}
{labels} {{ min-height: {px}px; min-width: {px}px; padding: 0 0.7rem; margin: 0;
  border: 1px solid #c7c7c7; border-radius: 0.5rem; display: flex; align-items: center; }} }}</style>"""
MAX_CHARS = 16  # the lesson's short sentences (steps 1's too): at most 16 options to tap


def token_question(step: int, lang: str, labels: list[str], row, head: int, layer: int | None = None) -> Question:
    """The question for the last of ``labels`` (a query at most MAX_QUERY) in head ``head``
    (0-based), answered by ``row`` (its softmax weights over ``labels``)."""
    query = len(labels) - 1
    best = strongest_keys(row)
    token = TokenRow(tuple(labels), tuple(float(w) for w in row), head)
    key_labels = t("list_sep", lang).join(position_label(k, labels[k]) for k in best.keys)
    why = t(
        "ls.tq.why_tie" if len(best.keys) > 1 else "ls.tq.why",
        lang,
        head=head + 1,
        n=query,
        keys=literal(key_labels),
        weight=f"{best.weight:.2f}",
        lead=f"{best.lead:.2f}",
    )
    where = t("ls.tq.in_layer", lang, head=head + 1, layer=layer + 1) if layer is not None else f"{head + 1}"
    return Question(
        step,
        t("ls.tq.q", lang, n=query, token=literal(labels[query]), head=where),
        list(range(query + 1)),
        best.keys[0],
        why,
        label=lambda j: position_label(j, labels[j]),
        hint=t(f"ls.{step}.hint", lang),
        accepted=best.keys,
        row=token,
    )


def tap_targets(step: int) -> None:
    """The step's options (its own and a room's) large enough to tap at 390×844."""
    keys = [f".st-key-ls_answer_{step} [role='radiogroup']", f".st-key-rm_answer_{step} [role='radiogroup']"]
    labels = [f"{key} label" for key in keys]
    st.html(TAP_CSS.format(keys=", ".join(keys), labels=", ".join(labels), px=TAP_PX))


def reveal_row(layout: StepLayout, token: TokenRow, key: str, lang: str, *share) -> None:
    """The real row, alone (in a room the class's chart and the student's draw it)."""
    if layout.locked:
        return
    with layout.figure():
        build = lambda: token_question_figure(token.labels, figure_words(lang), weights=token.weights, head=token.head)  # noqa: E731
        layout.chart(build, key, (*share, token.labels, token.weights, token.head))  # a space and "␣" share a label


def random_token(lang: str, layout: StepLayout) -> Question:
    text = st.text_input(
        t("ls.text", lang), BOOK_TEXT, key=TEXT_KEY, disabled=layout.locked, max_chars=MAX_CHARS
    ).strip()
    heads = list(range(1, RANDOM_HEADS + 1))
    head = st.select_slider(t("ls.head", lang), heads, value=1, key=HEAD_KEY, disabled=layout.locked)
    config = PlaygroundConfig(heads=RANDOM_HEADS, head_dim=RANDOM_HEAD_DIM)
    result = sources.trace(sources.load(sources.RANDOM, lang, config), (text or BOOK_TEXT)[: MAX_QUERY + 1])
    labels = list(result.labels)
    layout.lead(t("ls.10.lead", lang, h=RANDOM_HEADS, n=len(labels) - 1))
    layer, width = result.layers[0], page_width()
    vectors = [part[0, head - 1].numpy() for part in (layer.queries_heads, layer.keys_heads, layer.values_heads)]
    with layout.figure():  # the head's queries and keys: their products, not yet worked out, are the answer
        build = lambda: qkv_figure(*vectors, labels, figure_words(lang), width)  # noqa: E731
        layout.chart(build, "ls_chart_10_qkv", (text, head, width))
    row = result.layers[0].weights[0, head - 1, -1]
    question = token_question(10, lang, labels, row, head - 1)
    tap_targets(10)

    def reveal() -> None:
        st.markdown(t("ls.tq.body", lang, head=head, n=len(labels) - 1))
        reveal_row(layout, question.row, "ls_chart_10", lang, head)

    return replace(question, reveal=reveal)


def trained_token(lang: str, layout: StepLayout) -> Question | None:
    experiment = shipped_experiment()
    if experiment is None or TRAINED_HEADS not in experiment.head_counts:
        st.warning(t("ls.11.no_model", lang))
        return None
    heads = st.select_slider(
        t("ls.heads", lang), experiment.head_counts, value=TRAINED_HEADS, key=MODEL_KEY, disabled=layout.locked
    )
    source = sources.load(sources.shipped_model_name(heads), lang)
    result = sources.trace(source, TRAINED_PROMPT)
    layers = [weights[0] for weights in result.weights]
    layer, head, share = previous_token_head(layers)
    labels, T = list(result.labels), len(result.labels)
    prompt = f"“{literal(TRAINED_PROMPT)}”"
    layout.lead(t("ls.11.lead", lang, h=heads, prompt=prompt, head=head + 1, layer=layer + 1, n=T - 1))
    words = figure_words(lang)
    with layout.figure():  # every row but the asked one: the pattern is there to see
        shown = layers[layer][:, : T - 1, : T - 1].numpy()
        sized = layout.overview(heads, labels[: T - 1])
        build = lambda: heads_overview_figure(shown, labels[: T - 1], "weights", words, focus=head, size=sized)  # noqa: E731
        layout.chart(build, "ls_chart_11_rows", (heads, layer, head, sized), sized=True, width_px=sized.width_px)
    question = token_question(11, lang, labels, layers[layer][head, -1], head, layer)
    tap_targets(11)

    def reveal() -> None:
        st.markdown(t("ls.11.body", lang, head=head + 1, share=f"{share:.0%}", rows=T - 1))
        reveal_row(layout, question.row, "ls_chart_11", lang, heads)

    return replace(question, reveal=reveal)
