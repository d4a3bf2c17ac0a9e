"""The explorer's URL: every value parsed and checked, the model's limits applied, odd
values falling back with a note, and a round trip through the query string."""

from __future__ import annotations

import pytest

from links.explorer import (
    ALL_TOKENS,
    FALLBACK_MODEL,
    ModelShape,
    defaults,
    fit_to_model,
    parse_query,
    resolve_model,
    to_query,
)

SHIPPED = ("h1", "h2", "h4", "h8")
SHAPE = ModelShape(SHIPPED, blocks=2, heads=4, tokens=32, steps=(0, 25, 50, 100, 1500))


def test_a_full_link_parses_to_its_values_and_back():
    query = {
        "model": "h8",
        "prompt": "ROMEO:\n<b>x</b>",
        "block": "2",
        "head": "7",
        "token": "5",
        "lines": "block",
        "metric": "entropy",
        "step": "100",
        "n": "12",
        "temp": "0.7",
        "seed": "3",
        "odds_temp": "1.3",
        "top_k": "5",
        "top_p": "0.85",
        "sample_seed": "9",
        "combine": "rollout",
        "token_dir": "read_by",
        "view": "cache",
        "cache_n": "12",
        "cache_step": "11",
        "row": "400",
        "col": "3",
        "lang": "zh",
        "present": "1",
    }
    values, notes = parse_query(query)
    assert notes == []
    assert values == {
        "model": "h8",
        "prompt": "ROMEO:\n<b>x</b>",
        "block": 2,
        "head": 7,
        "token": 5,
        "lines": "block",
        "metric": "entropy",
        "step": 100,
        "n": 12,
        "temp": 0.7,
        "seed": 3,
        "odds_temp": 1.3,
        "top_k": 5,
        "top_p": 0.85,
        "sample_seed": 9,
        "combine": "rollout",
        "token_dir": "read_by",
        "view": "cache",
        "cache_n": 12,
        "cache_step": 11,
        "row": 400,
        "col": 3,
    }
    assert parse_query(to_query(values)) == (values, [])


def test_no_link_gives_the_defaults_and_the_models_own_prompt():
    values, notes = parse_query({})
    assert values == defaults() and values["prompt"] is None and values["model"] == FALLBACK_MODEL and not notes
    assert "prompt" not in to_query(values) and "step" not in to_query(values)


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("block", "abc"),
        ("head", "0"),
        ("head", "1.5"),
        ("token", "-2"),
        ("metric", "<b>"),
        ("lines", "x"),
        ("n", "41"),
        ("temp", "nan"),
        ("temp", "3"),
        ("seed", "-1"),
        ("top_p", "0"),
        ("top_k", "-1"),
        ("odds_temp", "-0.5"),
        ("step", "1e9"),
        ("prompt", "x" * 200_001),
        ("row", "-2"),
        ("col", "-2"),
        ("row", "4097"),
        ("cache_n", "0"),
        ("cache_n", "17"),
        ("cache_step", "-1"),
    ],
)
def test_odd_values_fall_back_to_the_default_with_a_note(name, raw):
    values, notes = parse_query({name: raw})
    assert values[name] == defaults()[name]
    assert [(note.name, note.value, note.reason) for note in notes] == [(name, raw, "invalid")]


def test_unknown_parameters_are_noted_but_shell_ones_are_not():
    _, notes = parse_query({"colour": "red", "lang": "zh", "present": "1"})
    assert [(note.name, note.reason) for note in notes] == [("colour", "unknown")]


def test_a_model_that_is_not_here_falls_back_with_a_note_of_its_reason():
    key, notes = resolve_model("session", SHIPPED, "h4", "session_model_missing")
    assert key == "h4" and notes[0].reason == "session_model_missing" and notes[0].default == "h4"
    key, notes = resolve_model("h16", SHIPPED, "h2", "model_missing")
    assert key == "h2" and notes[0].reason == "model_missing" and notes[0].value == "h16"
    assert notes[0].allowed == ", ".join(SHIPPED)
    assert resolve_model("session", (*SHIPPED, "session"), "h4", "session_model_missing") == ("session", [])


def test_values_outside_the_model_move_inside_with_notes():
    values = dict(defaults(), block=3, head=9, token=40, step=30)
    fitted, notes = fit_to_model(values, SHAPE)
    assert (fitted["block"], fitted["head"], fitted["token"], fitted["step"]) == (1, 1, ALL_TOKENS, 1500)
    assert {note.name for note in notes} == {"block", "head", "token", "step"}
    assert next(note for note in notes if note.name == "step").allowed == "0, 25, 50, 100, 1500"


def test_values_inside_the_model_stay_and_no_step_means_the_last():
    values = dict(defaults(), block=2, head=4, token=31, step=None)
    fitted, notes = fit_to_model(values, SHAPE)
    assert notes == [] and (fitted["block"], fitted["head"], fitted["token"], fitted["step"]) == (2, 4, 31, 1500)
    fitted, notes = fit_to_model(dict(values, step=25), ModelShape(("session",), 2, 4, 32, ()))
    assert fitted["step"] is None and notes == [], "a session's model has no snapshots"


def test_a_token_one_past_the_last_query_moves_to_every_token_with_a_note():
    fitted, notes = fit_to_model(dict(defaults(), token=SHAPE.tokens), SHAPE)
    assert fitted["token"] == ALL_TOKENS
    assert [(note.name, note.value) for note in notes] == [("token", str(SHAPE.tokens))]
    assert fit_to_model(dict(defaults(), token=SHAPE.tokens - 1), SHAPE)[0]["token"] == SHAPE.tokens - 1


@pytest.mark.parametrize("name", ["row", "col"])
def test_a_position_past_the_text_is_clamped_to_the_last_token_with_a_note_that_says_so(name):
    """A link made for a longer text (row=400 at 32 tokens) shows the text's last token, not
    the default, and the note names the last token and the text's positions."""
    last = SHAPE.tokens - 1  # 32 tokens: positions 0 … 31
    fitted, notes = fit_to_model(dict(defaults(), **{name: 400}), SHAPE)
    assert fitted[name] == last
    assert [(note.name, note.value, note.reason) for note in notes] == [(name, "400", "past_text")]
    assert (notes[0].allowed, notes[0].default) == (f"0 … {last}", str(last))
    fitted, notes = fit_to_model(dict(defaults(), **{name: last}), SHAPE)
    assert fitted[name] == last and notes == [], "the last token itself is no note"


def test_the_cache_views_step_is_its_own_and_stays_inside_its_generation():
    """``cache_step`` is not the training snapshot's ``step``: each keeps its own meaning in one
    link; a cache step past the generation's tokens is its last step, with a note."""
    values, notes = parse_query({"step": "100", "cache_step": "3", "cache_n": "4", "view": "cache"})
    assert not notes and (values["step"], values["cache_step"], values["cache_n"]) == (100, 3, 4)
    fitted, notes = fit_to_model(values, SHAPE)
    assert (fitted["step"], fitted["cache_step"]) == (100, 3) and not notes
    fitted, notes = fit_to_model(dict(values, cache_step=6), SHAPE)
    assert fitted["cache_step"] == 3
    assert [(note.name, note.value, note.allowed, note.default) for note in notes] == [
        ("cache_step", "6", "0 … 3", "3")
    ]
    assert parse_query({})[0]["cache_n"] == 8 and parse_query({})[0]["cache_step"] == 0, "a short greedy generation"
