"""The figures' words in the chosen language: every key the figures read
(``figures.FIGURE_WORDS``) filled from the string table by one function. Figures know no
language and no table; a label is changed in ``string_table/`` alone."""

from __future__ import annotations

from functools import cache

from figures import FIGURE_WORDS, Words

from . import t


@cache
def figure_words(lang: str) -> Words:
    """Every figure word in ``lang`` (templates keep their ``{fields}`` for the figure)."""
    return Words({key: t(key, lang) for key in FIGURE_WORDS})
