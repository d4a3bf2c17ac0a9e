"""The explorer's view as URL query parameters: parse, validate against the model shown,
write back.

Pure Python (no Streamlit), so every rule is unit-tested. Parsing happens in two steps:
``parse_query`` checks each value's type and range on its own; ``fit_to_model`` then checks
what depends on the model (its name, blocks, heads, the prompt's length, the snapshots'
steps). A value that can't be used falls back visibly: a ``Note`` the page shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gpt_core.playground import MAX_SEED

from . import rules
from .rules import Note, Param

FALLBACK_MODEL = "h4"  # the model a link opens by default (the book's 4 heads)
METRICS = ("previous", "first", "self", "induction", "entropy")
LINE_MODES = ("head", "block")  # the lines of the chosen head, or of every head of its block
ALL_TOKENS = -1  # "token": every query's lines (the token view: the last token)
LAST_ROW = -1  # "row": the last query, the one that reads every key
FIRST_KEY = -1  # "col": chosen with the row (gpt_core.window.first_key: a long text's diagonal)
TOKEN_DIRECTIONS = ("reads", "read_by", "both")
MAX_MODEL_CHARS = 200  # a Hugging Face id (owner/name) or a folder's name
# The models read at most their context; the box and a link take a long paste whole, as the
# playground's do (a browser drops a paste over the box's limit without a word), and the page
# cuts it to the context with the playground's note.
MAX_PROMPT_CHARS = 200_000
MAX_BLOCKS = 64
MAX_HEADS = 64
MAX_STEP = 1_000_000
MAX_TOKEN = 4_096
MAX_GENERATE = 40
MAX_TEMPERATURE = 2.0
MAX_TOP_K = 1_000_000  # 0: top-k off; above the model's vocabulary it keeps every token
MIN_TOP_P = 0.05
# The cache view (view=cache): a short generation stepped through, greedy unless the
# generation's temperature says otherwise. Its step is its own parameter, ``cache_step`` (0:
# the prompt's last query), not ``step``: ``step`` names a training snapshot and is moved to
# one of the snapshots' steps, so one name for both would change what old links show.
CACHE_N = 8
MAX_CACHE_N = 16
COMBINE_KINDS = ("mean", "rollout")  # the combined view: the chosen block's mean over heads, or rollout
# The views below the grid, one open at a time (ui/lazy_tabs.py): the link says which.
VIEWS = ("detail", "lines", "metrics", "training", "generate", "odds", "token", "combined", "cache")

PARAMS: tuple[Param, ...] = (
    Param("model", "text", FALLBACK_MODEL, max_chars=MAX_MODEL_CHARS),
    Param("prompt", "text", None, max_chars=MAX_PROMPT_CHARS, optional=True),  # None: the model's own prompt
    Param("block", "int", 1, 1, MAX_BLOCKS),  # 1-based
    Param("head", "int", 1, 1, MAX_HEADS),  # 1-based
    Param("token", "int", ALL_TOKENS, ALL_TOKENS, MAX_TOKEN),  # the lines view's query
    Param("row", "int", LAST_ROW, LAST_ROW, MAX_TOKEN),  # a long text: the window's query (gpt_core.window)
    Param("col", "int", FIRST_KEY, FIRST_KEY, MAX_TOKEN),  # and its key
    Param("lines", "choice", "head", choices=LINE_MODES),
    Param("metric", "choice", "previous", choices=METRICS),
    Param("step", "int", None, 0, MAX_STEP, optional=True),  # a snapshot's training step; None: the last
    Param("n", "int", 20, 1, MAX_GENERATE),
    Param("temp", "float", 0.0, 0.0, MAX_TEMPERATURE),
    Param("seed", "int", 0, 0, MAX_SEED),
    Param("odds_temp", "float", 1.0, 0.0, MAX_TEMPERATURE),  # the next-token odds' own controls
    Param("top_k", "int", 0, 0, MAX_TOP_K),
    Param("top_p", "float", 1.0, MIN_TOP_P, 1.0),
    Param("sample_seed", "int", 0, 0, MAX_SEED),
    Param("combine", "choice", "mean", choices=COMBINE_KINDS),
    Param("token_dir", "choice", "both", choices=TOKEN_DIRECTIONS),  # the token view: the row, column or both
    Param("cache_n", "int", CACHE_N, 1, MAX_CACHE_N),  # the cache view: tokens generated
    Param("cache_step", "int", 0, 0, MAX_CACHE_N - 1),  # and the step shown (0-based)
    Param("view", "choice", VIEWS[0], choices=VIEWS),  # the open tab below the grid
)
PARAMS_BY_NAME = {param.name: param for param in PARAMS}


@dataclass(frozen=True)
class ModelShape:
    """What the model shown allows."""

    keys: tuple[str, ...]  # the models there are here
    blocks: int
    heads: int
    tokens: int  # T: the characters the model read of the prompt
    steps: tuple[int, ...]  # the snapshots' training steps (none for a session's model)


def defaults() -> dict[str, Any]:
    return rules.defaults(PARAMS)


def parse_query(query: Mapping[str, str | list[str]]) -> tuple[dict[str, Any], list[Note]]:
    """Values for every parameter from a query string (type and range checked), and notes
    about what was not used."""
    return rules.parse_query(PARAMS, query)


def resolve_model(key: str, available: Sequence[str], fallback: str, reason: str) -> tuple[str, list[Note]]:
    """The model to show for ``key``: itself when it is here, else ``fallback``, with a note
    that gives the ``reason`` (ui/shared/sources.py's ``missing_reason``: another session's
    model, or no such model here)."""
    if key in available:
        return key, []
    return fallback, [Note("model", key, reason, ", ".join(available), fallback)]


def fit_to_model(values: Mapping[str, Any], shape: ModelShape) -> tuple[dict[str, Any], list[Note]]:
    """``values`` with block, head, token, row, col and step inside what the model shown allows,
    and the cache view's step inside its generation; each one moved says so in a note."""
    fitted = dict(values)
    notes: list[Note] = []
    for name, count in (("block", shape.blocks), ("head", shape.heads)):
        fitted[name], moved = rules.limit(name, fitted[name], 1, count, 1)
        notes.extend(moved)
    fitted["token"], moved = rules.limit("token", fitted["token"], ALL_TOKENS, shape.tokens - 1, ALL_TOKENS)
    notes.extend(moved)
    for name in ("row", "col"):  # a link made for a longer text: its last token
        fitted[name], moved = rules.clamp_position(name, fitted[name], shape.tokens)
        notes.extend(moved)
    fitted["cache_step"], moved = rules.limit(
        "cache_step", fitted["cache_step"], 0, fitted["cache_n"] - 1, fitted["cache_n"] - 1
    )
    notes.extend(moved)
    last = shape.steps[-1] if shape.steps else None
    if fitted["step"] is not None and fitted["step"] not in shape.steps and shape.steps:
        allowed = ", ".join(str(step) for step in shape.steps)
        notes.append(Note("step", str(fitted["step"]), "invalid", allowed, str(last)))
        fitted["step"] = last
    elif fitted["step"] is None or not shape.steps:
        fitted["step"] = last
    return fitted, notes


def to_query(values: Mapping[str, Any]) -> dict[str, str]:
    """The query string for ``values``: every parameter that has a value, so a link never
    depends on defaults (the step is left out for a model without snapshots)."""
    return rules.to_query(PARAMS, values)
