"""Token labels made safe for Plotly, which parses <b>, <a href>, <span style> in labels."""

from __future__ import annotations

import html

from gpt_core.tokens import position_label

MAX_LABEL_CHARS = 12  # longer word tokens are shortened on the axes (hover keeps position)


def plotly_safe(text: str) -> str:
    """Escape ``text`` so Plotly shows it literally (it renders entities back to characters)."""
    return html.escape(text, quote=True)


def shorten(label: str, limit: int = MAX_LABEL_CHARS) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"


def axis_labels(labels: list[str]) -> list[str]:
    """Unique, escaped axis categories: ``"3 · a"``. The position keeps repeated tokens apart
    (a category axis would merge two "a"s into one row)."""
    return [plotly_safe(position_label(position, shorten(label))) for position, label in enumerate(labels)]


def two_lines(text: str, longest: int) -> str:
    """``text`` (already escaped) on two lines, broken at the space nearest its middle, when
    it is longer than ``longest`` characters and has a space; else as it is."""
    if len(text) <= longest or " " not in text:
        return text
    middle = len(text) / 2
    cut = min((i for i, char in enumerate(text) if char == " "), key=lambda i: abs(i - middle))
    return f"{text[:cut]}<br>{text[cut + 1 :]}"
