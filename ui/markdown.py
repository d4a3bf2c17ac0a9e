"""User text inside Markdown, shown literally: no links, images, HTML, emphasis, LaTeX,
colours, icons or autolinks."""

from __future__ import annotations

import re

MARKDOWN_SPECIALS = "\\`*_{}[]()<>#+-.!|~$:&"
# Invisible, and breaks a pattern that Markdown would turn into something other than text.
WORD_JOINER = "\u2060"
# Streamlit's Markdown finds these in the text after the escapes are resolved, so escaping
# is not enough: a word joiner is put inside each. GFM's autolinks (www., http://,
# https://, ftp://, an e-mail address) and Streamlit's Material icons (:material/name:).
_BROKEN_PATTERNS = (
    (re.compile(r"(?i)\b(www)(\.)"), rf"\1{WORD_JOINER}\2"),
    (re.compile(r"(?i)\b(https?|ftp|mailto|xmpp)(:)"), rf"\1{WORD_JOINER}\2"),
    (re.compile(r"@"), f"{WORD_JOINER}@"),
    (re.compile(r"(?i):(material/)"), rf":{WORD_JOINER}\1"),
)
# Each special character behind a backslash, a newline as a space: one pass (a chart's text
# alternative is a few thousand characters, every rerun).
_ESCAPED = str.maketrans({**{char: "\\" + char for char in MARKDOWN_SPECIALS}, "\n": " "})


def literal(text: str) -> str:
    """``text`` with every Markdown special character escaped, the patterns Streamlit would
    render anyway (autolinks, Material icons) broken by an invisible word joiner, and
    newlines as spaces."""
    for pattern, replacement in _BROKEN_PATTERNS:
        text = pattern.sub(replacement, text)
    return text.translate(_ESCAPED)
