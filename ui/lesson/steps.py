"""The lesson's eight steps. Each draws a short explanation, one live figure computed by
gpt_core (drawn by the same figure builders as the playground), a control or two, and
returns its question, built from the numbers it just computed."""

from __future__ import annotations

import streamlit as st

from figures import (
    channel_map_figure,
    experiment_figure,
    head_detail_figure,
    heads_overview_figure,
    parameter_figure,
    qkv_figure,
    scaling_figure,
    shape_trace_code,
    softmax_bars_figure,
    two_ways_figure,
)
from figures.lesson import output_figure, row_scores_figure
from gpt_core import STAGES, PlaygroundConfig, display_labels, position_label
from gpt_core.attention import Trace
from gpt_core.experiment import answer
from gpt_core.lesson import (
    BOOK_TEXT,
    LESSON_HEAD_COUNTS,
    SCALING_HEAD_DIMS,
    SCALING_SAMPLES,
    example_scores,
    head_channels,
    parameter_counts,
    scaling_table,
    two_ways,
    zero_columns,
)
from string_table import t
from string_table.figure_words import figure_words

from ..charts import page_width
from ..shared import sources
from ..shared.resources import shipped_experiment
from ..shared.verdict import answer_text
from .layout import StepLayout
from .questions import Question

HEAD_CHOICES = LESSON_HEAD_COUNTS
HEAD_DIM_CHOICES = (2, 4, 8, 16)
EMBEDDING_CHOICES = (32, 64, 128)
TWO_WAYS_EMBEDDING = 32
SAME_TOLERANCE = 1e-6  # float32 rounding: the two ways agree below this
MASK_ROW = 3
LESSON_HEADS, LESSON_HEAD_DIM = 4, 8
FIRST_HEAD_DIM = 4  # step 1's head_dim until the reader moves it
TRAINED_HEADS = 4
PRESENT_TRAINED_TOKENS = 12  # step 8 presenting: "ROMEO:\nBut s" of the snapshot prompt
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
    with layout.figure():
        layout.chart(qkv_figure(*head, result.labels, figure_words(lang), page_width()), "ls_chart_1_qkv")

    def reveal() -> None:  # the scores are T × T: their picture is the answer
        st.markdown(t("ls.1.body", lang, T=T, d=d))
        with layout.figure():
            layout.chart(
                head_detail_figure(
                    layout.stages(_stages(trace, 0), ONE_HEAD_SHOWN),
                    result.labels,
                    0,
                    figure_words(lang),
                    size=layout.sized(),
                ),
                "ls_chart_1",
                sized=True,
            )
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
        layout.chart(channel_map_figure(h, d, figure_words(lang)), "ls_chart_2")

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
    words = figure_words(lang)
    with layout.figure():
        layout.chart(
            head_detail_figure(
                before, result.labels, head - 1, words, highlight=(MASK_ROW, MASK_ROW), size=layout.sized()
            ),
            "ls_chart_3_before",
            sized=True,
        )

    def reveal() -> None:
        st.markdown(t("ls.3.body", lang))
        with layout.figure():
            layout.chart(
                head_detail_figure(
                    layout.stages(stages, MASK_SHOWN),
                    result.labels,
                    head - 1,
                    words,
                    highlight=(MASK_ROW, MASK_ROW),
                    size=layout.sized(),
                ),
                "ls_chart_3",
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
            heads_overview_figure(trace.weights[0].numpy(), result.labels, "weights", figure_words(lang), size=sized),
            "ls_chart_4",
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


def parameters(lang: str, layout: StepLayout) -> Question:
    C = st.select_slider(t("ls.embedding", lang), EMBEDDING_CHOICES, value=64, key="ls_c_5", disabled=layout.locked)
    counts = parameter_counts(C)
    layout.lead(t("ls.5.lead", lang, C=C))
    with layout.figure():  # the same C channels cut into the most heads: the counts are the answer
        layout.chart(
            channel_map_figure(max(HEAD_CHOICES), C // max(HEAD_CHOICES), figure_words(lang)), "ls_chart_5_split"
        )

    def reveal() -> None:  # every bar's height is the answer
        st.markdown(t("ls.5.body", lang, C=C))
        with layout.figure():
            layout.chart(parameter_figure(counts, figure_words(lang)), "ls_chart_5")

    one, eight = counts[1]["total"], counts[8]["total"]
    correct = "same" if one == eight else ("more" if eight > one else "fewer")
    return Question(
        5,
        t("ls.5.q", lang),
        ["more", "same", "fewer"],
        correct,
        t("ls.5.why", lang, one=one, eight=eight),
        label=lambda key: t(f"ls.5.{key}", lang),
        hint=t("ls.5.hint", lang),
        reveal=reveal,
    )


def parallel(lang: str, layout: StepLayout) -> Question:
    h = st.select_slider(t("ls.heads", lang), HEAD_CHOICES, value=4, key="ls_h_6", disabled=layout.locked)
    batched, by_head, tokens = two_ways(BOOK_TEXT, PlaygroundConfig(heads=h, head_dim=TWO_WAYS_EMBEDDING // h))
    largest = (batched - by_head).abs().max().item()
    diff = f"{largest:.1e}"
    layout.lead(t("ls.6.lead", lang))
    with layout.figure():  # one way only: the second, and the difference, are the answer
        layout.chart(output_figure(batched.numpy(), display_labels(tokens), h, figure_words(lang)), "ls_chart_6_output")

    def reveal() -> None:  # the difference, and the two pictures side by side
        st.markdown(t("ls.6.body", lang, diff=diff))
        with layout.figure():
            layout.chart(
                two_ways_figure(batched.numpy(), by_head.numpy(), display_labels(tokens), h, figure_words(lang)),
                "ls_chart_6",
            )

    return Question(
        6,
        t("ls.6.q", lang),
        ["same", "different"],
        "same" if largest < SAME_TOLERANCE else "different",
        t("ls.6.why", lang, diff=diff),
        label=lambda key: t(f"ls.6.{key}", lang),
        hint=t("ls.6.hint", lang),
        reveal=reveal,
    )


@st.cache_data(max_entries=4)
def _scaling(tokens: int) -> list:
    return scaling_table(tokens)


def scaling(lang: str, layout: StepLayout) -> Question:
    tokens = len(BOOK_TEXT)
    d = st.select_slider(t("ls.head_dim", lang), SCALING_HEAD_DIMS, value=64, key="ls_d_7", disabled=layout.locked)
    rows = _scaling(tokens)
    row = next(r for r in rows if r.head_dim == d)
    layout.lead(t("ls.7.lead", lang))
    scores = example_scores(tokens, d)
    with layout.figure():  # the raw scores only: what the softmax makes of them is the answer
        layout.chart(
            row_scores_figure(scores.numpy(), display_labels(list(BOOK_TEXT)), figure_words(lang)), "ls_chart_7_scores"
        )

    def reveal() -> None:  # the measured spreads and largest weights are the answer
        body = t("ls.7.body", lang, spread=f"{row.score_std:.1f}", d=d, scaled=f"{row.scaled_std:.2f}")
        if not layout.presenting:  # presenting shows the row's weights, not the line chart
            body += " " + t("ls.7.line_note", lang, samples=SCALING_SAMPLES, T=tokens)
        st.markdown(body)
        unscaled, scaled = scores.softmax(0).numpy(), (scores / d**0.5).softmax(0).numpy()
        bars = softmax_bars_figure(unscaled, scaled, display_labels(list(BOOK_TEXT)), figure_words(lang))
        with layout.figure():
            if layout.presenting:  # one screen: the row's weights, the answer itself, at full width
                layout.chart(bars, "ls_chart_7b")
                return
            left, right = st.columns(2)
            with left:
                layout.chart(scaling_figure(rows, figure_words(lang)), "ls_chart_7")
            with right:
                layout.chart(bars, "ls_chart_7b")

    low, high = rows[0], rows[-1]
    correct = "one" if high.max_weight > low.max_weight else "uniform"
    why = t(
        "ls.7.why",
        lang,
        low=f"{low.max_weight:.2f}",
        d_low=low.head_dim,
        high=f"{high.max_weight:.2f}",
        d_high=high.head_dim,
    )
    return Question(
        7,
        t("ls.7.q", lang),
        ["one", "uniform", "zero"],
        correct,
        why,
        label=lambda key: t(f"ls.7.{key}", lang),
        hint=t("ls.7.hint", lang),
        reveal=reveal,
    )


def trained(lang: str, layout: StepLayout) -> Question | None:
    experiment = shipped_experiment()
    if experiment is None or TRAINED_HEADS not in experiment.head_counts:
        st.warning(t("ls.8.no_model", lang))
        return None
    counts = experiment.head_counts
    heads = st.select_slider(t("ls.heads", lang), counts, value=TRAINED_HEADS, key="ls_h_8", disabled=layout.locked)
    source = sources.load(sources.shipped_model_name(heads), lang)  # the shipped model: its snapshots are its own
    step = source.snapshot_steps()[-1]
    C = experiment.config["embedding_dim"]
    layout.lead(t("ls.8.body", lang, heads=heads, step=step, seeds=len(experiment.seeds), C=C))
    kept, prompt = source.snapshot(step)
    weights = kept[-1].numpy()  # the last block: (h, T, T)
    if layout.presenting:  # the prompt's start, in cells a room can see; causal, so exactly its weights
        weights = weights[:, :PRESENT_TRAINED_TOKENS, :PRESENT_TRAINED_TOKENS]
    labels = display_labels(list(prompt[: weights.shape[-1]]))
    with layout.figure():
        sized = layout.overview(heads, labels)
        layout.chart(
            heads_overview_figure(weights, labels, "weights", figure_words(lang), size=sized),
            "ls_chart_8",
            sized=True,
            width_px=sized.width_px,
        )
    verdict = answer(experiment.runs)
    accepted = tuple(sorted((verdict.at_steps.best, *verdict.at_steps.ties)))

    def reveal() -> None:  # the experiment itself: each head count's held-out loss, its seeds' band
        with layout.figure():
            layout.chart(experiment_figure(experiment.runs, "step", figure_words(lang)), "ls_chart_8_runs")

    # Presenting, the chart takes the figure's place, which a paragraph would take again.
    after = "" if layout.presenting else answer_text(experiment.runs, lang)
    return Question(
        8,
        t("ls.8.q", lang),
        experiment.head_counts,
        verdict.at_steps.best,
        _trained_why(verdict, lang),
        label=lambda h: f"h = {h}",
        after=after,
        hint=t("ls.8.hint", lang, C=C),
        reveal=reveal,
        accepted=accepted,
    )


def _trained_why(verdict, lang: str) -> str:
    """Step 8's verdict: the lowest mean, the head counts the seeds cannot tell from it (each
    a right answer) and those clearly worse, as the shipped statistics decide."""
    steps = verdict.at_steps
    best = next(item for item in verdict.stats if item.heads == steps.best)
    heads = lambda counts: t("list_sep", lang).join(f"h = {h}" for h in counts)  # noqa: E731
    said = [t("ls.8.why", lang, steps=verdict.steps, best=steps.best, mean=f"{best.mean:.3f}")]
    if steps.ties:  # what the shipped statistics cannot tell apart is right too
        said.append(t("ls.8.tied", lang, tied=heads(steps.ties), all=heads(sorted((steps.best, *steps.ties)))))
    if steps.worse:
        said.append(t("ls.8.worse", lang, worse=heads(steps.worse)))
    return " ".join(said)


STEPS = (one_head, split, mask, merge, parameters, parallel, scaling, trained)
# Each step's inputs: in a room they are the class's (their defaults, locked), so that every
# student answers the question the teacher projects.
INPUT_KEYS = ("ls_text_1", "ls_d_1", "ls_h_2", "ls_d_2", "ls_head_3", "ls_h_4", "ls_c_5", "ls_h_6", "ls_d_7", "ls_h_8")
