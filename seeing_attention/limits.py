"""How big a page is before it is written, and so how many tokens it may hold.

A page holds Plotly's script once, then every cell of every head of every stage as base64
float32: its size grows with T², and is known from the heads, the tokens and the layers
alone. ``PAGE_LIMIT_BYTES`` is the largest page written; ``most_tokens`` the longest text
that fits in it."""

from __future__ import annotations

import math
from functools import cache

from gpt_core import STAGES
from gpt_core.playground import MAX_TOKENS

# A page's own style, script, words, token list and shapes (about 18 kB for 100 tokens).
PAGE_OVERHEAD_BYTES = 20_000
# The largest page written: a browser opens and draws it in seconds, and it still goes by
# e-mail or on a course site (a 4-head page of 512 tokens is about 27 MB).
PAGE_LIMIT_BYTES = 50_000_000
DEFAULT_TOKENS = MAX_TOKENS  # the tokens of a text a page holds unless asked for more


def plotly_js() -> str:
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()


@cache
def plotly_js_bytes() -> int:
    return len(plotly_js().encode("utf-8"))


def page_bytes(heads: int, tokens: int, stages: int = len(STAGES), layers: int = 1) -> int:
    """About how many bytes a page holds: Plotly's script, then each stage of each layer, its
    heads' T × T float32 numbers in base64, and the page's own part. Said before a download:
    a long text's page holds every cell of every head."""
    numbers = layers * stages * 4 * math.ceil(heads * tokens * tokens * 4 / 3)
    return plotly_js_bytes() + numbers + PAGE_OVERHEAD_BYTES


def most_tokens(heads: int, layers: int = 1) -> int:
    """The most tokens a page of ``heads`` heads and ``layers`` layers holds within
    ``PAGE_LIMIT_BYTES`` (at least 1)."""
    tokens = 1
    while page_bytes(heads, tokens * 2, layers=layers) <= PAGE_LIMIT_BYTES:
        tokens *= 2
    step = tokens // 2
    while step:  # the largest T that fits, between tokens and 2 × tokens
        if page_bytes(heads, tokens + step, layers=layers) <= PAGE_LIMIT_BYTES:
            tokens += step
        step //= 2
    return tokens
