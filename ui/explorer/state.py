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
from gpt_core.reproduce import NUMBERS_VERSION

from ..playground.state import SHELL_PARAMS, VERSION_PARAM, Note, Param, version_notes

SESSION_MODEL = "session"
FALLBACK_MODEL = "h4"  # the shipped model a link falls back to
METRICS = ("previous", "first", "self", "entropy")
LINE_MODES = ("head", "block")  # the lines of the chosen head, or of every head of its block
ALL_TOKENS = -1  # "token": every query's lines
MAX_PROMPT_CHARS = 2_000  # the models read at most their context; a link may carry more (it is cut)
MAX_BLOCKS = 64
MAX_HEADS = 64
MAX_STEP = 1_000_000
MAX_TOKEN = 4_096
MAX_GENERATE = 40
MAX_TEMPERATURE = 2.0

PARAMS: tuple[Param, ...] = (
    Param("model", "text", FALLBACK_MODEL),
    Param("prompt", "text", None),  # None: the model's own default prompt
    Param("block", "int", 1, 1, MAX_BLOCKS),  # 1-based
    Param("head", "int", 1, 1, MAX_HEADS),  # 1-based
    Param("token", "int", ALL_TOKENS, ALL_TOKENS, MAX_TOKEN),  # the lines view's query
    Param("lines", "choice", "head", choices=LINE_MODES),
    Param("metric", "choice", "previous", choices=METRICS),
    Param("step", "int", None, 0, MAX_STEP),  # a snapshot's training step; None: the last
    Param("n", "int", 20, 1, MAX_GENERATE),
    Param("temp", "float", 0.0, 0.0, MAX_TEMPERATURE),
    Param("seed", "int", 0, 0, MAX_SEED),
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
    return {param.name: param.default for param in PARAMS}


def _text_param_parse(param: Param, raw: str) -> str:
    if len(raw) > (MAX_PROMPT_CHARS if param.name == "prompt" else 40):
        raise ValueError("too_long")
    return raw


def parse_query(query: Mapping[str, str | list[str]]) -> tuple[dict[str, Any], list[Note]]:
    """Values for every parameter from a query string (type and range checked), and notes
    about what was not used."""
    values = defaults()
    notes: list[Note] = []
    for name, raw_value in query.items():
        raw = raw_value[-1] if isinstance(raw_value, list) and raw_value else raw_value
        raw = raw if isinstance(raw, str) else ""
        param = PARAMS_BY_NAME.get(name)
        if name == VERSION_PARAM:
            notes.extend(version_notes(raw))
            continue
        if param is None:
            if name not in SHELL_PARAMS:
                notes.append(Note(name, raw, "unknown"))
            continue
        try:
            values[name] = _text_param_parse(param, raw) if param.kind == "text" else param.parse(raw)
        except (ValueError, OverflowError):
            default = "" if param.default is None else param.to_url(param.default)
            allowed = f"≤ {MAX_PROMPT_CHARS}" if param.name == "prompt" else param.allowed()
            notes.append(Note(name, raw, "invalid", allowed, default))
    return values, notes


def resolve_model(key: str, available: Sequence[str]) -> tuple[str, list[Note]]:
    """The model to show for ``key``: itself when it is here, else the shipped fallback (h = 4,
    else the first there is), with a note; a link to a session's model names the reason."""
    if key in available:
        return key, []
    fallback = FALLBACK_MODEL if FALLBACK_MODEL in available else (available[0] if available else FALLBACK_MODEL)
    reason = "session_model_elsewhere" if key == SESSION_MODEL else "model_unknown"
    return fallback, [Note("model", key, reason, ", ".join(available), fallback)]


def fit_to_model(values: Mapping[str, Any], shape: ModelShape) -> tuple[dict[str, Any], list[Note]]:
    """``values`` with block, head, token and step inside what the model shown allows; each
    one moved says so in a note."""
    fitted = dict(values)
    notes: list[Note] = []
    for name, count in (("block", shape.blocks), ("head", shape.heads)):
        if not 1 <= fitted[name] <= count:
            notes.append(Note(name, str(fitted[name]), "invalid", f"1 … {count}", "1"))
            fitted[name] = 1
    if fitted["token"] >= shape.tokens:
        notes.append(
            Note("token", str(fitted["token"]), "invalid", f"{ALL_TOKENS} … {shape.tokens - 1}", str(ALL_TOKENS))
        )
        fitted["token"] = ALL_TOKENS
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
    query = {}
    for param in PARAMS:
        value = values.get(param.name)
        if value is None:
            continue
        query[param.name] = value if param.kind == "text" else param.to_url(value)
    query[VERSION_PARAM] = str(NUMBERS_VERSION)
    return query
