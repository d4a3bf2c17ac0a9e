"""User text inside Markdown, shown literally: no links, images, HTML or emphasis."""

from __future__ import annotations

MARKDOWN_SPECIALS = "\\`*_{}[]()<>#+-.!|~$:"


def literal(text: str) -> str:
    """``text`` with every Markdown special character escaped and newlines as spaces."""
    return "".join("\\" + char if char in MARKDOWN_SPECIALS else char for char in text.replace("\n", " "))
