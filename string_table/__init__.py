"""Every user-facing string of the app, in English and Chinese: one table, kept in one
module per page (plus the shared words and gpt_core's error messages).

Adding a language is adding a column. ``t(key, lang, **params)`` formats a string;
``error_text(error, lang)`` shows a ``gpt_core.InputError`` in the chosen language.
"""

from __future__ import annotations

from typing import Any

from . import (
    combined,
    common,
    compare,
    errors,
    explorer,
    export,
    learner_sources,
    lesson,
    odds,
    page,
    playground,
    room,
    room_record,
    token_question,
    token_view,
    train,
)

LANGUAGES: dict[str, str] = {"en": "English", "zh": "中文"}
DEFAULT_LANGUAGE = "en"


def _merge(*tables: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for table in tables:
        repeated = merged.keys() & table.keys()
        if repeated:
            raise ValueError(f"string keys defined twice: {sorted(repeated)}")
        merged.update(table)
    return merged


STRINGS: dict[str, dict[str, str]] = _merge(
    common.STRINGS,
    playground.STRINGS,
    train.STRINGS,
    lesson.STRINGS,
    explorer.STRINGS,
    errors.STRINGS,
    compare.STRINGS,
    odds.STRINGS,
    combined.STRINGS,
    token_view.STRINGS,
    export.STRINGS,
    page.STRINGS,
    room.STRINGS,
    room_record.STRINGS,
    learner_sources.STRINGS,
    token_question.STRINGS,
)


def t(key: str, lang: str = DEFAULT_LANGUAGE, **params: Any) -> str:
    """The string ``key`` in ``lang`` (English when missing), formatted with ``params``."""
    entry = STRINGS[key]
    template = entry.get(lang) or entry[DEFAULT_LANGUAGE]
    return template.format(**params) if params else template


def has_text(key: str) -> bool:
    """Whether the table has a string ``key`` (a page's own variant of a common string)."""
    return key in STRINGS


def error_text(error: Exception, lang: str = DEFAULT_LANGUAGE) -> str:
    """A gpt_core InputError in ``lang``; its own English message otherwise."""
    code = getattr(error, "code", None)
    entry = STRINGS.get(f"error.{code}", {})
    if lang in entry:
        return entry[lang].format(**getattr(error, "params", {}))
    return str(error)
