"""ui.markdown.literal: user text inside Markdown stays text (the browser test
tests/browser/test_markdown_rendering.py shows that Streamlit renders these forms as text)."""

from __future__ import annotations

import pytest

from tests.markup import ESCAPED, MARKDOWN_TRAPS, WORD_JOINER, unbroken_patterns, unescaped_specials
from ui.markdown import literal


@pytest.mark.parametrize("trap", MARKDOWN_TRAPS)
def test_every_special_of_a_trap_is_escaped(trap):
    """Scanned against the hand-written list of tests/markup.py, not ui.markdown's own."""
    shown = literal(trap)
    assert unescaped_specials(shown) == [], shown
    assert unbroken_patterns(shown) == [], shown
    assert shown.replace("\\", "").replace(WORD_JOINER, "") == trap, "nothing but escapes and joiners is added"


def test_every_special_character_is_escaped_and_nothing_else():
    """The hand-written list of tests/markup.py, not the module's own: a special left out of
    ui.markdown would otherwise be left out of the test too."""
    for char in ESCAPED:
        assert literal(char) == "\\" + char, char
    others = [chr(code) for code in range(32, 127) if chr(code) not in ESCAPED and chr(code) != "@"]
    assert [char for char in others if literal(char) != char] == [], "no other ASCII character is escaped"
    assert literal("@") == WORD_JOINER + "@", "@ is not escaped: an invisible joiner breaks the e-mail autolink"
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
