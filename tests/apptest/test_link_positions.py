"""A link's `row=` (or `col=`) past the end of its text, as when the link was made for a
longer one: the page shows the text's last token there, keeps it in the link, and a note
says which positions the text has and which one is shown, in both languages (before: the
explorer fell back to its default, "-1", with a note naming that default; the playground
moved it without a word)."""

from __future__ import annotations

import pytest

from string_table import t

from .conftest import open_page

TEXT = "the cat sat on the mat"  # 22 characters: positions 0 … 21
PROMPT = "first citizen"  # 13 characters the shipped models know: positions 0 … 12


def _said(at, lang: str, name: str, value: int, tokens: int) -> bool:
    note = t("note.past_text", lang, name=name, value=str(value), allowed=f"0 … {tokens - 1}", default=str(tokens - 1))
    return note in [w.value for w in at.warning]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", ["row", "col"])
def test_the_playground_shows_the_last_token_for_a_position_past_the_text(lang, name):
    at = open_page("pages/1_playground.py", text=TEXT, tok="char", lang=lang, **{name: "100"})
    assert not at.exception, at.exception
    assert at.query_params[name] == str(len(TEXT) - 1), "the link carries the position shown"
    assert _said(at, lang, name, 100, len(TEXT)), [w.value for w in at.warning]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_explorer_shows_the_last_token_for_a_row_past_the_text(lang):
    at = open_page("pages/4_explorer.py", model="h4", prompt=PROMPT, row="400", lang=lang)
    assert not at.exception, at.exception
    assert at.query_params["row"] == str(len(PROMPT) - 1)
    assert _said(at, lang, "row", 400, len(PROMPT)), [w.value for w in at.warning]
