"""The playground's controls: filled from the link or the session, repaired when stale,
drawn, and written back to the URL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

from gpt_core import DETAIL_STAGES, MAX_TOKENS
from gpt_core.source import AttentionSource
from links import playground as state
from string_table import DEFAULT_LANGUAGE, t

from ..page_state.state import NOTE_VALUE_CHARS as NOTE_CHARS
from ..page_state.state import PageState, send_to_browser
from ..shared import sources
from ..shell import LANGUAGE_STATE
from ..views import notes

PAGE = PageState(
    "pg_",
    state.PARAMS,
    extra_widgets=("preset",),
    parse=lambda query: state.parse_query(query, sources.settings_of),
)
VALUES_STATE = PAGE.values_key  # the controls' values, kept across page switches
NOTES_STATE = PAGE.notes_key  # what the link held that could not be used
CSV_STAGE = "pg_csv_stage"
CSV_HEAD = "pg_csv_head"
CSV_KEPT = "pg_csv_kept"  # (the head chosen above, the CSV's stage, its head) when the share tab was last drawn
TEXT_BOX_PX = 90
NOTE_VALUE_CHARS = NOTE_CHARS  # a link's odd value is shown up to this many characters
# The focus controls (head, stage, row, col, cells) are drawn with the views, after the
# computation: they follow the link or the session, never a value the browser sent first.
FOCUS = ("head", "stage", "row", "col", "cells", "token", "token_dir")
LOOKING = (*FOCUS, "view", "predict")  # what only chooses what is looked at: a change keeps the link's notes
widget_key = PAGE.key
CHARTS_PART = "pg_charts"  # the fragment (ui/playground/page.py) a control of the numbers only reruns
CHARTS_DRAWN = "pg_charts_drawn"  # the last run drew that part (not so with two set-ups compared)


def rerun_the_charts() -> None:
    """A control that changes the numbers only (the seed, the settings under "more", Predict
    first): the charts' part reruns, the controls stay as drawn. Where that part is not on
    the page (two set-ups compared, a session the server has just started), or while the
    link's notes are shown (a changed number makes them old news: the set-up redraws them),
    the usual rerun."""
    if not st.session_state.get(CHARTS_DRAWN) or PAGE.notes():
        return
    try:
        st.rerun(CHARTS_PART)
    except StreamlitAPIException:  # Streamlit holds no such part for this session now: the usual rerun
        return


def restore_controls() -> None:
    """Fill each control from the link (first visit), this session's last values, or what
    the browser sent after a restart (ui/page_state); the preset box follows the text."""
    from_browser = PAGE.restore(late=FOCUS)
    if widget_key("preset") not in from_browser:
        _preset_follows_the_text()


def refresh_controls() -> None:
    """Before the set-up reruns alone: each control shows its value anew, a value its
    parameter can't hold is repaired, and the preset box follows the text."""
    PAGE.refresh()
    _preset_follows_the_text()


def _preset_follows_the_text() -> None:
    ss = st.session_state
    text, tok = PAGE.get("text"), PAGE.get("tok")
    matching = [
        key for key, preset in state.PRESETS.items() if preset == text and state.PRESET_TOKENIZERS[key] == tok
    ]  # a preset is its text and its tokens: the same words as characters are the student's own
    ss[widget_key("preset")] = matching[0] if matching else state.CUSTOM_PRESET


def share_choices(heads: int) -> None:
    """Before the share tab's boxes are drawn: the CSV's stage, and its head, which follows
    the head chosen above (a new choice there moves it; the student may still pick another).
    Both are kept outside the widgets too: a closed tab drops a widget's value."""
    ss = st.session_state
    chosen = PAGE.get("head")
    followed, kept_stage, kept_head = ss.get(CSV_KEPT, (None, DETAIL_STAGES[0], chosen))
    stage = ss.get(CSV_STAGE, kept_stage)
    head = ss.get(CSV_HEAD, kept_head) if followed == chosen else chosen
    if type(head) is not int or not 1 <= head <= heads:
        head = min(chosen, heads)
    send_to_browser(CSV_STAGE, stage if stage in DETAIL_STAGES else DETAIL_STAGES[0])
    send_to_browser(CSV_HEAD, head)


def keep_share_choices() -> None:
    """After the share tab's boxes are drawn: what they hold, and the head they followed."""
    ss = st.session_state
    ss[CSV_KEPT] = (PAGE.get("head"), ss[CSV_STAGE], ss[CSV_HEAD])


def current_values() -> dict[str, Any]:
    return PAGE.values()


def _on_preset() -> None:
    """A preset sets the text and the tokenizer it is meant to be read with."""
    choice = st.session_state[widget_key("preset")]
    if choice in state.PRESETS:
        st.session_state[widget_key("text")] = state.PRESETS[choice]
        st.session_state[widget_key("tok")] = state.PRESET_TOKENIZERS[choice]


def write_url(values: dict[str, Any], text_used: str | None) -> dict[str, str]:
    """Put every control into the URL (the text cut to the tokens actually shown). With a
    trained or real model the link leaves out what only random weights use (the tokenizer,
    heads, seed, …): the model decides those, and the link says what the page shows."""
    taken = sources.settings_of(values.get("weights", state.RANDOM_WEIGHTS))
    omit = tuple(name for name in state.RANDOM_ONLY if name not in taken)
    if not values.get("predict"):  # Predict first is in the link only while on
        omit = (*omit, "predict")
    if not values.get("cmp"):  # set-up B is in the link only while compared (ui/playground/compare.py)
        omit = (*omit, *state.COMPARE_NAMES)
    else:
        taken_b = sources.settings_of(values.get("b_weights", state.RANDOM_WEIGHTS))
        omit = (*omit, *(name for name in state.B_RANDOM_ONLY if name.removeprefix("b_") not in taken_b))
    return PAGE.write_url(values, omit=omit, **({} if text_used is None else {"text": text_used}))


def _number_input(
    column, name: str, label: str, help_text: str | None = None, then: Callable[[], None] | None = None
) -> None:
    lang = st.session_state.get(LANGUAGE_STATE, DEFAULT_LANGUAGE)
    PAGE.number_input(column, name, label, lang, help_text, then=then)


def _text_controls(lang: str) -> None:
    k = widget_key
    presets = [*state.PRESETS, state.CUSTOM_PRESET]
    st.selectbox(
        t("pg.preset", lang),
        presets,
        key=k("preset"),
        on_change=_on_preset,
        format_func=lambda name: t(f"pg.preset.{name}", lang),
    )
    st.text_area(
        t("pg.text", lang),
        key=k("text"),
        max_chars=state.MAX_PASTE_CHARS,
        height=TEXT_BOX_PX,
        help=t("pg.text_help", lang, max_tokens=MAX_TOKENS),
    )


def _tokenizer_control(lang: str) -> None:
    st.radio(
        t("pg.tokenizer", lang),
        state.PARAMS_BY_NAME["tok"].choices,
        key=widget_key("tok"),
        horizontal=True,
        format_func=lambda name: t(f"pg.tokenizer.{name}", lang),
    )


def resolve_weights() -> None:
    """A link (or an old session) may name a model that is not here: another session's own
    model, a head count that was not shipped. Fall back to random weights, with a note."""
    ss = st.session_state
    key = ss.get(widget_key("weights"), state.RANDOM_WEIGHTS)
    if not sources.is_offered(key):
        ss[widget_key("weights")] = state.RANDOM_WEIGHTS
        PAGE.add_notes([state.Note("weights", key, sources.missing_reason(key))])


def weights_key() -> str:
    return st.session_state.get(widget_key("weights"), state.RANDOM_WEIGHTS)


def chosen_source(lang: str) -> AttentionSource | None:
    """The source the controls chose: random weights with their settings, or a model (a real
    one loaded first, with a message when it cannot be: then None)."""
    return sources.load(weights_key(), lang, state.config_of(PAGE.values()))


def block_choice(source: AttentionSource, block_name: str, lang: str) -> None:
    """A model's layer (block) box, kept inside the model."""
    d, k = source.description, widget_key(block_name)
    if st.session_state[k] > d.layers:
        st.session_state[k] = 1
    unit = source.words.unit  # "block" or "layer": the keys pg.block, pg.block_of, pg.layer, pg.layer_of
    st.selectbox(
        t(f"pg.{unit}", lang),
        list(range(1, d.layers + 1)),
        key=k,
        format_func=lambda b: t(f"pg.{unit}_of", lang, block=b, blocks=d.layers),
    )


def _weights_control(lang: str) -> AttentionSource | None:
    st.selectbox(
        t("pg.weights", lang),
        sources.names(),
        key=widget_key("weights"),
        help=t("pg.weights_help", lang),
        format_func=lambda key: sources.label(key, lang),
    )
    source = chosen_source(lang)
    if source is not None and source.description.layers > 1:
        block_choice(source, "block", lang)
    return source


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
        _number_input(width_col, "input_dim", t("pg.input_dim", lang), t("pg.input_dim_help", lang), rerun_the_charts)
        _number_input(seed_col, "seed", t("pg.seed", lang), t("pg.seed_help", lang), rerun_the_charts)
        st.toggle(t("pg.scale", lang), key=k("scale"), on_change=rerun_the_charts, help=t("pg.scale_help", lang))
        st.toggle(
            t("pg.positional", lang), key=k("pos"), on_change=rerun_the_charts, help=t("pg.positional_help", lang)
        )
        st.toggle(t("pg.bias", lang), key=k("bias"), on_change=rerun_the_charts)
        st.slider(
            t("pg.dropout", lang),
            0.0,
            state.MAX_DROPOUT,
            step=state.DROPOUT_STEP,
            key=k("dropout"),
            on_change=rerun_the_charts,
        )
        st.radio(
            t("pg.mode", lang),
            state.MODES,
            key=k("mode"),
            on_change=rerun_the_charts,
            horizontal=True,
            format_func=lambda name: t(f"pg.mode.{name}", lang),
            help=t("pg.mode_help", lang),
        )


def draw_controls(lang: str, predict: bool = True) -> AttentionSource | None:
    """The controls, one above the other: they stand in a column beside the first chart.
    With a model, what the model fixes is shown instead of the settings random weights take.
    ``predict``: with the Predict first switch (compare mode hides no row).
    Returns the source chosen (None: a model that could not be loaded, its message shown)."""
    _text_controls(lang)
    source = _weights_control(lang)
    if source is not None and source.settings:  # a source the reader sets up: its settings' controls
        _tokenizer_control(lang)
        _size_controls(lang)
    elif source is not None:
        notes.facts(source, lang)  # what the model fixes, instead of the settings
    if predict:
        st.toggle(
            t("pg.predict", lang),
            key=widget_key("predict"),
            help=t("pg.predict_help", lang),
            on_change=rerun_the_charts,
        )
    return source


def show_notes(lang: str) -> None:
    """What the link held that could not be used, shown literally."""
    PAGE.show_notes(lang)
