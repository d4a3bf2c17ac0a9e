"""The attention playground page: controls, computation once per change, the views.

Reads controls, calls gpt_core once per change of the numbers, hands arrays to the
figure builders. A change that only moves the focus (head, stage, cell) reuses the last
computation.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import numpy as np
import pandas as pd
import streamlit as st

from figures import STAGES, channel_map_figure, head_color, head_detail_figure, heads_overview_figure
from figures.shapes import shape_trace_code
from gpt_core import (
    MAX_TOKENS,
    InputError,
    PlaygroundConfig,
    PlaygroundTrace,
    head_statistics,
    position_label,
    softmax_steps,
    tokenize,
    trace_attention,
    truncate_text,
)

from . import playground_state as state
from .exports import matrix_csv, python_snippet, trace_npz
from .shell import LANGUAGE_PARAM, page_title, setup_page
from .strings import DEFAULT_LANGUAGE, error_text, t

SYNC_HOVER = Path(__file__).resolve().parents[1] / "assets" / "sync_hover.html"
KEY_PREFIX = "pg_"
VALUES_STATE = "pg_values"  # the controls' values, kept across page switches
NOTES_STATE = "pg_notes"
LINK_NUMBERS_STATE = "pg_link_numbers"
TOKENS_STATE = "pg_tokens"  # the tokens shown last run: when they change, the chosen cell resets  # the values that decide the numbers, as the link gave them
MEMO_STATE = "pg_memo"
COMPUTATIONS_STATE = "pg_computations"  # how many times attention was computed (tests read it)
PLOTLY_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}
CSV_MIME = "text/csv"
CSV_STAGE = "pg_csv_stage"
CSV_HEAD = "pg_csv_head"
CSV_STAGES = (*STAGES, "dropped_weights")


def widget_key(name: str) -> str:
    return KEY_PREFIX + name


@dataclass
class View:
    """What one computation gives the page: numpy arrays, ready for the figures."""

    result: PlaygroundTrace
    stages: dict[str, np.ndarray]  # stage -> (h, T, T) float32
    dropped_weights: np.ndarray  # (h, T, T)
    statistics: dict[str, np.ndarray]  # name -> (h,)


# --- state ---------------------------------------------------------------------------


def _restore_controls() -> None:
    """Fill each control's state from the link (first visit) or from this session's last values."""
    ss = st.session_state
    if VALUES_STATE not in ss:
        values, notes = state.parse_query(st.query_params.to_dict())
        ss[VALUES_STATE] = values
        ss[NOTES_STATE] = notes
    for name, value in ss[VALUES_STATE].items():
        if widget_key(name) not in ss:
            ss[widget_key(name)] = value
    matching = [key for key, text in state.PRESETS.items() if text == ss[widget_key("text")]]
    ss[widget_key("preset")] = matching[0] if matching else state.CUSTOM_PRESET


def _repair_controls() -> None:
    """Controls holding a stale label get their last good value back (see state.repairs)."""
    ss = st.session_state
    current = {param.name: ss.get(widget_key(param.name)) for param in state.PARAMS}
    for name, value in state.repairs(current, ss.get(VALUES_STATE, {})).items():
        ss[widget_key(name)] = value
    if ss.get(CSV_STAGE, CSV_STAGES[0]) not in CSV_STAGES:
        ss[CSV_STAGE] = CSV_STAGES[0]
    if not isinstance(ss.get(CSV_HEAD, 1), int):
        ss[CSV_HEAD] = 1


def _current_values() -> dict[str, Any]:
    return {param.name: st.session_state[widget_key(param.name)] for param in state.PARAMS}


def _on_preset() -> None:
    choice = st.session_state[widget_key("preset")]
    if choice in state.PRESETS:
        st.session_state[widget_key("text")] = state.PRESETS[choice]


def _write_url(values: dict[str, Any], text_used: str | None) -> dict[str, str]:
    """Put every control into the URL (the text cut to the tokens actually shown)."""
    query = state.to_query(values)
    if text_used is not None:
        query["text"] = text_used
    lang = st.session_state.get("language", DEFAULT_LANGUAGE)
    if lang != DEFAULT_LANGUAGE:
        query[LANGUAGE_PARAM] = lang
    if st.query_params.to_dict() != query:
        st.query_params.from_dict(query)
    return query


def _compute(text: str, config: PlaygroundConfig) -> View:
    """Attention for (text, config), computed only when one of them changed."""
    ss = st.session_state
    key = (text, config)
    memo = ss.get(MEMO_STATE)
    if memo is not None and memo[0] == key:
        return memo[1]
    result = trace_attention(text, config)
    trace = result.trace
    stages = {stage: getattr(trace, stage)[0].numpy() for stage in STAGES}
    view = View(
        result=result,
        stages=stages,
        dropped_weights=trace.dropped_weights[0].numpy(),
        statistics={name: value.numpy() for name, value in head_statistics(trace.weights[0]).items()},
    )
    ss[MEMO_STATE] = (key, view)
    ss[COMPUTATIONS_STATE] = ss.get(COMPUTATIONS_STATE, 0) + 1
    return view


def show_chart(figure, key: str) -> None:
    """Draw a figure exactly as built: our colours (theme=None), full width, a stable key."""
    st.plotly_chart(figure, key=key, config=PLOTLY_CONFIG, width="stretch", theme=None)


# --- controls ------------------------------------------------------------------------


def _controls(lang: str) -> None:
    k = widget_key
    left, right = st.columns([3, 2], gap="large")
    with left:
        presets = [*state.PRESETS, state.CUSTOM_PRESET]
        st.selectbox(
            t("pg.preset", lang), presets, key=k("preset"), on_change=_on_preset,
            format_func=lambda name: t(f"pg.preset.{name}", lang),
        )  # fmt: skip
        st.text_area(
            t("pg.text", lang), key=k("text"), max_chars=state.MAX_PASTE_CHARS, height=90,
            help=t("pg.text_help", lang, max_tokens=MAX_TOKENS),
        )  # fmt: skip
        st.radio(
            t("pg.tokenizer", lang), state.PARAMS_BY_NAME["tok"].choices, key=k("tok"), horizontal=True,
            format_func=lambda name: t(f"pg.tokenizer.{name}", lang),
        )  # fmt: skip
    with right:
        heads_col, dim_col = st.columns(2)
        heads = state.PARAMS_BY_NAME["heads"]
        head_dim = state.PARAMS_BY_NAME["head_dim"]
        heads_col.number_input(t("pg.heads", lang), int(heads.low), int(heads.high), step=1, key=k("heads"))
        dim_col.number_input(t("pg.head_dim", lang), int(head_dim.low), int(head_dim.high), step=1, key=k("head_dim"))
        h, d = st.session_state[k("heads")], st.session_state[k("head_dim")]
        st.markdown(t("pg.c_equals", lang, h=h, d=d, C=h * d))
        width_col, seed_col = st.columns(2)
        input_dim = state.PARAMS_BY_NAME["input_dim"]
        width_col.number_input(
            t("pg.input_dim", lang), int(input_dim.low), int(input_dim.high), step=1, key=k("input_dim"),
            help=t("pg.input_dim_help", lang),
        )  # fmt: skip
        seed = state.PARAMS_BY_NAME["seed"]
        seed_col.number_input(t("pg.seed", lang), int(seed.low), int(seed.high), step=1, key=k("seed"),
                              help=t("pg.seed_help", lang))  # fmt: skip
        with st.expander(t("pg.more", lang)):
            st.toggle(t("pg.scale", lang), key=k("scale"), help=t("pg.scale_help", lang))
            st.toggle(t("pg.positional", lang), key=k("pos"), help=t("pg.positional_help", lang))
            st.toggle(t("pg.bias", lang), key=k("bias"))
            st.slider(t("pg.dropout", lang), 0.0, state.MAX_DROPOUT, step=state.DROPOUT_STEP, key=k("dropout"))
            st.radio(
                t("pg.mode", lang), state.MODES, key=k("mode"), horizontal=True,
                format_func=lambda name: t(f"pg.mode.{name}", lang), help=t("pg.mode_help", lang),
            )  # fmt: skip


def _config(values: dict[str, Any]) -> PlaygroundConfig:
    return PlaygroundConfig(
        heads=values["heads"],
        head_dim=values["head_dim"],
        input_dim=values["input_dim"] or None,
        seed=values["seed"],
        tokenizer=values["tok"],
        positional=values["pos"],
        dropout=values["dropout"],
        training=values["mode"] == "train",
        qkv_bias=values["bias"],
        scale=values["scale"],
    )


def _show_notes(lang: str) -> None:
    for note in st.session_state.get(NOTES_STATE, []):
        shown = note.value if len(note.value) <= 40 else note.value[:39] + "…"
        if note.reason == "unknown":
            st.warning(t("pg.note_unknown", lang, name=_plain(note.name)), icon=":material/link_off:")
        else:
            st.warning(
                t("pg.note_invalid", lang, name=_plain(note.name), value=_plain(shown),
                  allowed=note.allowed, default=note.default),
                icon=":material/link_off:",
            )  # fmt: skip


def _plain(text: str) -> str:
    """Show link text literally inside Markdown: no links, images, HTML or emphasis."""
    specials = "\\`*_{}[]()<>#+-.!|~$:"
    return "".join("\\" + char if char in specials else char for char in text.replace("\n", " "))


# --- views ---------------------------------------------------------------------------


def _position_label(labels: list[str]):
    return lambda position: position_label(position, labels[position])


def _overview(view: View, lang: str) -> None:
    k = widget_key
    st.subheader(t("pg.all_heads", lang))
    st.segmented_control(
        t("pg.stage", lang), STAGES, key=k("stage"), format_func=lambda s: t(f"stage.{s}", lang),
        required=True,
    )  # fmt: skip
    stage = st.session_state[k("stage")]
    figure = heads_overview_figure(
        view.stages[stage], view.result.labels, stage, lang, focus=st.session_state[k("head")] - 1
    )
    show_chart(figure, "pg_overview_chart")


def _detail(view: View, lang: str) -> None:
    k = widget_key
    labels = view.result.labels
    T = len(labels)
    h = view.result.config.heads
    st.subheader(t("pg.detail_title", lang))
    st.caption(t("pg.detail_help", lang))
    head_col, row_col, col_col = st.columns(3)
    head_col.selectbox(
        t("pg.focus_head", lang), list(range(1, h + 1)), key=k("head"),
        format_func=lambda n: f"{t('fig.head', lang)} {n}",
    )  # fmt: skip
    head = st.session_state[k("head")] - 1
    row_col.selectbox(t("pg.query_row", lang), list(range(T)), key=k("row"), format_func=_position_label(labels))
    col_col.selectbox(t("pg.key_col", lang), list(range(T)), key=k("col"), format_func=_position_label(labels))
    stages = {stage: view.stages[stage][head] for stage in STAGES}
    config = view.result.config
    if config.training and config.dropout > 0:
        stages["dropped_weights"] = view.dropped_weights[head]
    figure = head_detail_figure(
        stages, labels, head, lang,
        highlight=(st.session_state[k("row")], st.session_state[k("col")]), scaled=config.scale,
    )  # fmt: skip
    show_chart(figure, "pg_detail_chart")
    _sync_hover()


def _sync_hover() -> None:
    """Hovering a cell in one stage outlines the same cell in all of them (a fixed script in
    assets/, no user text: it only reads the charts already on the page)."""
    st.iframe(SYNC_HOVER, height=1)


def _softmax_calculator(view: View, lang: str) -> None:
    labels = view.result.labels
    head = st.session_state[widget_key("head")] - 1
    row = st.session_state[widget_key("row")]
    steps = softmax_steps(view.result.trace.masked_scores[0, head, row])
    st.markdown(t("pg.softmax_intro", lang, head=head + 1, row=row))
    table = pd.DataFrame(
        {
            t("pg.col.key", lang): [position_label(j, label) for j, label in enumerate(labels)],
            t("pg.col.score", lang): ["−∞" if np.isneginf(s) else f"{s:.4f}" for s in steps.scores.tolist()],
            t("pg.col.exp", lang): [f"{e:.6f}" for e in steps.exps.tolist()],
            t("pg.col.weight", lang): [f"{w:.6f}" for w in steps.weights.tolist()],
        }
    )
    st.dataframe(table, hide_index=True, key="pg_softmax_table")
    st.markdown(t("pg.softmax_sum", lang, max=f"{steps.row_max:.4f}", total=f"{steps.total:.6f}"))


def _shapes(view: View, lang: str) -> None:
    trace = view.result.trace
    config = view.result.config
    st.markdown(t("pg.shapes_intro", lang))
    st.code(shape_trace_code(trace.shape_steps, tuple(trace.x.shape)), language="python")
    show_chart(channel_map_figure(config.heads, config.head_dim, lang), "pg_channel_chart")


def _statistics(view: View, lang: str) -> None:
    h = view.result.config.heads
    head_names = [f"{t('fig.head', lang)} {n + 1}" for n in range(h)]
    table = pd.DataFrame({t(f"pg.stat.{name}", lang): values for name, values in view.statistics.items()})
    table.insert(0, t("fig.head", lang), head_names)
    colors = {name: head_color(n) for n, name in enumerate(head_names)}
    styled = table.style.format(precision=3).map(
        lambda name: f"color: white; background-color: {colors[name]}; font-weight: bold", subset=[t("fig.head", lang)]
    )
    st.dataframe(styled, hide_index=True, key="pg_stats_table")
    st.caption(t("pg.stats_help", lang))


def _share(view: View, query: dict[str, str], lang: str) -> None:
    base = (st.context.url or "").split("?")[0]
    st.markdown(t("pg.share_intro", lang))
    st.code(f"{base}?{urlencode(query)}", language=None, wrap_lines=True)
    result = view.result
    labels = result.labels
    stage_col, head_col = st.columns(2)
    if st.session_state.get(CSV_HEAD, 1) > result.config.heads:
        st.session_state[CSV_HEAD] = 1
    stage = stage_col.selectbox(t("pg.csv_stage", lang), CSV_STAGES, key=CSV_STAGE,
                                format_func=lambda s: t(f"stage.{s}", lang))  # fmt: skip
    head = head_col.selectbox(
        t("pg.csv_head", lang), list(range(1, result.config.heads + 1)), key=CSV_HEAD,
        format_func=lambda n: f"{t('fig.head', lang)} {n}",
    )  # fmt: skip
    matrix = getattr(result.trace, stage)[0, head - 1].numpy()
    buttons = st.columns(3)
    buttons[0].download_button(
        t("pg.download_csv", lang), lambda: matrix_csv(matrix, labels), file_name=f"{stage}_head{head}.csv",
        mime=CSV_MIME, key="pg_download_csv", icon=":material/table:",
    )  # fmt: skip
    buttons[1].download_button(
        t("pg.download_npz", lang), lambda: trace_npz(result), file_name="attention_trace.npz",
        mime="application/octet-stream", key="pg_download_npz", icon=":material/data_array:",
    )  # fmt: skip
    snippet = python_snippet(query["text"], result.config)
    buttons[2].download_button(
        t("pg.download_py", lang), snippet, file_name="reproduce_attention.py", mime="text/x-python",
        key="pg_download_py", icon=":material/code:",
    )  # fmt: skip
    st.code(snippet, language="python")


# --- the page ------------------------------------------------------------------------


def render() -> None:
    lang = setup_page("playground")
    page_title("playground", lang)
    st.caption(t("page.playground.blurb", lang))
    _restore_controls()
    _repair_controls()
    _show_notes(lang)
    _controls(lang)
    values = _current_values()
    st.session_state[VALUES_STATE] = values
    numbers = {name: values[name] for name in state.NUMBER_PARAMS}
    if numbers != st.session_state.setdefault(LINK_NUMBERS_STATE, numbers):
        st.session_state[NOTES_STATE] = []  # the user has moved on from the link: its notes are old news
    text = values["text"]
    if not text.strip():
        _write_url(values, None)
        st.info(t("pg.empty", lang), icon=":material/edit:")
        return
    try:
        config = _config(values)
        text_used = truncate_text(text, config.tokenizer, MAX_TOKENS)
        view = _compute(text_used, config)
    except InputError as error:
        _write_url(values, None)
        st.error(error_text(error, lang))
        return
    result = view.result
    T = len(result.tokens)
    ss = st.session_state
    tokens_key = (tuple(result.tokens), config.tokenizer)
    if ss.get(TOKENS_STATE, tokens_key) != tokens_key:
        # New tokens: the chosen cell named positions of the old ones; start again at the
        # last query (the one that sees every key) and the first key.
        ss[widget_key("row")], ss[widget_key("col")] = state.LAST_ROW, 0
    ss[TOKENS_STATE] = tokens_key
    ss[widget_key("head")] = min(ss[widget_key("head")], config.heads)
    ss[widget_key("col")] = min(ss[widget_key("col")], T - 1)
    if ss[widget_key("row")] == state.LAST_ROW or ss[widget_key("row")] >= T:
        ss[widget_key("row")] = T - 1
    values = _current_values()
    st.session_state[VALUES_STATE] = values
    query = _write_url(values, text_used)
    total = len(tokenize(text, config.tokenizer))
    if total > T:
        st.warning(t("pg.truncated", lang, total=total, shown=T), icon=":material/content_cut:")
    st.markdown(t("pg.tokens_line", lang, T=T, h=config.heads, d=config.head_dim, C=config.output_dim))
    _overview(view, lang)
    _detail(view, lang)
    tabs = st.tabs(
        [t("pg.tab.softmax", lang), t("pg.tab.shapes", lang), t("pg.tab.stats", lang), t("pg.tab.share", lang)]
    )
    with tabs[0]:
        _softmax_calculator(view, lang)
    with tabs[1]:
        _shapes(view, lang)
    with tabs[2]:
        _statistics(view, lang)
    with tabs[3]:
        _share(view, query, lang)
