"""The playground's controls as URL query parameters: parse, validate, write back.

Pure Python (no Streamlit), so every rule is unit-tested. A shared link holds every
control; opening it reproduces the same numbers. Malformed or out-of-range values fall
back to the default and produce a note the page shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpt_core import MAX_HEAD_DIM, MAX_HEADS, MAX_INPUT_DIM, MAX_TOKENS, STAGES, TOKENIZERS, PlaygroundConfig
from gpt_core.playground import MAX_SEED
from gpt_core.reproduce import NUMBERS_VERSION

BOOK_EXAMPLE = "动手学大模型"
# Short enough to read on a projector: six tokens each, the English ones as words.
PRESETS: dict[str, str] = {
    "book": BOOK_EXAMPLE,
    "english": "the cat sat on the mat",
    "repeat": "to be or not to be",
}
PRESET_TOKENIZERS: dict[str, str] = {"book": "char", "english": "word", "repeat": "word"}
CUSTOM_PRESET = "custom"
# The text box takes a long paste whole (a browser drops a paste over the box's limit
# without a word); the page then uses the first MAX_TOKENS tokens and says so.
MAX_PASTE_CHARS = 200_000
# A link carries only the tokens shown, but 128 long words can make that long: a link may
# carry any text the page accepts, so every view it shows can be shared.
MAX_TEXT_CHARS = MAX_PASTE_CHARS
MAX_DROPOUT = 0.9
DROPOUT_STEP = 0.05
MODES = ("eval", "train")
SHELL_PARAMS = {"lang", "present"}  # read by the page shell, not by the playground
# The version of the way numbers are derived that a link was made with (gpt_core/reproduce.py):
# every link that reproduces numbers carries it; a link without it is from version 1.
VERSION_PARAM = "v"
# The weights: random (seeded), a shipped model of the heads experiment (h1 … h8: the head
# counts it may have), or the model this session trained (ui/models.py).
RANDOM_WEIGHTS = "random"
WEIGHT_CHOICES = (RANDOM_WEIGHTS, "h1", "h2", "h4", "h8", "session")
MAX_BLOCKS = 8
LAST_ROW = -1  # "row" default: the last query, the one that sees every key
TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class Param:
    """One control: its URL key, type, default and allowed values."""

    name: str
    kind: str  # "int", "float", "bool", "choice" or "text"
    default: Any
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    def parse(self, raw: str) -> Any:
        """The value of ``raw``, or raise ValueError with the allowed range."""
        if self.kind == "text":
            if len(raw) > MAX_TEXT_CHARS:
                raise ValueError("too_long")
            return raw
        if self.kind == "choice":
            if raw not in self.choices:
                raise ValueError("choice")
            return raw
        if self.kind == "bool":
            word = raw.strip().lower()
            if word in TRUE_WORDS:
                return True
            if word in FALSE_WORDS:
                return False
            raise ValueError("bool")
        if self.kind == "int":
            value = int(raw.strip())  # ValueError on "abc", "1.5"
        else:
            value = float(raw.strip())
            if value != value:  # NaN
                raise ValueError("nan")
            value = round(value, 2)
        if not self.low <= value <= self.high:
            raise ValueError("range")
        return value

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` is a valid value of this control (type and range)."""
        if self.kind == "text":
            return isinstance(value, str) and len(value) <= MAX_PASTE_CHARS
        if self.kind == "choice":
            return value in self.choices
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind == "int":
            return isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high
        return isinstance(value, (int, float)) and not isinstance(value, bool) and self.low <= value <= self.high

    def clamp(self, value: int | float | None) -> int:
        """The nearest allowed value of an int control to ``value`` (a box left empty: the default)."""
        if value is None:
            return self.default
        return int(min(max(int(value), self.low), self.high))

    def allowed(self) -> str:
        """The allowed values, for a note."""
        if self.kind in ("int", "float"):
            low = int(self.low) if self.kind == "int" else self.low
            high = int(self.high) if self.kind == "int" else self.high
            return f"{low} … {high}"
        if self.kind == "choice":
            return ", ".join(self.choices)
        if self.kind == "bool":
            return "1, 0"
        return f"≤ {MAX_TEXT_CHARS}"

    def to_url(self, value: Any) -> str:
        if self.kind == "bool":
            return "1" if value else "0"
        if self.kind == "float":
            return f"{value:g}"
        return str(value)


PARAMS: tuple[Param, ...] = (
    Param("text", "text", BOOK_EXAMPLE),
    Param("tok", "choice", "char", choices=tuple(TOKENIZERS)),
    Param("heads", "int", 4, 1, MAX_HEADS),
    Param("head_dim", "int", 8, 1, MAX_HEAD_DIM),
    Param("input_dim", "int", 0, 0, MAX_INPUT_DIM),  # 0: the same as C
    Param("seed", "int", 0, 0, MAX_SEED),
    Param("pos", "bool", True),
    Param("dropout", "float", 0.0, 0.0, MAX_DROPOUT),
    Param("mode", "choice", "eval", choices=MODES),
    Param("bias", "bool", False),
    Param("scale", "bool", True),
    Param("head", "int", 1, 1, MAX_HEADS),  # the head shown in detail, 1-based
    Param("stage", "choice", "weights", choices=STAGES),  # the stage of the overview
    Param("row", "int", LAST_ROW, LAST_ROW, MAX_TOKENS - 1),  # query row of the calculator
    Param("col", "int", 0, 0, MAX_TOKENS - 1),  # key column highlighted
    Param("cells", "bool", True),  # the detail view writes each value in its cell (while it fits)
    Param("weights", "choice", RANDOM_WEIGHTS, choices=WEIGHT_CHOICES),  # random, or a trained model
    Param("block", "int", 1, 1, MAX_BLOCKS),  # a trained model's block, 1-based
)
PARAMS_BY_NAME = {param.name: param for param in PARAMS}
# The controls that decide the numbers; the others only choose what is looked at.
NUMBER_PARAMS = (
    "text", "tok", "heads", "head_dim", "input_dim", "seed", "pos", "dropout", "mode", "bias", "scale", "weights",
    "block",
)  # fmt: skip
# What only random weights use: a trained model brings its own (and reads characters).
RANDOM_ONLY = ("tok", "heads", "head_dim", "input_dim", "seed", "pos", "dropout", "mode", "bias", "scale")


@dataclass(frozen=True)
class Note:
    """Something in the link that was not used, and why."""

    name: str
    value: str
    reason: str  # "invalid" or "unknown"
    allowed: str = ""
    default: str = ""


def defaults() -> dict[str, Any]:
    return {param.name: param.default for param in PARAMS}


def _first(value: str | list[str]) -> str:
    if isinstance(value, list):
        return value[-1] if value else ""
    return value


def parse_query(query: Mapping[str, str | list[str]]) -> tuple[dict[str, Any], list[Note]]:
    """Values for every control from a query string, and notes about what was not used."""
    values = defaults()
    notes: list[Note] = []
    for name, raw_value in query.items():
        raw = _first(raw_value)
        param = PARAMS_BY_NAME.get(name)
        if name == VERSION_PARAM:
            notes.extend(version_notes(raw))
            continue
        if param is None:
            if name not in SHELL_PARAMS:
                notes.append(Note(name, raw, "unknown"))
            continue
        try:
            values[name] = param.parse(raw)
        except (ValueError, OverflowError):
            notes.append(Note(name, raw, "invalid", param.allowed(), param.to_url(param.default)))
    if values["head"] > values["heads"]:
        notes.append(Note("head", str(values["head"]), "invalid", f"1 … {values['heads']}", "1"))
        values["head"] = 1
    return values, notes


def version_notes(raw: str) -> list[Note]:
    """A note when a link's numbers version is not this server's: an earlier version's
    numbers may differ from what the sender saw (so may a later one's)."""
    try:
        linked = int(raw.strip())
    except ValueError:
        return [Note(VERSION_PARAM, raw, "invalid", f"1 … {NUMBERS_VERSION}", str(NUMBERS_VERSION))]
    if linked == NUMBERS_VERSION:
        return []
    reason = "older_version" if linked < NUMBERS_VERSION else "newer_version"
    return [Note(VERSION_PARAM, str(linked), reason, default=str(NUMBERS_VERSION))]


def repairs(current: Mapping[str, Any], last_good: Mapping[str, Any]) -> dict[str, Any]:
    """Replacements for controls holding a value they can't hold: the last good value, else
    the default. (Streamlit sends a select box's choice as its label; when the labels
    change, with new text or another language, an old label comes back as a plain string.)"""
    fixes = {}
    for param in PARAMS:
        if not param.accepts(current.get(param.name)):
            good = last_good.get(param.name)
            fixes[param.name] = good if param.accepts(good) else param.default
    return fixes


def to_query(values: Mapping[str, Any]) -> dict[str, str]:
    """The query string for ``values``: every control, so a link never depends on defaults,
    and the numbers version it was made with."""
    query = {param.name: param.to_url(values[param.name]) for param in PARAMS}
    query[VERSION_PARAM] = str(NUMBERS_VERSION)
    return query


def config_of(values: dict[str, Any]) -> PlaygroundConfig:
    """The computation the controls describe."""
    return PlaygroundConfig(
        heads=values["heads"],
        head_dim=values["head_dim"],
        input_dim=values["input_dim"] or None,
        seed=values["seed"],
        tokenizer=values["tok"],
        positional=values["pos"],
        dropout=values["dropout"],
        training=values["mode"] == "train",
        qkv_bias=values["bias"],
        scale=values["scale"],
    )
