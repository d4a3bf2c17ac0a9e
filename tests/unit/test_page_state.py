"""The link's rules (links/rules.py) and a page's state (ui/page_state/state.py),
proved on a small page of their own: what a link may hold and what it falls back to, the
URL a view writes, the notes a student reads, and where a view comes back from (the link,
the session after another page, the browser after a server restart). The page runs in
Streamlit's AppTest; every expected value is written out by hand."""

from __future__ import annotations

import math

import pytest
from streamlit.testing.v1 import AppTest

from gpt_core.reproduce import NUMBERS_VERSION
from links.rules import (
    LINK_TEXT_CHARS,
    Note,
    Param,
    _last,
    by_name,
    defaults,
    limit,
    parse_query,
    repairs,
    to_query,
    too_long_for_a_link,
    version_notes,
)
from ui.page_state.state import PageState, shown_value

VERSION = str(NUMBERS_VERSION)  # every link carries the numbers version it was made with

COUNT = Param("n", "int", 3, 1, 9)
SHARE = Param("x", "float", 0.5, 0.0, 1.0)
SWITCH = Param("on", "bool", False)
PICK = Param("pick", "choice", "a", choices=("a", "b"))
HEADS = Param("heads", "choice", 2, choices=(1, 2, 4))  # a choice may be an int
WORDS = Param("words", "text", "hi", max_chars=5)
SECRET = Param("secret", "text", "", in_url=False)
LATER = Param("later", "choice", None, choices=lambda: ["p", "q"], optional=True)  # known when the page runs
PARAMS = (COUNT, SHARE, SWITCH, PICK, HEADS, WORDS, SECRET, LATER)
DEFAULTS = {"n": 3, "x": 0.5, "on": False, "pick": "a", "heads": 2, "words": "hi", "secret": "", "later": None}


# -- a parameter's declaration -----------------------------------------------------------------
def test_an_unknown_kind_is_refused_naming_the_kind_and_the_parameter():
    with pytest.raises(ValueError) as error:
        Param("n", "integer", 3)
    assert str(error.value) == "unknown kind 'integer' of n"


@pytest.mark.parametrize("kind", ["int", "float"])
@pytest.mark.parametrize(("low", "high"), [(None, 9), (1, None), (None, None)])
def test_a_number_needs_both_its_bounds(kind, low, high):
    with pytest.raises(ValueError) as error:
        Param("n", kind, 3, low, high)
    assert str(error.value) == "n needs low and high"


def test_text_bool_and_choice_need_no_bounds_and_zero_is_a_bound():
    assert Param("t", "text", "").low is None and Param("b", "bool", True).high is None
    assert Param("c", "choice", "a", choices=("a",)).accepts("a")
    assert Param("z", "int", 0, 0, 0).accepts(0) and Param("f", "float", 0.0, 0.0, 0.0).accepts(0.0)


def test_choices_are_a_tuple_even_from_a_list_or_a_function_asked_again_each_time():
    assert Param("c", "choice", "a", choices=["a", "b"]).options() == ("a", "b")
    known = ["p"]
    later = Param("later", "choice", None, choices=lambda: known, optional=True)
    assert later.options() == ("p",)
    known.append("q")
    assert later.options() == ("p", "q")
    assert Param("t", "text", "").options() == ()


# -- parsing a link's value --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("param", "raw", "expected"),
    [
        (COUNT, " 7 ", 7),
        (COUNT, "1", 1),
        (COUNT, "9", 9),
        (SHARE, "0.126", 0.13),
        (SHARE, "0.124", 0.12),
        (SHARE, " 1 ", 1.0),
        (SHARE, "0", 0.0),
        (SHARE, "1.004", 1.0),
        (SWITCH, "1", True),
        (SWITCH, "true", True),
        (SWITCH, "yes", True),
        (SWITCH, "on", True),
        (SWITCH, "0", False),
        (SWITCH, "false", False),
        (SWITCH, "no", False),
        (SWITCH, "off", False),
        (SWITCH, " Yes ", True),
        (SWITCH, "OFF", False),
        (PICK, "b", "b"),
        (HEADS, "4", 4),
        (WORDS, "abcde", "abcde"),
        (WORDS, "", ""),
        (WORDS, " <b> ", " <b> "),
    ],
)
def test_a_good_value_parses_to_its_kind(param, raw, expected):
    value = param.parse(raw)
    assert value == expected and type(value) is type(expected)


@pytest.mark.parametrize(
    ("param", "raw", "reason"),
    [
        (WORDS, "abcdef", "too_long"),
        (PICK, "c", "choice"),
        (PICK, "B", "choice"),
        (PICK, " b", "choice"),
        (HEADS, "4.0", "choice"),
        (SWITCH, "maybe", "bool"),
        (SWITCH, "", "bool"),
        (SWITCH, "2", "bool"),
        (COUNT, "0", "range"),
        (COUNT, "10", "range"),
        (SHARE, "1.01", "range"),
        (SHARE, "-0.01", "range"),
        (SHARE, "nan", "not_finite"),
        (SHARE, "inf", "not_finite"),
        (SHARE, "-inf", "not_finite"),
    ],
)
def test_a_bad_value_is_refused_with_its_reason(param, raw, reason):
    with pytest.raises(ValueError) as error:
        param.parse(raw)
    assert str(error.value) == reason


@pytest.mark.parametrize(("param", "raw"), [(COUNT, "1.5"), (COUNT, "abc"), (COUNT, ""), (SHARE, "half")])
def test_a_number_that_is_no_number_is_refused(param, raw):
    with pytest.raises(ValueError):
        param.parse(raw)


# -- what a widget may hold --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("param", "value", "accepted"),
    [
        (LATER, None, True),
        (LATER, "q", True),
        (LATER, "z", False),
        (COUNT, None, False),
        (WORDS, None, False),
        (WORDS, "abcde", True),
        (WORDS, "abcdef", False),
        (WORDS, 5, False),
        (PICK, "a", True),
        (PICK, "c", False),
        (HEADS, 2, True),
        (HEADS, 2.0, False),
        (HEADS, True, False),
        (HEADS, "2", False),
        (SWITCH, True, True),
        (SWITCH, False, True),
        (SWITCH, 1, False),
        (SWITCH, "1", False),
        (COUNT, 3, True),
        (COUNT, 1, True),
        (COUNT, 9, True),
        (COUNT, 0, False),
        (COUNT, 10, False),
        (COUNT, 3.0, False),
        (COUNT, True, False),
        (COUNT, "3", False),
        (SHARE, 0.5, True),
        (SHARE, 1, True),
        (SHARE, 0.0, True),
        (SHARE, 1.0, True),
        (SHARE, 1.01, False),
        (SHARE, -0.01, False),
        (SHARE, math.nan, False),
        (SHARE, math.inf, False),
        (SHARE, True, False),
        (SHARE, "0.5", False),
    ],
)
def test_a_widget_may_hold_only_a_value_of_its_kind_and_range(param, value, accepted):
    assert param.accepts(value) is accepted


def test_a_number_out_of_range_is_clamped_to_the_nearest_bound_in_its_kind():
    assert COUNT.clamp(None) == 3
    assert [COUNT.clamp(typed) for typed in (0, 1, 5, 9, 12, -(10**9))] == [1, 1, 5, 9, 9, 1]
    kept = COUNT.clamp(4.7)
    assert kept == 4 and type(kept) is int
    assert [SHARE.clamp(typed) for typed in (-1, 0.3, 2)] == [0.0, 0.3, 1.0]
    assert type(SHARE.clamp(2)) is float and type(SHARE.clamp(0)) is float


@pytest.mark.parametrize(
    ("param", "allowed"),
    [
        (COUNT, "1 … 9"),
        (SHARE, "0 … 1"),
        (Param("t", "float", 0.25, 0.05, 2.5), "0.05 … 2.5"),
        (PICK, "a, b"),
        (HEADS, "1, 2, 4"),
        (LATER, "p, q"),
        (SWITCH, "1, 0"),
        (WORDS, "≤ 5"),
        (SECRET, "≤ 200000"),
    ],
)
def test_a_note_says_the_allowed_values_in_the_links_own_words(param, allowed):
    assert param.allowed() == allowed


@pytest.mark.parametrize(
    ("param", "value", "written"),
    [
        (SWITCH, True, "1"),
        (SWITCH, False, "0"),
        (SWITCH, 1, "1"),
        (SWITCH, "", "0"),
        (COUNT, 4, "4"),
        (COUNT, 4.0, "4"),
        (SHARE, 0.5, "0.5"),
        (SHARE, 1.0, "1"),
        (SHARE, 0.25, "0.25"),
        (PICK, "b", "b"),
        (HEADS, 4, "4"),
        (WORDS, "a b&c", "a b&c"),
    ],
)
def test_a_value_is_written_into_the_link_as_the_link_reads_it(param, value, written):
    assert param.to_url(value) == written


# -- reading a whole link ----------------------------------------------------------------------
def test_parameters_are_found_by_name_with_their_defaults():
    assert by_name((COUNT, PICK)) == {"n": COUNT, "pick": PICK}
    assert defaults(PARAMS) == DEFAULTS


@pytest.mark.parametrize(
    ("raw", "last"), [(["a", "b", "c"], "c"), (["a"], "a"), ([], ""), ("x", "x"), (None, ""), ([None], "")]
)
def test_a_repeated_key_gives_its_last_value(raw, last):
    assert _last(raw) == last


def test_a_link_gives_each_parameter_its_value_and_the_rest_their_defaults():
    values, notes = parse_query(PARAMS, {"n": "7", "pick": ["a", "b"], "later": "q", "heads": "4"})
    assert values == DEFAULTS | {"n": 7, "pick": "b", "later": "q", "heads": 4}
    assert notes == []


def test_the_shells_keys_are_left_to_it_and_other_unknown_keys_are_noted():
    values, notes = parse_query(PARAMS, {"lang": "zh", "utm": "slides", "present": "1", "secret": "pw", "n": "4"})
    assert values == DEFAULTS | {"n": 4}  # a value kept in the session only never comes from a link
    assert notes == [Note("utm", "slides", "unknown"), Note("secret", "pw", "unknown")]


def test_the_keys_to_leave_alone_may_be_chosen():
    _, notes = parse_query(PARAMS, {"lang": "zh", "utm": "slides"}, ignored=frozenset({"utm"}))
    assert notes == [Note("lang", "zh", "unknown")]


def test_a_bad_value_falls_back_to_the_default_with_what_is_allowed():
    values, notes = parse_query(PARAMS, {"n": "12", "x": "nan", "later": "z", "words": "toolong", "on": "maybe"})
    assert values == DEFAULTS
    assert notes == [
        Note("n", "12", "invalid", "1 … 9", "3"),
        Note("x", "nan", "invalid", "0 … 1", "0.5"),
        Note("later", "z", "invalid", "p, q", ""),
        Note("words", "toolong", "invalid", "≤ 5", "hi"),
        Note("on", "maybe", "invalid", "1, 0", "0"),
    ]


def test_the_version_key_is_checked_and_reading_goes_on_after_it():
    values, notes = parse_query(PARAMS, {"v": VERSION, "n": "5", "utm": "x"})
    assert values == DEFAULTS | {"n": 5} and notes == [Note("utm", "x", "unknown")]
    _, notes = parse_query(PARAMS, {"v": "0", "n": "12"})
    assert notes == [Note("v", "0", "older_version", default=VERSION), Note("n", "12", "invalid", "1 … 9", "3")]


def test_a_link_of_this_servers_numbers_version_needs_no_note():
    assert version_notes(VERSION) == []
    assert version_notes(f" {VERSION} ") == []


def test_a_link_of_another_numbers_version_says_which_and_which_this_server_computes():
    assert version_notes(str(NUMBERS_VERSION - 1)) == [
        Note("v", str(NUMBERS_VERSION - 1), "older_version", "", VERSION)
    ]
    assert version_notes(f" 0{NUMBERS_VERSION + 1} ") == [
        Note("v", str(NUMBERS_VERSION + 1), "newer_version", "", VERSION)
    ]
    assert version_notes("-3") == [Note("v", "-3", "older_version", "", VERSION)]


@pytest.mark.parametrize("raw", ["abc", "", "1.0", " x "])
def test_a_version_that_is_no_number_is_noted_with_the_versions_there_are(raw):
    assert version_notes(raw) == [Note("v", raw, "invalid", f"1 … {NUMBERS_VERSION}", VERSION)]


def test_a_value_a_parameter_cannot_hold_gets_the_last_good_value_else_the_default():
    current = {"n": 12, "x": 0.25, "on": 1, "pick": "A", "heads": "4", "words": "hi", "secret": "", "later": None}
    last_good = {"n": 5, "pick": "zzz", "heads": 4, "on": None}
    assert repairs(PARAMS, current, last_good) == {"n": 5, "on": False, "pick": "a", "heads": 4}
    assert repairs(PARAMS, DEFAULTS, {}) == {}
    assert repairs(PARAMS, {}, DEFAULTS) == {name: value for name, value in DEFAULTS.items() if name != "later"}


def test_a_view_writes_every_parameter_in_the_link_that_has_a_value_and_the_version():
    values = {"n": 7, "x": 0.25, "on": True, "pick": "b", "heads": 4, "words": "a&b", "secret": "pw", "later": None}
    written = {"n": "7", "x": "0.25", "on": "1", "pick": "b", "heads": "4", "words": "a&b", "v": VERSION}
    assert to_query(PARAMS, values) == written
    assert to_query(PARAMS, values | {"later": "q"})["later"] == "q"
    assert to_query(PARAMS, {"n": 2}) == {"n": "2", "v": VERSION}


def test_a_text_longer_than_a_link_carries_is_named():
    query = {"a": "x" * LINK_TEXT_CHARS, "b": "x" * (LINK_TEXT_CHARS + 1), "c": "", "d": "y" * 50_000}
    assert too_long_for_a_link(query) == ["b", "d"]
    assert LINK_TEXT_CHARS == 4_000


@pytest.mark.parametrize("value", [1, 2, 4])
def test_a_value_inside_a_models_limits_is_kept_without_a_note(value):
    assert limit("block", value, 1, 4, 2) == (value, [])


@pytest.mark.parametrize("value", [0, 5, -7])
def test_a_value_outside_a_models_limits_falls_back_with_a_note(value):
    assert limit("block", value, 1, 4, 2) == (2, [Note("block", str(value), "invalid", "1 … 4", "2")])


# -- a note's words ----------------------------------------------------------------------------
def test_a_links_value_is_shown_literally_and_cut_to_forty_characters():
    assert shown_value("a" * 40) == "a" * 40
    assert shown_value("a" * 41) == "a" * 39 + "…"
    assert shown_value("*x*") == "\\*x\\*"
    assert shown_value("abcd", 4) == "abcd"
    assert shown_value("abcde", 4) == "abc…"
    assert shown_value("a*cde", 4) == "a\\*c…"


def test_a_note_fills_the_common_words_with_the_links_value_allowed_and_default():
    page = PageState("demo_", PARAMS)
    assert page.note_text(Note("n", "12", "invalid", "1 … 9", "3"), "en") == (
        "The link's n = 12 can't be used (allowed: 1 … 9); the default 3 is shown instead."
    )
    assert page.note_text(Note("x", "*1*", "invalid", "0 … 1", "0.5"), "zh") == (
        "链接中的 x = \\*1\\* 无法使用（允许：0 … 1）；已改用默认值 0\\.5。"
    )
    assert page.note_text(Note("later", "z", "invalid", "p, q", ""), "en") == (
        "The link's later = z can't be used (allowed: p, q); the default — is shown instead."
    )
    assert page.note_text(Note("v", "0", "older_version", default="1.5"), "en") == (
        "This link was made with an earlier version of the app (numbers version 0; this server computes "
        "version 1.5): the numbers may differ from what the sender saw."
    )
    assert page.note_text(Note("utm_source", "x", "unknown"), "en") == (
        "The link has a setting this page does not know, “utm\\_source”: it was ignored."
    )


def test_a_note_shows_at_most_the_pages_own_number_of_characters_of_a_value():
    assert PageState("demo_", PARAMS).note_chars == 40
    page = PageState("demo_", PARAMS, note_chars=6)
    assert page.note_text(Note("n", "1234567", "invalid", "1 … 9", "3"), "en") == (
        "The link's n = 12345… can't be used (allowed: 1 … 9); the default 3 is shown instead."
    )


def test_a_page_may_have_its_own_words_for_a_reason_and_its_own_slots():
    explorer = PageState("ex_", PARAMS)
    assert explorer.note_text(Note("model", "gpt9", "model_missing", "h1, h2", "h2"), "en", fallback=4) == (
        "The link names the model gpt9, which is not here (there are: h1, h2); showing the shipped model, h = 4."
    )
    lesson = PageState("ls_", PARAMS)
    assert lesson.note_text(Note("step", "99", "invalid", "1 … 7", "1"), "en", total=7) == (
        "The link asks for step “99”, which is not a step of this lesson (1 to 7): starting at step 1."
    )
    assert PageState("demo_", PARAMS).note_text(Note("step", "99", "invalid", "1 … 7", "1"), "en", total=7) == (
        "The link's step = 99 can't be used (allowed: 1 … 7); the default 1 is shown instead."
    )


def test_a_page_keeps_its_parameters_and_finds_its_widgets_under_its_prefix():
    page = PageState("demo_", [COUNT, PICK], extra_widgets=["preset"])
    assert page.prefix == "demo_" and page.key("n") == "demo_n"
    assert page.params == (COUNT, PICK) and page.by_name == {"n": COUNT, "pick": PICK}
    assert page.extra_widgets == ("preset",)
    assert PageState("demo_", [COUNT]).extra_widgets == ()


# -- a page in Streamlit -------------------------------------------------------------------------
PAGE_PARAMS = (
    Param("n", "int", 3, 1, 9),
    Param("x", "float", 0.5, 0.0, 1.0),
    Param("pick", "choice", "a", choices=("a", "b")),
    Param("text", "text", "hi", max_chars=5000),
    Param("secret", "text", "", in_url=False),
    Param("later", "choice", None, choices=("p", "q"), optional=True),  # the page fills it in: "p"
)
RUN_TIMEOUT_S = 30
DEFAULT_URL = {"n": "3", "x": "0.5", "pick": "a", "text": "hi", "later": "p", "v": VERSION}


def demo_page(
    params,
    widgets=("n", "x", "pick", "text", "secret"),
    extra=(),
    late=(),
    looking=(),
    omit=(),
    override=None,
    lang="en",
    reread=False,
    prefix="demo_",
    fields=None,
    cap=None,
    fit_after=None,
):
    """A page as the app's pages are made: restore, draw the widgets, fit what a model allows
    (``cap``: the most ``n`` may be), settle, write the URL, show the notes. What each run saw
    is kept in the session for the test to read."""
    import streamlit as st

    from links.rules import limit
    from ui.page_state.state import PageState

    page = PageState(prefix, params, extra_widgets=extra)
    ss = st.session_state
    ss["runs"] = ss.get("runs", 0) + 1
    if ss.get("elsewhere"):  # the student is on another page: none of this page's widgets is drawn
        return
    ss["restarted"] = [*ss.get("restarted", []), page.restarted_under_the_page()]
    ss["left"] = [*ss.get("left", []), page.restore(late)]
    ss["read_first"] = [*ss.get("read_first", []), page.values()]  # before any widget is drawn
    if cap is not None:  # the model shown has at most ``cap`` of n: the box is fitted before it is drawn
        n, notes = limit("n", page.get("n"), 1, cap, 1)
        page.fit({"n": n}, notes)
    if "n" in widgets:
        page.number_input(st, "n", "Count", lang)
    if "x" in widgets:
        page.number_input(st, "x", "Share", lang, help_text="A share of the whole", step=0.05)
    if "pick" in widgets:
        st.selectbox("Pick", ("a", "b"), key=page.key("pick"))
    if "text" in widgets:
        st.text_input("Text", key=page.key("text"))
    if "secret" in widgets:
        st.text_input("Secret", key=page.key("secret"))
    for name in extra:
        st.selectbox(name, ("one", "two"), key=page.key(name))
    if page.get("later") is None:
        page.fit({"later": "p"})
    if fit_after:  # after the widgets are drawn
        page.fit(fit_after)
    ss["shown"] = values = page.values()
    page.settle(values, looking)
    ss["url"] = page.write_url(values, lang, omit, **(override or {}))
    page.show_notes(lang, **(fields or {}))
    if reread:
        page.reread_after_restart()


def probe_page(params, calls):
    """A run that calls PageState's methods in turn, ``(method, *args)``, and keeps what each returned."""
    import streamlit as st

    from ui.page_state.state import PageState

    page = PageState("demo_", params)
    st.session_state["results"] = [getattr(page, name)(*args) for name, *args in calls]


def open_demo(query: dict | None = None, **options) -> AppTest:
    at = AppTest.from_function(demo_page, kwargs={"params": PAGE_PARAMS, **options}, default_timeout=RUN_TIMEOUT_S)
    at.query_params.update(query or {})
    at.run()
    assert not at.exception, at.exception
    return at


def probe(*calls, state: dict | None = None) -> tuple[list, AppTest]:
    at = AppTest.from_function(
        probe_page, kwargs={"params": PAGE_PARAMS, "calls": calls}, default_timeout=RUN_TIMEOUT_S
    )
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    return at.session_state["results"], at


def restart_server(at: AppTest, **options) -> AppTest:
    """The page ``at`` shows, still open in the browser, on a server that has forgotten its
    session (a restart, an expired session): a new session whose first run carries every
    widget's value and the address bar's link. (AppTest sends a tree's widget values only to
    its own session; ``_run`` is what its ``run`` calls.)"""
    fresh = AppTest.from_function(demo_page, kwargs={"params": PAGE_PARAMS, **options}, default_timeout=RUN_TIMEOUT_S)
    fresh.query_params.update(at.query_params)
    fresh._run(at.main.root.get_widget_states())  # noqa: SLF001
    assert not fresh.exception, fresh.exception
    return fresh


def warnings(at: AppTest) -> list[tuple[str, str]]:
    return [(warning.value, warning.icon) for warning in at.warning]


def test_a_first_visit_shows_the_links_view_and_writes_it_back():
    at = open_demo({"n": "7", "x": "0.25", "pick": "b", "text": "a <b>", "later": "q", "v": VERSION})
    assert at.number_input(key="demo_n").value == 7 and at.number_input(key="demo_x").value == 0.25
    assert at.selectbox(key="demo_pick").value == "b" and at.text_input(key="demo_text").value == "a <b>"
    assert at.session_state["shown"] == {"n": 7, "x": 0.25, "pick": "b", "text": "a <b>", "secret": "", "later": "q"}
    assert at.query_params == {"n": "7", "x": "0.25", "pick": "b", "text": "a <b>", "later": "q", "v": VERSION}
    assert at.session_state["url"] == at.query_params
    assert warnings(at) == [] and at.session_state["restarted"] == [False] and at.session_state["left"] == [set()]


def test_without_a_link_the_page_shows_its_defaults_and_writes_them_all():
    at = open_demo()
    assert at.session_state["shown"] == {"n": 3, "x": 0.5, "pick": "a", "text": "hi", "secret": "", "later": "p"}
    assert at.query_params == {"n": "3", "x": "0.5", "pick": "a", "text": "hi", "later": "p", "v": VERSION}
    assert warnings(at) == []


def test_everything_a_page_keeps_in_the_session_is_under_its_prefix():
    at = open_demo()
    assert {key for key in at.session_state if key.startswith("demo_")} == {
        "demo_n",
        "demo_x",
        "demo_pick",
        "demo_text",
        "demo_secret",
        "demo_later",
        "demo_values",
        "demo_notes",
        "demo_from_link",
        "demo_from_browser",
        "demo_seen",
    }
    assert at.session_state["demo_values"] == at.session_state["shown"]
    at.number_input(key="demo_n").set_value(12).run()
    assert at.session_state["demo_clamped"] == {"n": 9}


def test_a_links_bad_values_fall_back_each_with_a_note_in_the_students_language():
    at = open_demo({"n": "12", "x": "nan", "pick": "c", "utm": "slides", "present": "1", "v": "0"}, lang="zh")
    assert at.session_state["shown"] == {"n": 3, "x": 0.5, "pick": "a", "text": "hi", "secret": "", "later": "p"}
    assert warnings(at) == [
        ("链接中的 n = 12 无法使用（允许：1 … 9）；已改用默认值 3。", ":material/link_off:"),
        ("链接中的 x = nan 无法使用（允许：0 … 1）；已改用默认值 0\\.5。", ":material/link_off:"),
        ("链接中的 pick = c 无法使用（允许：a, b）；已改用默认值 a。", ":material/link_off:"),
        ("链接里有本页不认识的设置“utm”，已忽略。", ":material/link_off:"),
        (
            "这个链接是用较早版本的应用生成的（数值版本 0；本服务器计算的是版本 1）：数值可能与发送者看到的不同。",
            ":material/history:",
        ),
    ]
    assert at.query_params == DEFAULT_URL | {"lang": "zh"}


def test_a_link_from_a_newer_server_is_noted_with_the_history_icon():
    at = open_demo({"v": str(NUMBERS_VERSION + 1)})
    assert warnings(at) == [
        (
            f"This link was made with a newer version of the app (numbers version {NUMBERS_VERSION + 1}) than this "
            f"server runs (version {NUMBERS_VERSION}): the numbers may differ from what the sender saw.",
            ":material/history:",
        )
    ]


def test_the_links_notes_stay_until_the_student_changes_the_view():
    at = open_demo({"n": "12"})
    note = ("The link's n = 12 can't be used (allowed: 1 … 9); the default 3 is shown instead.", ":material/link_off:")
    assert warnings(at) == [note]
    at.run()
    assert warnings(at) == [note], "a run that changes nothing keeps the notes"
    at.selectbox(key="demo_pick").set_value("b").run()
    assert warnings(at) == []
    assert at.session_state["demo_notes"] == []


def test_looking_at_another_part_of_the_view_keeps_the_links_notes():
    at = open_demo({"n": "12"}, looking=("pick",))
    at.selectbox(key="demo_pick").set_value("b").run()
    assert len(warnings(at)) == 1
    at.text_input(key="demo_text").input("new").run()
    assert warnings(at) == []


def test_a_value_the_page_fills_in_later_is_no_change_of_the_students():
    at = open_demo({"n": "12"})
    assert at.session_state["shown"]["later"] == "p" and len(warnings(at)) == 1
    at.session_state["demo_later"] = "q"  # the page, or the student, changes it afterwards: a change
    at.run()
    assert warnings(at) == []


def test_a_link_is_read_once_per_session_and_the_view_comes_back_after_another_page():
    at = open_demo({"n": "7"})
    at.number_input(key="demo_n").set_value(5).run()
    at.session_state["elsewhere"] = True
    at.query_params.clear()
    at.query_params["n"] = "8"  # another page's link: this page's view is the session's
    at.run()
    assert "demo_n" not in at.session_state, "Streamlit dropped the widgets of the page not shown"
    at.session_state["elsewhere"] = False
    at.run()
    assert at.number_input(key="demo_n").value == 5
    assert at.query_params == {"n": "5", "x": "0.5", "pick": "a", "text": "hi", "later": "p", "v": VERSION}


def test_after_a_server_restart_the_values_the_browser_sent_win_over_the_link():
    at = open_demo({"n": "7"})
    at.number_input(key="demo_n").set_value(6)  # the change that reaches the restarted server
    fresh = restart_server(at, reread=True)
    assert fresh.session_state["runs"] == 2, "one more run reads the widgets the browser filled"
    assert fresh.session_state["restarted"] == [True, False]
    assert fresh.session_state["left"] == [{"demo_n", "demo_x", "demo_pick", "demo_text", "demo_secret"}, set()]
    assert fresh.session_state["read_first"][0]["n"] == 7, "before drawing its widget, a page reads the link"
    assert fresh.session_state["read_first"][1]["n"] == 6
    assert fresh.number_input(key="demo_n").value == 6 and fresh.query_params["n"] == "6"


def test_without_a_second_read_the_restarted_page_runs_once():
    at = open_demo({"n": "7"})
    at.number_input(key="demo_n").set_value(6)
    fresh = restart_server(at)
    assert fresh.session_state["runs"] == 1 and fresh.number_input(key="demo_n").value == 6
    assert fresh.session_state["demo_from_browser"] == {"demo_n", "demo_x", "demo_pick", "demo_text", "demo_secret"}


def test_a_late_parameter_follows_the_link_after_a_restart():
    at = open_demo({"n": "7"}, late=("n",))
    at.number_input(key="demo_n").set_value(6)
    fresh = restart_server(at, late=("n",), reread=True)
    assert fresh.session_state["left"][0] == {"demo_x", "demo_pick", "demo_text", "demo_secret"}
    assert fresh.number_input(key="demo_n").value == 7


def test_a_pages_other_widgets_are_left_to_the_browser_after_a_restart_too():
    at = open_demo(widgets=(), extra=("preset",))
    at.selectbox(key="demo_preset").set_value("two")
    fresh = restart_server(at, widgets=(), extra=("preset",))
    assert fresh.session_state["restarted"] == [True]
    assert fresh.session_state["left"] == [{"demo_preset"}]
    assert fresh.selectbox(key="demo_preset").value == "two"


def test_a_restart_under_another_pages_widgets_is_not_this_pages():
    at = open_demo(widgets=(), extra=("preset",))
    fresh = restart_server(at, widgets=())  # the page no longer knows the preset box
    assert fresh.session_state["restarted"] == [False] and fresh.session_state["left"] == [set()]


def test_a_widget_holding_a_value_its_parameter_cannot_hold_gets_the_last_good_one_back():
    at = open_demo()
    at.text_input(key="demo_text").input("kept").run()
    at.session_state["demo_text"] = "x" * 5001  # a crafted client, or a stale label of a select box
    at.session_state["demo_n"] = 42
    at.run()
    assert at.text_input(key="demo_text").value == "kept" and at.number_input(key="demo_n").value == 3
    assert at.session_state["shown"]["text"] == "kept" and warnings(at) == []


def test_repair_gives_the_default_when_the_last_good_value_is_bad_too_and_skips_the_browsers():
    results, at = probe(("repair",), state={"demo_pick": "B", "demo_n": 42, "demo_values": {"pick": "zzz", "n": 5}})
    assert at.session_state["demo_pick"] == "a" and at.session_state["demo_n"] == 5
    assert at.session_state["demo_x"] == 0.5 and "demo_later" not in at.session_state, "an optional None is kept"
    _, at = probe(("repair", {"demo_pick"}), state={"demo_pick": "B", "demo_n": 42})
    assert at.session_state["demo_pick"] == "B" and at.session_state["demo_n"] == 3


def test_a_value_is_read_from_its_widget_else_the_last_good_else_the_default():
    results, _ = probe(
        ("get", "n"),
        ("get", "pick"),
        ("get", "x"),
        ("get", "later"),
        state={"demo_n": 4, "demo_pick": "B", "demo_values": {"pick": "b", "x": 7.0}},
    )
    assert results == [4, "b", 0.5, None]
    results, _ = probe(("values",), ("last_values",), state={"demo_n": 42, "demo_values": {"n": 8, "x": 0.75}})
    assert results == [{"n": 8, "x": 0.75, "pick": "a", "text": "hi", "secret": "", "later": None}, {"n": 8, "x": 0.75}]
    results, _ = probe(("last_values",))
    assert results == [{}]


def test_the_last_values_are_a_copy_and_remember_keeps_the_notes():
    note = Note("n", "12", "invalid", "1 … 9", "3")
    results, at = probe(("last_values",), ("remember", {"n": 4}), state={"demo_values": {"n": 8}, "demo_notes": [note]})
    results[0]["n"] = 1
    assert at.session_state["demo_values"] == {"n": 4} and at.session_state["demo_notes"] == [note]


def test_set_puts_a_value_into_its_widget():
    _, at = probe(("set", "n", 6))
    assert at.session_state["demo_n"] == 6


def test_fitted_values_go_into_their_widgets_and_their_notes_show_for_a_link():
    note = Note("n", "9", "invalid", "1 … 4", "4")
    _, at = probe(("fit", {"n": 4, "pick": "b"}, [note]), state={"demo_n": 9, "demo_pick": "b", "demo_from_link": True})
    assert at.session_state["demo_n"] == 4 and at.session_state["demo_pick"] == "b"
    assert at.session_state["demo_notes"] == [note]
    _, at = probe(("fit", {"n": 4}, [note]), state={"demo_n": 9, "demo_from_link": False})
    assert at.session_state["demo_n"] == 4 and "demo_notes" not in at.session_state
    _, at = probe(("fit", {"n": 4}, [note]), state={"demo_n": 9})
    assert "demo_notes" not in at.session_state


def test_a_fitted_value_leaves_a_widget_the_browser_fills_alone():
    _, at = probe(("fit", {"n": 4, "x": 0.25}), state={"demo_from_browser": {"demo_n"}})
    assert "demo_n" not in at.session_state and at.session_state["demo_x"] == 0.25


def test_notes_are_added_in_order_copied_out_and_cleared():
    first, second = Note("a", "1", "unknown"), Note("b", "2", "unknown")
    results, at = probe(("notes",), ("add_notes", [first]), ("add_notes", []), ("add_notes", [second]), ("notes",))
    assert results == [[], None, None, None, [first, second]]
    assert at.session_state["demo_notes"] == [first, second]
    results, at = probe(("add_notes", []), ("clear_notes",), ("notes",))
    assert at.session_state["demo_notes"] == [] and results[2] == []
    results, at = probe(("notes",), state={"demo_notes": [first]})
    results[0].append(second)
    assert at.session_state["demo_notes"] == [first]


def test_settle_remembers_the_view_and_ends_the_links_turn():
    note = Note("n", "12", "invalid", "1 … 9", "3")
    state = {"demo_notes": [note], "demo_values": {"n": 3}, "demo_from_link": True}
    _, at = probe(("settle", {"n": 5}), state=state)
    assert at.session_state["demo_notes"] == [note], "the run that read the link keeps its notes"
    assert at.session_state["demo_from_link"] is False and at.session_state["demo_values"] == {"n": 5}
    _, at = probe(("settle", {"n": 5}), state=state | {"demo_from_link": False})
    assert at.session_state["demo_notes"] == []
    _, at = probe(("settle", {"n": 3}), state=state | {"demo_from_link": False})
    assert at.session_state["demo_notes"] == [note]
    _, at = probe(("settle", {"n": 5}, ["n"]), state=state | {"demo_from_link": False})
    assert at.session_state["demo_notes"] == [note]
    _, at = probe(("settle", {"later": "p"}), state=state | {"demo_from_link": False, "demo_values": {"later": None}})
    assert at.session_state["demo_notes"] == [note], "an optional value the page fills in is no change"
    _, at = probe(("settle", {"pick": "b"}), state=state | {"demo_from_link": False, "demo_values": {}})
    assert at.session_state["demo_notes"] == [], "a value that was not there before is a change"


def test_a_first_settle_without_a_link_remembers_the_view():
    values = {"n": 5}
    _, at = probe(("settle", values))
    assert at.session_state["demo_values"] == {"n": 5} and at.session_state["demo_from_link"] is False
    assert at.session_state["demo_notes"] == []


def test_the_url_leaves_out_what_does_not_decide_the_view_and_takes_overrides():
    at = open_demo({"n": "7"}, omit=("x", "later"), override={"text": "cut", "extra": "1"})
    assert at.query_params == {"n": "7", "pick": "a", "text": "cut", "extra": "1", "v": VERSION}
    assert at.session_state["url"] == at.query_params


def test_a_text_too_long_for_a_link_is_left_out_of_it_with_a_note():
    text = "x" * (LINK_TEXT_CHARS + 1)
    at = open_demo({"text": text})
    assert at.text_input(key="demo_text").value == text
    assert at.query_params == {"n": "3", "x": "0.5", "pick": "a", "later": "p", "v": VERSION}
    assert [(info.value, info.icon) for info in at.info] == [
        (
            "This page's text is too long to share by link (4,001 characters; a link carries at most 4,000), so the "
            "link in the address bar leaves it out. To share it, send the text itself, or the page's download.",
            ":material/link_off:",
        )
    ]
    at = open_demo({"text": "x" * LINK_TEXT_CHARS})
    assert at.query_params["text"] == "x" * LINK_TEXT_CHARS and not at.info


def test_the_url_carries_the_language_and_presentation_mode_of_the_session():
    results, at = probe(("write_url", {"n": 4}), state={"language": "zh", "presenting": True})
    assert results == [{"n": "4", "v": VERSION, "lang": "zh", "present": "1"}]
    assert at.query_params == {"n": "4", "v": VERSION, "lang": "zh", "present": "1"}
    results, _ = probe(("write_url", {"n": 4}, "en"), state={"language": "zh"})
    assert results == [{"n": "4", "v": VERSION}]
    results, _ = probe(("write_url", {"n": 4}))
    assert results == [{"n": "4", "v": VERSION}]


def test_a_too_long_note_speaks_the_sessions_language():
    text = "x" * 12_345
    _, at = probe(("write_url", {"text": text}), state={"language": "zh"})
    assert at.info[0].value == (
        "本页的 text 太长，无法通过链接分享（12,345 个字符；链接最多容纳 4,000 个），所以地址栏里的链接不包含它。"
        "要分享它，请直接发送文本，或本页的下载文件。"
    )
    _, at = probe(("write_url", {"text": text}))
    assert at.info[0].value.startswith("This page's text is too long to share by link (12,345 characters;")


def test_a_number_typed_out_of_range_is_clamped_and_the_box_says_so():
    at = open_demo()
    at.number_input(key="demo_n").set_value(12).run()
    assert at.number_input(key="demo_n").value == 9 and at.session_state["shown"]["n"] == 9
    assert warnings(at) == [("Count must be 1–9; using 9.", ":material/straighten:")]
    at.run()
    assert warnings(at) == [("Count must be 1–9; using 9.", ":material/straighten:")], "until the number changes"
    at.number_input(key="demo_n").set_value(5).run()
    assert warnings(at) == [] and at.session_state["demo_clamped"] == {}


def test_a_float_box_says_its_bounds_and_the_value_used_in_the_links_words():
    at = open_demo(lang="zh")
    at.number_input(key="demo_x").set_value(-2.5).run()
    assert at.number_input(key="demo_x").value == 0.0
    assert warnings(at) == [("Share 必须在 0–1 之间；现在用 0。", ":material/straighten:")]


def test_a_box_clamped_then_changed_by_the_page_loses_its_note():
    at = open_demo()
    at.number_input(key="demo_n").set_value(12).run()
    at.session_state["demo_n"] = 4  # the page sets the box (a click on a chart): no typing, no callback
    at.run()
    assert warnings(at) == [] and at.session_state["demo_clamped"] == {}
    at.session_state["demo_n"] = 9
    at.run()
    assert warnings(at) == [], "the old note does not come back with the old value"


def test_a_number_typed_in_range_is_kept_as_typed():
    at = open_demo()
    at.number_input(key="demo_n").set_value(8).run()
    at.number_input(key="demo_x").set_value(0.75).run()
    assert at.session_state["shown"]["n"] == 8 and at.session_state["shown"]["x"] == 0.75
    assert warnings(at) == [] and at.session_state["demo_clamped"] == {}


def test_a_models_limit_moves_a_links_value_with_a_note_and_a_students_without():
    at = open_demo({"n": "7"}, cap=4)
    assert at.number_input(key="demo_n").value == 1 and at.query_params["n"] == "1"
    assert warnings(at) == [
        ("The link's n = 7 can't be used (allowed: 1 … 4); the default 1 is shown instead.", ":material/link_off:")
    ]
    at.run()
    assert len(warnings(at)) == 1, "the fitted value is no change of the student's"
    at.selectbox(key="demo_pick").set_value("b").run()
    assert warnings(at) == []
    at.number_input(key="demo_n").set_value(6).run()
    assert at.number_input(key="demo_n").value == 1 and warnings(at) == [], "a student's own value is fitted silently"


def test_fitting_a_drawn_widget_to_the_value_it_holds_leaves_it_alone():
    at = open_demo({"n": "7"}, fit_after={"n": 7, "later": "p"})  # Streamlit refuses a change to a drawn widget
    assert at.number_input(key="demo_n").value == 7


def test_a_pages_own_note_is_shown_with_the_pages_own_slots():
    at = open_demo({"n": "12"}, prefix="ls_", fields={"total": 9})
    assert warnings(at) == [
        (
            "The link asks for step “12”, which is not a step of this lesson (1 to 9): starting at step 1.",
            ":material/link_off:",
        )
    ]


def test_a_second_read_is_asked_only_after_a_restart():
    results, at = probe(("reread_after_restart",))
    assert results == [None]
    at = open_demo(reread=True)
    assert at.session_state["runs"] == 1


def test_a_bad_widget_value_without_last_values_reads_as_the_default():
    results, _ = probe(("get", "n"), ("get", "pick"), state={"demo_n": 42, "demo_pick": "B"})
    assert results == [3, "a"]


def test_a_number_typed_in_range_ends_its_boxs_clamp_and_one_out_of_range_starts_it():
    _, at = probe(("_clamp", "n"), state={"demo_n": 9, "demo_clamped": {"n": 9, "x": 1.0}})
    assert at.session_state["demo_clamped"] == {"x": 1.0} and at.session_state["demo_n"] == 9
    _, at = probe(("_clamp", "x"), state={"demo_x": 7.5})
    assert at.session_state["demo_clamped"] == {"x": 1.0} and at.session_state["demo_x"] == 1.0


def test_a_number_box_has_its_label_its_step_and_its_help():
    at = open_demo()
    count, share = at.number_input(key="demo_n"), at.number_input(key="demo_x")
    assert (count.label, count.step, count.help) == ("Count", 1, "")
    assert (share.label, share.step, share.help) == ("Share", 0.05, "A share of the whole")
