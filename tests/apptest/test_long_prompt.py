"""A text longer than the explorer's box once took (2,000 characters), in a link: the explorer
reads it as the playground does, cut to the model's context with the playground's very note,
and never swaps in its default prompt."""

from __future__ import annotations

import pytest

from string_table import t
from ui.shared import sources

from .conftest import open_page

# 2,500 characters the shipped models know (Tiny Shakespeare's lower-case letters and spaces).
TEXT = ("first citizen before we proceed any further hear me speak " * 50)[:2_500]


def _cut_notes(at) -> list[str]:
    return [w.value for w in at.warning if "content_cut" in (w.proto.icon or "")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_explorer_cuts_a_long_prompt_with_the_playgrounds_note(lang):
    lang_query = {"lang": lang} if lang != "en" else {}
    explorer = open_page("pages/4_explorer.py", model="h4", prompt=TEXT, **lang_query)
    playground = open_page("pages/1_playground.py", weights="h4", text=TEXT, **lang_query)
    assert not explorer.exception and not playground.exception
    shown = [w.value for w in explorer.warning]
    refused = t("note.invalid", lang, name="prompt", value="", allowed="", default="").split("prompt")[0]
    assert not any(note.startswith(refused) for note in shown), f"the prompt was refused: {shown}"
    assert explorer.text_area(key="ex_prompt").value == TEXT, "the student's text stays, not the default"
    notes = _cut_notes(explorer)
    assert len(notes) == 1 and notes == _cut_notes(playground), (notes, _cut_notes(playground))
    context = sources.load("h4", lang).description.context  # the characters the model was trained on at once
    assert 0 < context < len(TEXT) and notes[0] == t("context_cut", lang, context=context, cut=len(TEXT) - context)
