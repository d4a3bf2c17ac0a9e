"""What the Train page shows: your model, generation, an experiment's results and the
shipped snapshots of attention during training."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from figures import experiment_figure, final_loss_figure, heads_overview_figure, loss_curve_figure
from figures.export import export_name
from gpt_core import InputError, RunSummary, display_label, display_labels
from gpt_core.experiment import heads_statistics
from gpt_core.playground import MAX_SEED
from gpt_core.results import ShippedExperiment
from links.train import GENERATE_MAX, PROMPT_MAX_CHARS, TEMPERATURE_RANGE, TOP_K_RANGE
from string_table import error_text, t
from string_table.figure_words import figure_words

from ..charts import show_chart, sized_for_page
from ..markdown import literal
from ..shared import sources
from ..shared.lanes import generation_lane, heavy_turn
from ..shared.models import MODEL_STATE, TrainedModel, checkpoint_file_name, checkpoint_of
from ..shared.verdict import answer_text
from .state import PAGE, key

TEMPERATURE_STEP = 0.1
PROMPT_BOX_PX = 68
DEFAULT_SNAPSHOT_HEADS_INDEX = 2  # h = 4 of (1, 2, 4, 8): a pattern worth looking at
# One generation's wall time at most (a large model writes a character in tenths of a
# second): it stops with what it has, and says so.
GENERATE_MAX_SECONDS = 10.0
# And at most this much work (characters × parameters: 500 characters of a 4 M model): a
# larger model writes fewer characters, and the page says so.
GENERATION_WORK = 2_000_000_000
GENERATED_CUT = "tr_generated_cut"  # (characters made, asked for) when the time limit cut it
SNAPSHOT_STEP = "tr_snap_step"
SNAPSHOT_SHOWN = "tr_snap_shown"  # the step the slider showed last (not a widget)


def model_summary(lang: str) -> None:
    trained: TrainedModel | None = st.session_state.get(MODEL_STATE)
    if trained is None:
        st.caption(t("tr.no_model", lang))
        return
    run = trained.run
    loss = f"{run.final_test_loss:.3f}" if run.final_test_loss is not None else "–"
    params = f"{run.parameters:,}"
    if trained.stopped:
        said = t("tr.model_stopped", lang, steps=run.steps, loss=loss, params=params, heads=run.heads)
    else:  # the one message of a finished run: what it trained, then the model it left
        said = f"{t('tr.done', lang, steps=run.steps, loss=loss)} {t('tr.model_ready', lang, heads=run.heads, params=params)}"
    st.success(said, icon=":material/check_circle:")
    if run.history:
        show_chart(
            loss_curve_figure(run.history, figure_words(lang)),
            "tr_curve",
            file_name=export_name("loss", trained.corpus, h=run.heads, steps=run.steps),
        )
    st.download_button(
        t("tr.download_model", lang),
        lambda: checkpoint_of(trained),
        file_name=checkpoint_file_name(trained),
        mime="application/octet-stream",
        key="tr_download_model",
        on_click="ignore",  # no rerun: one that ended before the file was made would drop its maker
        icon=":material/download:",
        help=t("tr.download_model_help", lang),
    )


def generation_length(wanted: int, parameters: int) -> int:
    """The characters one generation may make: ``wanted``, fewer for a model so large that
    they would be more than GENERATION_WORK parameter-characters of work."""
    return max(1, min(wanted, GENERATION_WORK // max(1, parameters)))


def _generate_now(lang: str) -> None:
    """The chosen model continues the prompt through its source (the explorer's generation,
    with the Train page's top-k and time budget); a prompt it cannot read says why."""
    source = sources.load(PAGE.get("gen_model"), lang)
    if source is None:
        return
    prompt = PAGE.get("prompt")
    wanted = PAGE.get("length")
    length = generation_length(wanted, source.description.parameters)
    try:
        left_out = sources.trace(source, prompt).left_out  # characters the model never saw
        with heavy_turn(lang, generation_lane(), message="tr.generate_waiting"):  # a lane of its own, visible
            steps = source.generate(
                prompt,
                length,
                PAGE.get("temperature"),
                PAGE.get("gen_seed"),
                top_k=PAGE.get("top_k"),
                max_seconds=GENERATE_MAX_SECONDS,
            )
    except InputError as error:
        st.session_state.pop("tr_generated", None)
        st.error(error_text(error, lang))
        return
    st.session_state["tr_generated"] = (prompt, "".join(step.token.text or "" for step in steps), list(left_out))
    st.session_state[GENERATED_CUT] = (len(steps), wanted) if len(steps) < wanted else None


def generate_section(lang: str) -> None:
    st.subheader(t("tr.generate", lang))
    choices = sources.model_names(light=True)
    if not choices:
        st.caption(t("tr.generate_none", lang))
        return
    if PAGE.get("gen_model") not in choices:
        PAGE.set("gen_model", sources.preferred_model(choices))
    st.selectbox(
        t("tr.generate_with", lang),
        choices,
        key=key("gen_model"),
        format_func=lambda choice: sources.label(choice, lang),
    )
    cols = st.columns([3, 1, 1, 1, 1])
    cols[0].text_area(t("tr.prompt", lang), key=key("prompt"), height=PROMPT_BOX_PX, max_chars=PROMPT_MAX_CHARS)
    cols[1].slider(t("tr.temperature", lang), *TEMPERATURE_RANGE, step=TEMPERATURE_STEP, key=key("temperature"))
    cols[2].number_input(t("tr.top_k", lang), *TOP_K_RANGE, key=key("top_k"))
    cols[3].number_input(t("tr.length", lang), 1, GENERATE_MAX, key=key("length"))
    cols[4].number_input(t("tr.seed", lang), 0, MAX_SEED, key=key("gen_seed"))
    if st.button(t("tr.generate_button", lang), key="tr_generate", icon=":material/edit_note:"):
        _generate_now(lang)
    generated = st.session_state.get("tr_generated")
    if generated:
        prompt, text, missing = generated
        if missing:
            st.caption(t("tr.prompt_dropped", lang, chars=literal(" ".join(display_labels(missing)))))
        st.code(prompt + text, language=None, wrap_lines=True)
        cut = st.session_state.get(GENERATED_CUT)
        if cut:
            st.caption(t("tr.generate_cut", lang, made=cut[0], wanted=cut[1], seconds=f"{GENERATE_MAX_SECONDS:g}"))


def _results_table(runs: list[RunSummary], embedding_dim: int, lang: str) -> pd.DataFrame:
    stats = heads_statistics(runs)
    return pd.DataFrame(
        {
            t("tr.col.heads", lang): [item.heads for item in stats],
            t("tr.col.head_dim", lang): [embedding_dim // item.heads for item in stats],
            t("tr.col.params", lang): [f"{item.parameters:,}" for item in stats],
            t("tr.col.seeds", lang): [len(item.losses) for item in stats],
            t("tr.col.loss_mean", lang): [f"{item.mean:.3f} ± {item.sd:.3f}" for item in stats],
            t("tr.col.loss_range", lang): [f"{item.low:.3f} – {item.high:.3f}" for item in stats],
            t("tr.col.speed_mean", lang): [f"{item.tokens_per_second:,.0f}" for item in stats],
            t("tr.col.time_mean", lang): [f"{item.wall_time:.1f}" for item in stats],
        }
    )


def experiment_view(lang: str, runs: list[RunSummary], embedding_dim: int, source: str, key: str) -> None:
    """Curves with seed bands, every seed's final loss, the table, the answer and samples of
    one experiment (``key`` keeps widgets apart)."""
    st.caption(source)
    text = figure_words(lang)
    left, right = st.columns(2)
    with left:
        show_chart(
            experiment_figure(runs, "step", text),
            f"tr_{key}_steps_chart",
            file_name=export_name("experiment", key, "loss_by_step"),
        )
    with right:
        show_chart(
            experiment_figure(runs, "elapsed", text),
            f"tr_{key}_time_chart",
            file_name=export_name("experiment", key, "loss_by_time"),
        )
    st.dataframe(_results_table(runs, embedding_dim, lang), hide_index=True, key=f"tr_{key}_table")
    points, said = st.columns([2, 3])
    with points:
        show_chart(
            final_loss_figure(runs, text),
            f"tr_{key}_final_chart",
            file_name=export_name("experiment", key, "final_loss"),
        )
        st.caption(t("tr.final_help", lang))
    with said:
        if len({run.parameters for run in runs}) == 1:
            st.info(t("tr.same_params", lang, params=f"{runs[0].parameters:,}"), icon=":material/balance:")
        st.markdown(answer_text(runs, lang))
    st.markdown(f"**{t('tr.samples', lang)}**")
    first_seed = min(run.seed for run in runs)
    sampled = sorted((run for run in runs if run.seed == first_seed), key=lambda run: run.heads)
    for column, run in zip(st.columns(len(sampled)), sampled, strict=True):
        column.caption(text["train.heads_label"].format(heads=run.heads))
        column.code(run.sample, language=None, wrap_lines=True)


def saved_step(steps: list[int], chosen: int, shown: int | None) -> int:
    """The saved snapshot step to show when the slider moves from ``shown`` to ``chosen``:
    the nearest one (the earlier on a tie), unless that is where it was; then the next one
    in the direction it moved, so that one arrow key press reaches the next snapshot."""
    nearest = min(steps, key=lambda step: (abs(step - chosen), step))
    if shown is None or nearest != shown or chosen == shown:
        return nearest
    onward = [step for step in steps if (step < shown if chosen < shown else step > shown)]
    if not onward:
        return nearest
    return max(onward) if chosen < shown else min(onward)


def _snap_to_saved(steps: list[int]) -> None:
    chosen = st.session_state[SNAPSHOT_STEP]
    st.session_state[SNAPSHOT_STEP] = saved_step(steps, chosen, st.session_state.get(SNAPSHOT_SHOWN))


def snapshots_view(lang: str, experiment: ShippedExperiment) -> None:
    st.markdown(f"**{t('tr.snapshots', lang)}**")
    help_line = st.empty()  # above the controls; it names the saved steps of the chosen head count
    cols = st.columns(3)
    head_counts = experiment.head_counts
    heads = cols[0].selectbox(
        t("tr.heads", lang),
        head_counts,
        index=min(DEFAULT_SNAPSHOT_HEADS_INDEX, len(head_counts) - 1),
        key="tr_snap_heads",
    )
    source = sources.load(sources.shipped_model_name(heads), lang)  # the shipped model keeps its snapshots
    if source is None:
        st.warning(t("ls.8.no_model", lang))
        return
    steps = list(source.snapshot_steps())
    help_line.caption(t("tr.snapshots_help", lang, steps=t("list_sep", lang).join(str(step) for step in steps)))
    if st.session_state.get(SNAPSHOT_STEP) not in steps:
        st.session_state[SNAPSHOT_STEP] = steps[-1]  # first visit: the trained model
    # Spaced by step, not by snapshot: the early snapshots lie close together on the track,
    # as they do in training; a step between two snapshots moves to one of them (saved_step).
    step = (
        steps[0]
        if len(steps) == 1
        else cols[1].slider(
            t("tr.snap_step", lang),
            steps[0],
            steps[-1],
            step=math.gcd(*steps) or 1,
            key=SNAPSHOT_STEP,
            on_change=_snap_to_saved,
            args=(steps,),
        )
    )
    st.session_state[SNAPSHOT_SHOWN] = step
    kept, prompt = source.snapshot(step)  # (blocks, h, T, T) and the T characters it was taken on
    blocks = kept.shape[0]
    block = cols[2].selectbox(t("tr.block", lang), list(range(1, blocks + 1)), key="tr_snap_block")
    T = kept.shape[-1]
    st.caption(t("tr.snap_prompt", lang, T=T, space=display_label(" "), newline=display_label("\n")))
    st.code(prompt, language=None, wrap_lines=True)  # shown literally, never as Markdown or HTML
    title = t("tr.snap_title", lang, step=step, block=block)
    # The same renderer as every other page's "all heads" view, sized for the page.
    figure = heads_overview_figure(
        kept[block - 1].numpy(),
        display_labels(list(prompt)),
        "weights",
        figure_words(lang),
        title=title,
        size=sized_for_page(),
    )
    show_chart(
        figure, "tr_snap_chart", sized=True, file_name=export_name("snapshot", h=heads, step=step, block=block, T=T)
    )
