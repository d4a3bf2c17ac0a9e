"""User text that Markdown, Streamlit's Markdown extensions or Plotly would turn into
something other than text: every place user text reaches the page is tested with these."""

from __future__ import annotations

import re

# Each is shown literally only if ui.markdown.literal handles it: HTML, Markdown links and
# emphasis, Streamlit's LaTeX, coloured text, Material icons and emoji shortcodes, GFM's
# autolinks (www., http(s)://, e-mail), HTML entities.
MARKDOWN_TRAPS: tuple[str, ...] = (
    "<b>x</b>",
    "**y**",
    "[z](http://e.example)",
    "[a](javascript:alert(1))",
    "$x^2$",
    "$$y$$",
    ":red[red]",
    ":blue-background[z]",
    ":material/home:",
    ":smile:",
    "www.example.org",
    "https://e.example/x",
    "ada@example.org",
    "&amp;",
    "~~s~~",
)

# What must reach Markdown escaped, written here by hand (not taken from ui.markdown, the code
# under test): CommonMark's link, image, emphasis, code, HTML, heading, table and
# strikethrough characters, and what Streamlit's Markdown adds: $ for LaTeX, : for colours and
# icons, {} ; then the backslash itself, list and heading markers + - . and & for entities.
ESCAPED = "$:[]()*_~`<>#|!{}" + "\\+-.&"
WORD_JOINER = "\u2060"  # invisible: put inside a pattern Markdown would find after the escapes
# Patterns Streamlit's Markdown finds after the escapes are resolved (GFM's autolinks, Material
# icons): in user text, each must be broken by a word joiner.
UNBROKEN_PATTERNS = (
    re.compile(r"(?i)\bwww\."),
    re.compile(r"(?i)\b(?:https?|ftp|mailto|xmpp):"),
    re.compile(rf"(?<!{WORD_JOINER})@"),
    re.compile(r"(?i):material/"),
)


def unescaped_specials(shown: str) -> list[str]:
    """The characters of ESCAPED in ``shown`` that no backslash escapes (a backslash that
    escapes nothing of ESCAPED counts as one)."""
    found, index = [], 0
    while index < len(shown):
        if shown[index] == "\\" and index + 1 < len(shown) and shown[index + 1] in ESCAPED:
            index += 2
            continue
        if shown[index] in ESCAPED:
            found.append(shown[index])
        index += 1
    return found


def unbroken_patterns(shown: str) -> list[str]:
    """The autolink and icon patterns that ``shown`` still holds once its escapes are resolved."""
    resolved = re.sub(r"\\(.)", r"\1", shown)
    return [match.group() for pattern in UNBROKEN_PATTERNS for match in pattern.finditer(resolved)]


def shown_forms(text: str, source: str) -> list[str]:
    """Every place ``text`` appears in ``source`` as it is, escaped or half-escaped, with or
    without word joiners: each of them must be the literal form."""
    parts = [(r"\\?" if char in ESCAPED else "") + re.escape(char) for char in text]
    pattern = f"{WORD_JOINER}?".join(parts)
    return [match.group() for match in re.finditer(pattern, source)]
