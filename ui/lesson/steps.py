"""The lesson's eleven steps, in order: here the first four, inside one layer of random
weights, ``measured_steps``'s next four, ``cache_step``'s ninth and ``token_steps``' last
two. Each draws a short explanation, one live figure computed by gpt_core (drawn by the same
figure builders as the playground), a control or two, and returns its question, built from
the numbers it just computed."""

from __future__ import annotations

import streamlit as st

from figures import (
    channel_map_figure,
    head_detail_figure,
    heads_overview_figure,
    qkv_figure,
    shape_trace_code,
)
from gpt_core import STAGES, PlaygroundConfig, position_label
from gpt_core.attention import Trace
from gpt_core.lesson import (
    BOOK_TEXT,
    LESSON_HEAD_COUNTS,
    head_channels,
    zero_columns,
)
from string_table import t
from string_table.figure_words import figure_words

from ..charts import page_width
from ..shared import sources
from .cache_step import STEP_KEY as CACHE_STEP_KEY
from .cache_step import cache
from .layout import StepLayout
from .measured_steps import parallel, parameters, scaling, trained
from .questions import Question
from .token_steps import HEAD_KEY as TOKEN_HEAD_KEY
from .token_steps import MODEL_KEY as TOKEN_MODEL_KEY
from .token_steps import TEXT_KEY as TOKEN_TEXT_KEY
from .token_steps import random_token, trained_token

HEAD_CHOICES = LESSON_HEAD_COUNTS
HEAD_DIM_CHOICES = (2, 4, 8, 16)
MASK_ROW = 3
LESSON_HEADS, LESSON_HEAD_DIM = 4, 8
FIRST_HEAD_DIM = 4  # step 1's head_dim until the reader moves it
MAX_LESSON_CHARS = 16
# Presentation mode's revealed figures: the stages that answer the step, in one row.
ONE_HEAD_SHOWN = ("scores", "weights")
MASK_SHOWN = ("masked_scores", "weights")


def _shape(shape) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ")"


def traced(text: str, heads: int, head_dim: int, lang: str) -> Trace:
    """``text`` through the book's layer with random weights of ``heads`` × ``head_dim``: a
    source like the playground's, traced once for every session (ui/shared/sources.py)."""
    source = sources.load(sources.RANDOM, lang, PlaygroundConfig(heads=heads, head_dim=head_dim))
    return sources.trace(source, text)


def _stages(trace, head: int) -> dict:
    return {stage: getattr(trace, stage)[0, head].numpy() for stage in STAGES}


def one_head(lang: str, layout: StepLayout) -> Question:
    text = st.text_input(
        t("ls.text", lang), BOOK_TEXT, key="ls_text_1", disabled=layout.locked, max_chars=MAX_LESSON_CHARS
    ).strip()
    d = st.select_slider(
        t("ls.head_dim", lang), HEAD_DIM_CHOICES, value=FIRST_HEAD_DIM, key="ls_d_1", disabled=layout.locked
    )
    result = traced(text or BOOK_TEXT, 1, d, lang)
    trace, T = result.layers[0], len(result.tokens)
    layout.lead(t("ls.1.lead", lang, T=T, d=d))
    head = (trace.queries_heads[0, 0].numpy(), trace.keys_heads[0, 0].numpy(), trace.values_heads[0, 0].numpy())
    width, text = page_width(), text or BOOK_TEXT
    with layout.figure():
        build = lambda: qkv_figure(*head, result.labels, figure_words(lang), width)  # noqa: E731
        layout.chart(build, "ls_chart_1_qkv", (text, d, width))

    def reveal() -> None:  # the scores are T × T: their picture is the answer
        st.markdown(t("ls.1.body", lang, T=T, d=d))
        sized, stages = layout.sized(), layout.stages(_stages(trace, 0), ONE_HEAD_SHOWN)
        with layout.figure():
            build = lambda: head_detail_figure(stages, result.labels, 0, figure_words(lang), size=sized)  # noqa: E731
            layout.chart(build, "ls_chart_1", (text, d, sized), sized=True)
            st.caption(t("ls.1.output", lang, shape=_shape(trace.context_heads.shape)))

    shape = tuple(trace.scores.shape[-2:])
    options = [f"{T} × {T}", f"{T} × {d}", f"{d} × {d}"]
    return Question(
        1,
        t("ls.1.q", lang),
        options,
        f"{shape[0]} × {shape[1]}",
        t("ls.1.why", lang, shape=_shape(shape)),
        hint=t("ls.1.hint", lang),
        reveal=reveal,
    )


def split(lang: str, layout: StepLayout) -> Question:
    left, right = st.columns(2)
    h = left.select_slider(t("ls.heads", lang), HEAD_CHOICES, value=LESSON_HEADS, key="ls_h_2", disabled=layout.locked)
    d = right.select_slider(
        t("ls.head_dim", lang), HEAD_DIM_CHOICES, value=LESSON_HEAD_DIM, key="ls_d_2", disabled=layout.locked
    )
    trace = traced(BOOK_TEXT, h, d, lang).layers[0]
    channels = head_channels(h, d, min(2, h))
    layout.lead(t("ls.2.lead", lang, h=h, C=h * d))
    with layout.figure():
        layout.chart(lambda: channel_map_figure(h, d, figure_words(lang)), "ls_chart_2", (h, d))

    def reveal() -> None:  # the traced shapes name the answer
        st.markdown(t("ls.2.body", lang, C=h * d, first=channels[0], last=channels[-1]))
        with layout.figure():
            st.code(
                shape_trace_code(trace.shape_steps, tuple(trace.x.shape), names=not layout.presenting),
                language="python",
            )

    B, T = trace.x.shape[:2]
    options = [_shape((B, T, h, d)), _shape((B, h, T, d)), _shape((B, T, h * d))]
    return Question(
        2,
        t("ls.2.q", lang),
        options,
        _shape(trace.queries_heads.shape),
        t("ls.2.why", lang, shape=_shape(trace.queries_heads.shape)),
        hint=t("ls.2.hint", lang),
        reveal=reveal,
    )


def mask(lang: str, layout: StepLayout) -> Question:
    layout.lead(t("ls.3.lead", lang))
    result = traced(BOOK_TEXT, LESSON_HEADS, LESSON_HEAD_DIM, lang)
    head = st.select_slider(
        t("ls.head", lang), list(range(1, LESSON_HEADS + 1)), value=1, key="ls_head_3", disabled=layout.locked
    )
    stages = _stages(result.layers[0], head - 1)
    before = {stage: stages[stage] for stage in ("scores", "scaled_scores")}  # no −∞ yet: the mask is the answer
    words, sized = figure_words(lang), layout.sized()
    with layout.figure():
        layout.chart(
            lambda: head_detail_figure(
                before, result.labels, head - 1, words, highlight=(MASK_ROW, MASK_ROW), size=sized
            ),
            "ls_chart_3_before",
            (head, sized),
            sized=True,
        )

    def reveal() -> None:
        st.markdown(t("ls.3.body", lang))
        with layout.figure():
            layout.chart(
                lambda: head_detail_figure(
                    layout.stages(stages, MASK_SHOWN),
                    result.labels,
                    head - 1,
                    words,
                    highlight=(MASK_ROW, MASK_ROW),
                    size=sized,
                ),
                "ls_chart_3",
                (head, sized),
                sized=True,
            )

    zeros = zero_columns(result.weights[0][0, head - 1, MASK_ROW])
    labels = result.labels
    return Question(
        3,
        t("ls.3.q", lang),
        list(range(len(labels))),
        zeros,
        t("ls.3.why", lang, zeros=", ".join(str(j) for j in zeros) or t("ls.none", lang)),
        label=lambda j: position_label(j, labels[j]),
        many=True,
        hint=t("ls.3.hint", lang),
        reveal=reveal,
    )


def merge(lang: str, layout: StepLayout) -> Question:
    h = st.select_slider(t("ls.heads", lang), HEAD_CHOICES, value=4, key="ls_h_4", disabled=layout.locked)
    d = LESSON_HEADS * LESSON_HEAD_DIM // h
    result = traced(BOOK_TEXT, h, d, lang)
    trace = result.layers[0]
    layout.lead(t("ls.4.lead", lang, h=h))
    with layout.figure():
        sized = layout.overview(h, result.labels)
        layout.chart(
            lambda: heads_overview_figure(
                trace.weights[0].numpy(), result.labels, "weights", figure_words(lang), size=sized
            ),
            "ls_chart_4",
            (h, sized),
            sized=True,
            width_px=sized.width_px,
        )

    def reveal() -> None:  # the merge's traced shapes, starting from the weights that go in
        st.markdown(t("ls.4.body", lang, C=h * d))
        merge_steps = trace.shape_steps[[step.name for step in trace.shape_steps].index("context") :]
        code = shape_trace_code(
            merge_steps, tuple(merge_steps[0].before), "weights", "B h T T", names=not layout.presenting
        )
        with layout.figure():
            st.code(code, language="python")

    B, T = trace.x.shape[:2]
    options = [_shape((B, h, T, d)), _shape((B, T, h * d)), _shape((B, T, d))]
    return Question(
        4,
        t("ls.4.q", lang),
        options,
        _shape(trace.context.shape),
        t("ls.4.why", lang, shape=_shape(trace.context.shape)),
        hint=t("ls.4.hint", lang),
        reveal=reveal,
    )


STEPS = (one_head, split, mask, merge, parameters, parallel, scaling, trained, cache, random_token, trained_token)
# Each step's inputs: in a room they are the class's (their defaults, locked), so that every
# student answers the question the teacher projects.
INPUT_KEYS = (
    "ls_text_1",
    "ls_d_1",
    "ls_h_2",
    "ls_d_2",
    "ls_head_3",
    "ls_h_4",
    "ls_c_5",
    "ls_h_6",
    "ls_d_7",
    "ls_h_8",
    CACHE_STEP_KEY,
    TOKEN_TEXT_KEY,
    TOKEN_HEAD_KEY,
    TOKEN_MODEL_KEY,
)
