"""ui.markdown.literal: user text inside Markdown stays text (the browser test
tests/browser/test_markdown_rendering.py shows that Streamlit renders these forms as text)."""

from __future__ import annotations

import pytest

from tests.markup import MARKDOWN_TRAPS
from ui.markdown import MARKDOWN_SPECIALS, WORD_JOINER, literal


def _unescaped_specials(shown: str) -> list[str]:
    found, index = [], 0
    while index < len(shown):
        if shown[index] == "\\":
            assert index + 1 < len(shown) and shown[index + 1] in MARKDOWN_SPECIALS, "a backslash escapes a special"
            index += 2
            continue
        if shown[index] in MARKDOWN_SPECIALS:
            found.append(shown[index])
        index += 1
    return found


@pytest.mark.parametrize("trap", MARKDOWN_TRAPS)
def test_every_special_of_a_trap_is_escaped(trap):
    shown = literal(trap)
    assert _unescaped_specials(shown) == [], shown
    assert shown.replace("\\", "").replace(WORD_JOINER, "") == trap, "nothing but escapes and joiners is added"


def test_every_special_character_is_escaped_and_nothing_else():
    for char in MARKDOWN_SPECIALS:
        assert literal(char) == "\\" + char
    assert literal("abc 动手 7") == "abc 动手 7"
    assert literal("a\nb") == "a b", "one line: a newline would start a new Markdown block"


@pytest.mark.parametrize(
    ("text", "broken"),
    [
        ("www.example.org", "www" + WORD_JOINER + "\\."),
        ("WWW.EXAMPLE.ORG", "WWW" + WORD_JOINER + "\\."),
        ("http://x.org", "http" + WORD_JOINER + "\\:"),
        ("HTTPS://x.org", "HTTPS" + WORD_JOINER + "\\:"),
        ("mailto:a@b.cd", "mailto" + WORD_JOINER + "\\:"),
        ("a.b@c.de", "b" + WORD_JOINER + "@"),
        (":material/home:", "\\:" + WORD_JOINER + "material/"),
        (":Material/home:", "\\:" + WORD_JOINER + "Material/"),
    ],
)
def test_patterns_found_after_escaping_are_broken_by_an_invisible_joiner(text, broken):
    assert broken in literal(text)


def test_words_that_only_look_like_patterns_are_left_alone():
    assert WORD_JOINER not in literal("awww. shttp: material")
