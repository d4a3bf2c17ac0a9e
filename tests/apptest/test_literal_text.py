"""Markdown and HTML typed into any text box or upload are shown literally: no element of
the page renders them (Markdown elements hold them escaped, charts hold them as entities)."""

from __future__ import annotations

import json

import pytest

from tests.apptest.conftest import open_page
from tests.apptest.test_train import train_quickly

MARKUP = "<b>x</b> **y** [z](http://e.example) <img src=x onerror=alert(1)>"
RAW_PIECES = ("<b>", "**y**", "](http", "<img")


def rendered_markdown(at) -> list[str]:
    """The source of every element the page renders as Markdown."""
    kinds = ("markdown", "caption", "warning", "error", "info", "success")
    return [element.value for kind in kinds for element in at.get(kind)]


def assert_literal(at) -> None:
    for source in rendered_markdown(at):
        for piece in RAW_PIECES:
            assert piece not in source, f"{piece!r} reaches Markdown unescaped in {source!r}"


def test_markup_in_the_playground_text_and_link_is_shown_literally():
    at = open_page("pages/1_playground.py", text=MARKUP, tok="word", heads="2", bogus=MARKUP)
    assert not at.exception
    assert_literal(at)
    for chart in at.get("plotly_chart"):
        spec = chart.proto.spec
        assert "<b>x" not in spec and "<img" not in spec
    labels = json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]["x"]
    assert any("&lt;" in label for label in labels), "a < token is drawn as an entity"


def test_markup_in_the_prompt_and_an_uploaded_corpus_is_shown_literally(steady_training):
    at = open_page("pages/3_train.py")
    upload = (MARKUP + " the quick brown fox jumps over the lazy dog.\n").encode() * 40
    at.radio(key="tr_corpus").set_value("own").run()
    at.get("file_uploader")[0].set_value(("markup.txt", upload, "text/plain")).run()
    train_quickly(at, corpus="own", steps=10)
    assert at.session_state["tr_model"].corpus == "own"
    at.text_area(key="tr_prompt").input("ROMEO: " + MARKUP + " `code` # ~~").run()
    at.button(key="tr_generate").click().run()
    assert not at.exception
    assert_literal(at)
    assert any("Left out of the prompt" in caption.value for caption in at.caption)


# --- Streamlit's own Markdown extensions and GFM's autolinks, in every place user text is quoted
from tests.markup import MARKDOWN_TRAPS, shown_forms, unbroken_patterns, unescaped_specials  # noqa: E402

ALL_TRAPS = " ".join(MARKDOWN_TRAPS)
NUMBER_PARAMS = ("heads", "head_dim", "input_dim", "seed", "dropout", "block", "head", "row", "col")
EXPLORER_NUMBERS = ("block", "head", "token", "step", "n", "temp", "seed")


def assert_no_raw_trap(at, *more: str) -> list[str]:
    """Wherever a trap (or one of ``more``) appears in a Markdown element, escaped or not,
    every special character of it is escaped and its autolink or icon pattern is broken
    (checked by tests/markup.py's scanner, not by ui.markdown.literal); returns the sources."""
    sources = rendered_markdown(at)
    for source in sources:
        for trap in (*MARKDOWN_TRAPS, *more):
            for shown in shown_forms(trap, source):
                assert unescaped_specials(shown) == [], f"{trap!r} reaches Markdown unescaped: {source!r}"
                assert unbroken_patterns(shown) == [], f"{trap!r} reaches Markdown as a link or icon: {source!r}"
    return sources


def _quoted(sources: list[str], trap: str) -> bool:
    """Whether ``trap`` is quoted, fully escaped, in one of ``sources``."""
    return any(
        not unescaped_specials(shown) and not unbroken_patterns(shown)
        for source in sources
        for shown in shown_forms(trap, source)
    )


def test_link_notes_of_the_playground_quote_names_and_values_literally():
    query = {trap: "1" for trap in MARKDOWN_TRAPS}
    query.update(dict(zip(NUMBER_PARAMS, MARKDOWN_TRAPS, strict=False)))
    at = open_page("pages/1_playground.py", **query)
    assert not at.exception
    sources = assert_no_raw_trap(at)
    missing = [trap for trap in MARKDOWN_TRAPS if not _quoted(sources, trap)]
    assert not missing, f"each trap is quoted in a note as a name or a value: {missing}"


def test_characters_a_trained_model_cannot_read_are_listed_literally():
    at = open_page("pages/1_playground.py", weights="h4", text="ROMEO " + ALL_TRAPS)
    assert not at.exception
    sources = assert_no_raw_trap(at)
    # Tiny Shakespeare has no < [ @ (it has $ & : . ! -): these are left out, and listed.
    assert any(all(f"\\{char}" in source for char in "<[") and "@" in source for source in at_warnings(at)), sources


def at_warnings(at) -> list[str]:
    return [element.value for element in at.warning]


def test_link_notes_and_left_out_characters_of_the_explorer_are_literal():
    query = {trap: "1" for trap in MARKDOWN_TRAPS[:6]}
    query.update(dict(zip(EXPLORER_NUMBERS, MARKDOWN_TRAPS[6:], strict=False)))
    query.update(model="www.example.org", prompt="ROMEO " + ALL_TRAPS)
    at = open_page("pages/4_explorer.py", **query)
    assert not at.exception
    sources = assert_no_raw_trap(at)
    for trap in (*MARKDOWN_TRAPS[:6], *MARKDOWN_TRAPS[6 : 6 + len(EXPLORER_NUMBERS)], "www.example.org"):
        assert _quoted(sources, trap), trap
    assert any("\\[" in source and "\\<" in source for source in at_warnings(at)), "the left-out characters"


@pytest.mark.parametrize("trap", MARKDOWN_TRAPS)
def test_a_lesson_link_with_an_odd_step_quotes_it_literally(trap):
    at = open_page("pages/2_lesson.py", step=trap)
    assert not at.exception
    sources = assert_no_raw_trap(at, trap[:20])
    assert _quoted(sources, trap[:20])


def test_characters_left_out_of_a_generation_prompt_are_literal():
    at = open_page("pages/3_train.py")
    at.text_area(key="tr_prompt").input("ROMEO " + ALL_TRAPS).run()
    at.button(key="tr_generate").click().run()
    assert not at.exception
    assert_no_raw_trap(at)
    assert any("\\[" in caption.value and "\\<" in caption.value for caption in at.caption)
