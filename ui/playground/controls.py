"""The playground's controls: filled from the link or the session, repaired when stale,
drawn, and written back to the URL."""

from __future__ import annotations

from typing import Any

import streamlit as st

from gpt_core import DETAIL_STAGES, MAX_TOKENS

from .. import models
from ..internals import keys_sent_by_browser
from ..markdown import literal
from ..shell import LANGUAGE_STATE, carried_params
from ..strings import DEFAULT_LANGUAGE, t
from . import state

KEY_PREFIX = "pg_"
VALUES_STATE = "pg_values"  # the controls' values, kept across page switches
NOTES_STATE = "pg_notes"  # what the link held that could not be used
CSV_STAGE = "pg_csv_stage"
CSV_HEAD = "pg_csv_head"
TEXT_BOX_PX = 90
NOTE_VALUE_CHARS = 40  # a link's odd value is shown up to this many characters


def widget_key(name: str) -> str:
    return KEY_PREFIX + name


# The controls drawn before the page reads the values (the focus controls, head, stage,
# row and col, are drawn with the views, after the computation, so they follow the link).
DRAWN_FIRST = {widget_key(name) for name in (*state.NUMBER_PARAMS, "preset")}


def sent_by_browser() -> set[str]:
    """Keys of the controls drawn by ``draw_controls`` whose values the browser sent with
    this run but that this session has not drawn yet.

    That happens when a page outlives its session (the server restarted, or the session
    expired): the page's next run starts a new session and carries every control's value,
    the change that started the run included, which the URL does not hold yet. Those
    values must win over the link. (Read from Streamlit's session state, which has no
    public way to ask; if that changes, the link wins as on a first visit.)
    """
    keys = keys_sent_by_browser()
    return {key for key in keys & DRAWN_FIRST if key not in st.session_state}


def restore_controls() -> None:
    """Fill each control's state from the link (first visit) or from this session's last
    values; values the browser sent for controls not yet drawn (see ``sent_by_browser``)
    are left to the browser."""
    ss = st.session_state
    from_browser = sent_by_browser()
    if VALUES_STATE not in ss:
        values, notes = state.parse_query(st.query_params.to_dict())
        ss[VALUES_STATE] = values
        ss[NOTES_STATE] = notes
    for name, value in ss[VALUES_STATE].items():
        if widget_key(name) not in ss and widget_key(name) not in from_browser:
            ss[widget_key(name)] = value
    if widget_key("preset") in from_browser:
        return
    text = ss[widget_key("text")] if widget_key("text") in ss else ss[VALUES_STATE]["text"]
    tok = ss[widget_key("tok")] if widget_key("tok") in ss else ss[VALUES_STATE]["tok"]
    matching = [
        key for key, preset in state.PRESETS.items() if preset == text and state.PRESET_TOKENIZERS[key] == tok
    ]  # a preset is its text and its tokens: the same words as characters are the student's own
    ss[widget_key("preset")] = matching[0] if matching else state.CUSTOM_PRESET


def repair_controls() -> None:
    """Controls holding a stale label get their last good value back (see state.repairs)."""
    ss = st.session_state
    from_browser = sent_by_browser()  # not readable before they are drawn: left as sent
    current = {param.name: ss.get(widget_key(param.name)) for param in state.PARAMS}
    for name, value in state.repairs(current, ss.get(VALUES_STATE, {})).items():
        if widget_key(name) not in from_browser:
            ss[widget_key(name)] = value
    if ss.get(CSV_STAGE, DETAIL_STAGES[0]) not in DETAIL_STAGES:
        ss[CSV_STAGE] = DETAIL_STAGES[0]
    if not isinstance(ss.get(CSV_HEAD, 1), int):
        ss[CSV_HEAD] = 1


def current_values() -> dict[str, Any]:
    return {param.name: st.session_state[widget_key(param.name)] for param in state.PARAMS}


def _on_preset() -> None:
    """A preset sets the text and the tokenizer it is meant to be read with."""
    choice = st.session_state[widget_key("preset")]
    if choice in state.PRESETS:
        st.session_state[widget_key("text")] = state.PRESETS[choice]
        st.session_state[widget_key("tok")] = state.PRESET_TOKENIZERS[choice]


def write_url(values: dict[str, Any], text_used: str | None) -> dict[str, str]:
    """Put every control into the URL (the text cut to the tokens actually shown)."""
    query = state.to_query(values)
    if text_used is not None:
        query["text"] = text_used
    query.update(carried_params(st.session_state.get(LANGUAGE_STATE, DEFAULT_LANGUAGE)))
    if st.query_params.to_dict() != query:
        st.query_params.from_dict(query)
    return query


CLAMPED_STATE = "pg_clamped"  # number boxes given a value out of range: name -> the value used


def _clamp_number(name: str) -> None:
    """A number typed out of range becomes the nearest allowed one, remembered so its box
    says so. (The box has no min or max: a browser keeps an out-of-range number in the box
    without sending it, and the page would go on silently with the previous value.)"""
    ss = st.session_state
    param = state.PARAMS_BY_NAME[name]
    typed = ss[widget_key(name)]
    used = param.clamp(typed)
    clamped = ss.setdefault(CLAMPED_STATE, {})
    clamped.pop(name, None)
    if typed != used:
        ss[widget_key(name)] = used
        clamped[name] = used


def _number_input(column, name: str, label: str, help_text: str | None = None) -> None:
    """A number box that takes any integer; one out of range is clamped with a visible note."""
    param = state.PARAMS_BY_NAME[name]
    value = column.number_input(
        label, step=1, key=widget_key(name), help=help_text, on_change=_clamp_number, args=(name,)
    )
    clamped = st.session_state.get(CLAMPED_STATE, {})
    if name in clamped and clamped[name] != value:
        del clamped[name]  # changed since: the note is old news
    if name in clamped:
        low, high = int(param.low), int(param.high)
        lang = st.session_state.get(LANGUAGE_STATE, DEFAULT_LANGUAGE)
        column.warning(t("pg.clamped", lang, name=label, low=low, high=high, used=value), icon=":material/straighten:")


def _text_controls(lang: str) -> None:
    k = widget_key
    presets = [*state.PRESETS, state.CUSTOM_PRESET]
    st.selectbox(
        t("pg.preset", lang), presets, key=k("preset"), on_change=_on_preset,
        format_func=lambda name: t(f"pg.preset.{name}", lang),
    )  # fmt: skip
    st.text_area(
        t("pg.text", lang), key=k("text"), max_chars=state.MAX_PASTE_CHARS, height=TEXT_BOX_PX,
        help=t("pg.text_help", lang, max_tokens=MAX_TOKENS),
    )  # fmt: skip


def _tokenizer_control(lang: str) -> None:
    st.radio(
        t("pg.tokenizer", lang), state.PARAMS_BY_NAME["tok"].choices, key=widget_key("tok"), horizontal=True,
        format_func=lambda name: t(f"pg.tokenizer.{name}", lang),
    )  # fmt: skip


def resolve_weights() -> None:
    """A link (or an old session) may name a model that is not here: another session's own
    model, a head count that was not shipped. Fall back to random weights, with a note."""
    ss = st.session_state
    key = ss.get(widget_key("weights"), state.RANDOM_WEIGHTS)
    if key != state.RANDOM_WEIGHTS and key not in models.model_keys():
        ss[widget_key("weights")] = state.RANDOM_WEIGHTS
        reason = "session_model_missing" if key == models.SESSION_KEY else "model_missing"
        ss.setdefault(NOTES_STATE, []).append(state.Note("weights", key, reason))


def trained_choice() -> models.LoadedModel | None:
    """The trained model the controls chose, or None for random weights."""
    key = st.session_state.get(widget_key("weights"), state.RANDOM_WEIGHTS)
    return None if key == state.RANDOM_WEIGHTS else models.load(key)


def _weights_control(lang: str) -> models.LoadedModel | None:
    k = widget_key
    options = [state.RANDOM_WEIGHTS, *models.model_keys()]
    st.selectbox(
        t("pg.weights", lang), options, key=k("weights"), help=t("pg.weights_help", lang),
        format_func=lambda key: t("pg.weights.random", lang) if key == state.RANDOM_WEIGHTS else models.label(key, lang),
    )  # fmt: skip
    loaded = trained_choice()
    if loaded is not None:
        if st.session_state[k("block")] > loaded.blocks:
            st.session_state[k("block")] = 1
        st.selectbox(
            t("pg.block", lang), list(range(1, loaded.blocks + 1)), key=k("block"),
            format_func=lambda b: t("pg.block_of", lang, block=b, blocks=loaded.blocks),
        )  # fmt: skip
    return loaded


def _trained_facts(loaded: models.LoadedModel, lang: str) -> None:
    """What the model fixes, shown instead of the random weights' controls."""
    st.markdown(
        t("pg.trained_facts", lang, h=loaded.heads, d=loaded.head_dim, C=loaded.embedding_dim,
          context=loaded.context_length, chars=len(loaded.vocabulary.chars))
    )  # fmt: skip


def _size_controls(lang: str) -> None:
    k = widget_key
    heads_col, dim_col = st.columns(2)
    _number_input(heads_col, "heads", t("pg.heads", lang))
    _number_input(dim_col, "head_dim", t("pg.head_dim", lang))
    h, d = st.session_state[k("heads")], st.session_state[k("head_dim")]
    st.markdown(t("pg.c_equals", lang, h=h, d=d, C=h * d))
    # Only the text, heads and head_dim stay in view beside the first chart; what is
    # changed less often waits in "more".
    with st.expander(t("pg.more", lang)):
        width_col, seed_col = st.columns(2)
        _number_input(width_col, "input_dim", t("pg.input_dim", lang), t("pg.input_dim_help", lang))
        _number_input(seed_col, "seed", t("pg.seed", lang), t("pg.seed_help", lang))
        st.toggle(t("pg.scale", lang), key=k("scale"), help=t("pg.scale_help", lang))
        st.toggle(t("pg.positional", lang), key=k("pos"), help=t("pg.positional_help", lang))
        st.toggle(t("pg.bias", lang), key=k("bias"))
        st.slider(t("pg.dropout", lang), 0.0, state.MAX_DROPOUT, step=state.DROPOUT_STEP, key=k("dropout"))
        st.radio(
            t("pg.mode", lang), state.MODES, key=k("mode"), horizontal=True,
            format_func=lambda name: t(f"pg.mode.{name}", lang), help=t("pg.mode_help", lang),
        )  # fmt: skip


def draw_controls(lang: str) -> None:
    """The controls, one above the other: they stand in a column beside the first chart.
    With a trained model, what the model fixes is shown instead of its controls."""
    _text_controls(lang)
    loaded = _weights_control(lang)
    if loaded is None:
        _tokenizer_control(lang)
        _size_controls(lang)
    else:
        _trained_facts(loaded, lang)


def show_notes(lang: str) -> None:
    """What the link held that could not be used, shown literally."""
    for note in st.session_state.get(NOTES_STATE, []):
        shown = note.value if len(note.value) <= NOTE_VALUE_CHARS else note.value[: NOTE_VALUE_CHARS - 1] + "…"
        if note.reason == "unknown":
            st.warning(t("pg.note_unknown", lang, name=literal(note.name)), icon=":material/link_off:")
        elif note.reason in ("older_version", "newer_version"):
            st.warning(t(f"pg.note_{note.reason}", lang, value=literal(shown), current=note.default),
                       icon=":material/history:")  # fmt: skip
        elif note.reason in ("session_model_missing", "model_missing"):
            st.warning(t(f"pg.note_{note.reason}", lang, value=literal(shown)), icon=":material/link_off:")
        else:
            st.warning(
                t("pg.note_invalid", lang, name=literal(note.name), value=literal(shown),
                  allowed=note.allowed, default=note.default),
                icon=":material/link_off:",
            )  # fmt: skip
