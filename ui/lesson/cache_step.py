"""The lesson's step 9: why the mask makes generation cheap. The shipped tiny GPT continues a
short prompt with its key/value cache (``source.generate_cached``); the learner picks a step
and predicts how many key vectors it computes, answered by the cache's own shapes."""

from __future__ import annotations

import streamlit as st

from figures import heads_overview_figure
from gpt_core.kv_cache import CachedGeneration
from string_table import t
from string_table.figure_words import figure_words

from ..markdown import literal
from ..shared import sources
from .layout import StepLayout
from .questions import Question

PROMPT = "ROMEO:"
GENERATED = 6  # step 0 reads the prompt, steps 1 to 5 add one token each
CACHE_HEADS = 4  # the shipped model step 8 shows by default
STEP_CHOICES = tuple(range(1, GENERATED))
DEFAULT_STEP = 3
STEP_KEY = "ls_i_9"


@st.cache_resource(max_entries=2, show_spinner=False)
def _generation(heads: int, _source) -> CachedGeneration:
    """The prompt continued by the shipped model of ``heads`` heads: the same for everyone."""
    return _source.generate_cached(PROMPT, GENERATED)


def new_keys(generation: CachedGeneration, step: int, layer: int) -> int:
    """Key vectors layer ``layer`` computed at ``step``, read off the cache: the positions its
    keys gained since the step before, times its key/value heads."""
    after = generation.steps[step].layers[layer].keys
    before = generation.steps[step - 1].layers[layer].keys
    return (after.shape[1] - before.shape[1]) * after.shape[0]


def _choices(h_kv: int, length: int) -> dict[str, int]:
    """The options and how many key vectors each says: one per key/value head, or t, or t²."""
    return {"one": h_kv, "all": length * h_kv, "square": length * length * h_kv}


def cache(lang: str, layout: StepLayout) -> Question | None:
    source = sources.load(sources.shipped_model_name(CACHE_HEADS), lang)
    if source is None:
        st.warning(t("ls.9.no_model", lang))
        return None
    generation = _generation(CACHE_HEADS, source)
    i = st.select_slider(t("ls.9.step", lang), STEP_CHOICES, DEFAULT_STEP, key=STEP_KEY, disabled=layout.locked)
    step, cost, words = generation.steps[i], generation.cost, figure_words(lang)
    labels, last = generation.labels[: step.length], cost.layers - 1
    layout.lead(_lead(generation, i, lang))
    with layout.figure():  # the prompt's rows, as step 0 cached them: no row of step i yet
        prompt = generation.prompt_weights[last].numpy()
        sized = layout.overview(cost.heads, list(generation.prompt_labels))
        build = lambda: heads_overview_figure(prompt, list(generation.prompt_labels), "weights", words, size=sized)  # noqa: E731
        layout.chart(build, "ls_chart_9_prompt", (CACHE_HEADS, sized), sized=True, width_px=sized.width_px)

    def reveal() -> None:  # the new row, outlined in the full causal matrix, and the cache's size
        body = t(
            "ls.9.body",
            lang,
            t=step.length,
            h_kv=cost.kv_heads,
            d=cost.head_dim,
            layers=cost.layers,
            per_token=cost.bytes_per_token,
            total=cost.cache_bytes(step.length),
        )
        st.markdown(body)
        with layout.figure():
            matrix = generation.cached_matrix(i, last).numpy()
            sized = layout.overview(cost.heads, labels)
            build = lambda: heads_overview_figure(  # noqa: E731
                matrix, labels, "weights", words, outline_row=step.position, size=sized
            )
            layout.chart(build, "ls_chart_9", (CACHE_HEADS, i, sized), sized=True, width_px=sized.width_px)

    counted = new_keys(generation, i, last)
    choices = _choices(cost.kv_heads, step.length)
    return Question(
        9,
        t("ls.9.q", lang, i=i, t=step.length),
        list(choices),
        next((key for key, n in choices.items() if n == counted), None),
        _why(generation, i, counted, lang),
        label=lambda key: t(f"ls.9.{key}", lang, n=choices[key]),
        hint=t("ls.9.hint", lang),
        reveal=reveal,
    )


def _lead(generation: CachedGeneration, i: int, lang: str) -> str:
    cost, step = generation.cost, generation.steps[i]
    return t(
        "ls.9.lead",
        lang,
        layers=cost.layers,
        h=cost.heads,
        h_kv=cost.kv_heads,
        d=cost.head_dim,
        prompt=f"“{literal(PROMPT)}”",
        P=len(generation.prompt_ids),
        i=i,
        text=f"“{literal(''.join(generation.labels[: step.length]))}”",
        t=step.length,
        label=f"“{literal(generation.labels[step.position])}”",
    )


def _why(generation: CachedGeneration, i: int, counted: int, lang: str) -> str:
    cost, step = generation.cost, generation.steps[i]
    return t(
        "ls.9.why",
        lang,
        past=step.position,
        i=i,
        pos=step.position,
        new=counted,
        vectors=cost.vectors(step.new),
        layers=cost.layers,
        full=cost.vectors(step.length),
        t=step.length,
    )
