"""What a source says of the text it read, for every page that shows a trace: what it did
not read (characters left out, a text cut) as warnings above the first chart; how it reads
(its remarks), what the model fixes and how its query heads share key/value heads under
it, so that a long text's first screen holds the chart (a real model's facts and remarks
would push it below the screen). A page places the two where its first chart stands."""

from __future__ import annotations

import streamlit as st

from gpt_core.source import AttentionSource, Note

from ..shared import sources


def warnings(notes: list[Note], lang: str) -> None:
    """The source's warnings: what it did not read of the text. Above the first chart."""
    sources.show_notes([note for note in notes if note.level == "warning"], lang)


def facts(source: AttentionSource, lang: str) -> None:
    """What the model fixes, in the book's letters, and its grouped-query attention where it
    has it (nothing for a source whose settings say it all)."""
    line = sources.facts(source, lang)
    if line:
        st.markdown(line)
    gqa = sources.gqa_note(source, lang)
    if gqa:
        st.caption(gqa)


def remarks(notes: list[Note], lang: str) -> None:
    """The source's other notes: how it reads the text. Under the first chart."""
    sources.show_notes([note for note in notes if note.level != "warning"], lang)


def below(source: AttentionSource, notes: list[Note], lang: str) -> None:
    """Everything under the first chart: the remarks, then the facts."""
    remarks(notes, lang)
    facts(source, lang)
