"""The lesson's steps 5 to 8: what many heads cost and what they do, each answered by numbers
measured across settings (the parameter counts, two ways of computing, the softmax's spreads,
the shipped training experiment) rather than by one trace's shapes."""

from __future__ import annotations

import streamlit as st

from figures import (
    channel_map_figure,
    experiment_figure,
    heads_overview_figure,
    parameter_figure,
    scaling_figure,
    softmax_bars_figure,
    two_ways_figure,
)
from figures.lesson import output_figure, row_scores_figure
from gpt_core import PlaygroundConfig, display_labels
from gpt_core.experiment import answer
from gpt_core.lesson import (
    BOOK_TEXT,
    SCALING_HEAD_DIMS,
    SCALING_SAMPLES,
    example_scores,
    parameter_counts,
    scaling_table,
    two_ways,
)
from gpt_core.lesson import LESSON_HEAD_COUNTS as HEAD_CHOICES
from string_table import t
from string_table.figure_words import figure_words

from ..shared import sources
from ..shared.resources import shipped_experiment
from ..shared.shared_cache import SharedResults
from ..shared.verdict import answer_text
from .layout import StepLayout
from .questions import Question

EMBEDDING_CHOICES = (32, 64, 128)
TWO_WAYS_EMBEDDING = 32
SAME_TOLERANCE = 1e-6  # float32 rounding: the two ways agree below this
TRAINED_HEADS = 4
PRESENT_TRAINED_TOKENS = 12  # step 8 presenting: "ROMEO:\nBut s" of the snapshot prompt
# Steps 5 and 6's numbers by their one input (C; h), worked out once for every session, not
# again on every rerun (~1 ms and ~2 ms): only read.
COUNTS: SharedResults[dict] = SharedResults(max_entries=len(EMBEDDING_CHOICES))
TWO_WAYS: SharedResults[tuple] = SharedResults(max_entries=len(HEAD_CHOICES))


def parameters(lang: str, layout: StepLayout) -> Question:
    C = st.select_slider(t("ls.embedding", lang), EMBEDDING_CHOICES, value=64, key="ls_c_5", disabled=layout.locked)
    counts = COUNTS.get(C, lambda: parameter_counts(C))
    layout.lead(t("ls.5.lead", lang, C=C))
    with layout.figure():  # the same C channels cut into the most heads: the counts are the answer
        layout.chart(
            lambda: channel_map_figure(max(HEAD_CHOICES), C // max(HEAD_CHOICES), figure_words(lang)),
            "ls_chart_5_split",
            (C,),
        )

    def reveal() -> None:  # every bar's height is the answer
        st.markdown(t("ls.5.body", lang, C=C))
        with layout.figure():
            layout.chart(lambda: parameter_figure(counts, figure_words(lang)), "ls_chart_5", (C,))

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
    config = PlaygroundConfig(heads=h, head_dim=TWO_WAYS_EMBEDDING // h)
    batched, by_head, tokens = TWO_WAYS.get(h, lambda: two_ways(BOOK_TEXT, config))
    largest = (batched - by_head).abs().max().item()
    diff = f"{largest:.1e}"
    layout.lead(t("ls.6.lead", lang))
    with layout.figure():  # one way only: the second, and the difference, are the answer
        layout.chart(
            lambda: output_figure(batched.numpy(), display_labels(tokens), h, figure_words(lang)),
            "ls_chart_6_output",
            (h,),
        )

    def reveal() -> None:  # the difference, and the two pictures side by side
        st.markdown(t("ls.6.body", lang, diff=diff))
        with layout.figure():
            layout.chart(
                lambda: two_ways_figure(
                    batched.numpy(), by_head.numpy(), display_labels(tokens), h, figure_words(lang)
                ),
                "ls_chart_6",
                (h,),
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
            lambda: row_scores_figure(scores.numpy(), display_labels(list(BOOK_TEXT)), figure_words(lang)),
            "ls_chart_7_scores",
            (d,),
        )

    def reveal() -> None:  # the measured spreads and largest weights are the answer
        body = t("ls.7.body", lang, spread=f"{row.score_std:.1f}", d=d, scaled=f"{row.scaled_std:.2f}")
        if not layout.presenting:  # presenting shows the row's weights, not the line chart
            body += " " + t("ls.7.line_note", lang, samples=SCALING_SAMPLES, T=tokens)
        st.markdown(body)
        unscaled, scaled = scores.softmax(0).numpy(), (scores / d**0.5).softmax(0).numpy()
        bars = lambda: softmax_bars_figure(unscaled, scaled, display_labels(list(BOOK_TEXT)), figure_words(lang))  # noqa: E731
        with layout.figure():
            if layout.presenting:  # one screen: the row's weights, the answer itself, at full width
                layout.chart(bars, "ls_chart_7b", (d,))
                return
            left, right = st.columns(2)
            with left:
                layout.chart(lambda: scaling_figure(rows, figure_words(lang)), "ls_chart_7", (tokens,))
            with right:
                layout.chart(bars, "ls_chart_7b", (d,))

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
            lambda: heads_overview_figure(weights, labels, "weights", figure_words(lang), size=sized),
            "ls_chart_8",
            (heads, step, sized),
            sized=True,
            width_px=sized.width_px,
        )
    verdict = answer(experiment.runs)
    accepted = tuple(sorted((verdict.at_steps.best, *verdict.at_steps.ties)))

    def reveal() -> None:  # the experiment itself: each head count's held-out loss, its seeds' band
        with layout.figure():
            layout.chart(lambda: experiment_figure(experiment.runs, "step", figure_words(lang)), "ls_chart_8_runs", ())

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
