"""What the Train page shows: your model, generation, an experiment's results and the
shipped snapshots of attention during training."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from figures import experiment_figure, final_loss_figure, loss_curve_figure
from figures.training import snapshot_figure
from gpt_core import RunSummary, display_label, display_labels, generate
from gpt_core.experiment import MIN_VERDICT_STEPS, SPEED_RESOLUTION, HeadsStats, Verdict, answer, heads_statistics
from gpt_core.playground import MAX_SEED
from gpt_core.results import ShippedExperiment

from ..charts import show_chart
from ..figure_text import training_text
from ..markdown import literal
from ..strings import t
from .resources import shipped_experiment, shipped_model, shipped_snapshots
from .running import MODEL_STATE, TrainedModel, checkpoint_of

GENERATE_MAX = 500  # characters per generation
TEMPERATURE_RANGE = (0.0, 2.0)
TEMPERATURE_STEP = 0.1
TOP_K_RANGE = (1, 256)
PROMPT_BOX_PX = 68
PROMPT_MAX_CHARS = 1000  # the model reads its last context_length characters anyway
DEFAULT_SNAPSHOT_HEADS_INDEX = 2  # h = 4 of (1, 2, 4, 8): a pattern worth looking at


def model_summary(lang: str) -> None:
    trained: TrainedModel | None = st.session_state.get(MODEL_STATE)
    if trained is None:
        st.caption(t("tr.no_model", lang))
        return
    run = trained.run
    key = "tr.model_stopped" if trained.stopped else "tr.model_ready"
    loss = f"{run.final_test_loss:.3f}" if run.final_test_loss is not None else "–"
    st.success(
        t(key, lang, steps=run.steps, loss=loss, params=f"{run.parameters:,}", heads=run.heads),
        icon=":material/check_circle:",
    )
    if run.history:
        show_chart(loss_curve_figure(run.history, training_text(lang)), "tr_curve")
    st.download_button(
        t("tr.download_model", lang), lambda: checkpoint_of(trained), file_name=f"gpt_{trained.corpus}.pt",
        mime="application/octet-stream", key="tr_download_model", icon=":material/download:",
        help=t("tr.download_model_help", lang),
    )  # fmt: skip


def _model_choices() -> list[str]:
    choices = ["mine"] if st.session_state.get(MODEL_STATE) is not None else []
    experiment = shipped_experiment()
    if experiment is not None:
        choices += [f"shipped{run.heads}" for run in experiment.runs]
    return choices


def _model_label(lang: str):
    return lambda choice: (
        t("tr.model_mine", lang)
        if choice == "mine"
        else t("tr.model_shipped", lang, heads=choice.removeprefix("shipped"))
    )


def _generate_now() -> None:
    choice = st.session_state["tr_gen_model"]
    if choice == "mine":
        model, vocabulary = st.session_state[MODEL_STATE].model, st.session_state[MODEL_STATE].vocabulary
    else:
        checkpoint = shipped_model(int(choice.removeprefix("shipped")))
        model, vocabulary = checkpoint.model, checkpoint.vocabulary
    prompt = st.session_state["tr_prompt"]
    missing = sorted(vocabulary.unknown(prompt))
    output = generate(
        model, vocabulary.encode(prompt), st.session_state["tr_length"], st.session_state["tr_temperature"],
        st.session_state["tr_top_k"], seed=st.session_state["tr_gen_seed"],
    )  # fmt: skip
    st.session_state["tr_generated"] = (prompt, vocabulary.decode(output), missing)


def generate_section(lang: str) -> None:
    st.subheader(t("tr.generate", lang))
    choices = _model_choices()
    if not choices:
        st.caption(t("tr.generate_none", lang))
        return
    if st.session_state.get("tr_gen_model") not in choices:
        st.session_state["tr_gen_model"] = choices[0]
    st.selectbox(t("tr.generate_with", lang), choices, key="tr_gen_model", format_func=_model_label(lang))
    cols = st.columns([3, 1, 1, 1, 1])
    cols[0].text_area(t("tr.prompt", lang), key="tr_prompt", height=PROMPT_BOX_PX, max_chars=PROMPT_MAX_CHARS)
    cols[1].slider(t("tr.temperature", lang), *TEMPERATURE_RANGE, step=TEMPERATURE_STEP, key="tr_temperature")
    cols[2].number_input(t("tr.top_k", lang), *TOP_K_RANGE, key="tr_top_k")
    cols[3].number_input(t("tr.length", lang), 1, GENERATE_MAX, key="tr_length")
    cols[4].number_input(t("tr.seed", lang), 0, MAX_SEED, key="tr_gen_seed")
    if st.button(t("tr.generate_button", lang), key="tr_generate", icon=":material/edit_note:"):
        _generate_now()
    generated = st.session_state.get("tr_generated")
    if generated:
        prompt, text, missing = generated
        if missing:
            st.caption(t("tr.prompt_dropped", lang, chars=literal(" ".join(display_labels(missing)))))
        st.code(prompt + text, language=None, wrap_lines=True)


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


def _heads_list(heads: tuple[int, ...], lang: str) -> str:
    return t("list_sep", lang).join(f"h = {count}" for count in heads)


def _losses_list(stats: list[HeadsStats], lang: str) -> str:
    return t("list_sep", lang).join(
        t("tr.verdict.loss_item", lang, heads=item.heads, loss=f"{item.mean:.3f}") for item in stats
    )


def _speed_range(verdict: Verdict) -> tuple[str, str]:
    speeds = [item.tokens_per_second for item in verdict.stats]
    return f"{min(speeds):,.0f}", f"{max(speeds):,.0f}"


def _speed_sentence(verdict: Verdict, lang: str) -> str:
    if verdict.speed_differs:
        key = "tr.verdict.speed_more_heads" if verdict.slower_with_more_heads else "tr.verdict.speed"
        return t(key, lang, fastest=verdict.fastest, slowest=verdict.slowest, ratio=f"{verdict.speed_ratio:.2f}")
    low, high = _speed_range(verdict)
    if verdict.noise_known:
        return t("tr.verdict.speed_unclear_seeds", lang, low=low, high=high)
    return t("tr.verdict.speed_unclear_one_seed", lang, low=low, high=high, resolution=round(SPEED_RESOLUTION * 100))


def _time_sentence(verdict: Verdict, lang: str) -> str | None:
    at_time, seconds = verdict.at_time, f"{verdict.equal_seconds:.0f}"
    if at_time is None:
        return None
    if not at_time.worse:
        return t("tr.verdict.time_tie", lang, seconds=seconds)
    timed = t("tr.verdict.time", lang, seconds=seconds, best=at_time.best)
    if at_time.ties:
        timed += t("tr.verdict.time_ties", lang, heads=_heads_list(at_time.ties, lang))
    if at_time.best == verdict.at_steps.best:
        return timed + t("tr.verdict.time_same", lang)
    return timed + t("tr.verdict.time_changed", lang, best=verdict.at_steps.best)


def _comparison_sentences(verdict: Verdict, lang: str) -> list[str]:
    """Which head count did best, which tie with it and which are worse (a clear reading)."""
    steps = verdict.at_steps
    best = next(item for item in verdict.stats if item.heads == steps.best)
    suffix = "" if verdict.noise_known else "_one_seed"
    if verdict.noise_known:
        said = [t("tr.verdict.seeds", lang, seeds=verdict.seeds, best=best.heads, mean=f"{best.mean:.3f}",
                  sd=f"{best.sd:.3f}")]  # fmt: skip
    else:
        said = [t("tr.verdict.one_seed", lang, noise=f"{verdict.noise:.3f}", best=best.heads, loss=f"{best.mean:.3f}")]
    if steps.ties:
        said.append(t(f"tr.verdict.ties{suffix}", lang, heads=_heads_list(steps.ties, lang)))
    said.append(t(f"tr.verdict.worse{suffix}", lang, heads=_heads_list(steps.worse, lang)))
    if verdict.least_stable is not None:
        unstable = next(item for item in verdict.stats if item.heads == verdict.least_stable)
        said.append(t("tr.verdict.unstable", lang, heads=unstable.heads, spread=f"{unstable.spread:.3f}"))
    return said


def _more_heads_sentence(verdict: Verdict, lang: str) -> str:
    steps = verdict.at_steps
    if verdict.reading != "clear":
        return t("tr.verdict.more_unknown", lang)
    if not verdict.noise_known:
        return t("tr.verdict.more_one_seed", lang)
    most = verdict.stats[-1].heads
    if most == steps.best and not steps.ties:
        return t("tr.verdict.more_yes", lang, most=most)
    if most in steps.worse:
        return t("tr.verdict.more_no", lang, most=most, best=steps.best)
    return t("tr.verdict.more_tie", lang, best=steps.best)


def answer_text(runs: list[RunSummary], lang: str) -> str:
    """The written answer: only what the statistics support (gpt_core.experiment.answer
    decides; a run too short or differences within the noise are said to be so)."""
    verdict = answer(runs)
    losses = _losses_list(verdict.stats, lang)
    said = [t("tr.verdict.title", lang)]
    if verdict.reading == "too_short":
        low, high = _speed_range(verdict)
        said.append(t("tr.verdict.too_short", lang, steps=verdict.steps, min_steps=MIN_VERDICT_STEPS,
                      losses=losses, low=low, high=high))  # fmt: skip
        return " ".join(said)
    if verdict.reading == "within_noise":
        key = "tr.verdict.too_close_seeds" if verdict.noise_known else "tr.verdict.too_close_one_seed"
        said.append(t(key, lang, seeds=verdict.seeds, losses=losses, gap=f"{verdict.largest_gap:.3f}",
                      noise=f"{verdict.noise:.3f}"))  # fmt: skip
    else:
        said += _comparison_sentences(verdict, lang)
    said.append(_speed_sentence(verdict, lang))
    timed = _time_sentence(verdict, lang)
    if timed is not None:
        said.append(timed)
    said.append(_more_heads_sentence(verdict, lang))
    return " ".join(said)


def experiment_view(lang: str, runs: list[RunSummary], embedding_dim: int, source: str, key: str) -> None:
    """Curves with seed bands, every seed's final loss, the table, the answer and samples of
    one experiment (``key`` keeps widgets apart)."""
    st.caption(source)
    text = training_text(lang)
    left, right = st.columns(2)
    with left:
        show_chart(experiment_figure(runs, "step", text), f"tr_{key}_steps_chart")
    with right:
        show_chart(experiment_figure(runs, "elapsed", text), f"tr_{key}_time_chart")
    st.dataframe(_results_table(runs, embedding_dim, lang), hide_index=True, key=f"tr_{key}_table")
    points, said = st.columns([2, 3])
    with points:
        show_chart(final_loss_figure(runs, text), f"tr_{key}_final_chart")
        st.caption(t("tr.final_help", lang))
    with said:
        if len({run.parameters for run in runs}) == 1:
            st.info(t("tr.same_params", lang, params=f"{runs[0].parameters:,}"), icon=":material/balance:")
        st.markdown(answer_text(runs, lang))
    st.markdown(f"**{t('tr.samples', lang)}**")
    first_seed = min(run.seed for run in runs)
    sampled = sorted((run for run in runs if run.seed == first_seed), key=lambda run: run.heads)
    for column, run in zip(st.columns(len(sampled)), sampled, strict=True):
        column.caption(text.heads_label.format(heads=run.heads))
        column.code(run.sample, language=None, wrap_lines=True)


def snapshots_view(lang: str, experiment: ShippedExperiment) -> None:
    st.markdown(f"**{t('tr.snapshots', lang)}**")
    st.caption(t("tr.snapshots_help", lang))
    cols = st.columns(3)
    head_counts = experiment.head_counts
    heads = cols[0].selectbox(
        t("tr.heads", lang), head_counts, index=min(DEFAULT_SNAPSHOT_HEADS_INDEX, len(head_counts) - 1),
        key="tr_snap_heads",
    )  # fmt: skip
    snapshots = shipped_snapshots(heads)
    steps = sorted(snapshots)
    step = cols[1].select_slider(t("tr.snap_step", lang), steps, value=steps[-1], key="tr_snap_step")
    blocks = snapshots[step].shape[0]
    block = cols[2].selectbox(t("tr.block", lang), list(range(1, blocks + 1)), key="tr_snap_block")
    T = snapshots[step].shape[-1]
    prompt = experiment.snapshot_prompt[:T]  # the model read at most its context
    st.caption(t("tr.snap_prompt", lang, T=T, space=display_label(" "), newline=display_label("\n")))
    st.code(prompt, language=None, wrap_lines=True)  # shown literally, never as Markdown or HTML
    title = t("tr.snap_title", lang, step=step, block=block)
    figure = snapshot_figure(snapshots[step][block - 1], display_labels(list(prompt)), title, training_text(lang))
    show_chart(figure, "tr_snap_chart")
