"""A page's parameters as URL query values: declared once, parsed, validated, repaired and
written back. Pure Python (no Streamlit), so every rule is unit-tested.

A page declares a tuple of ``Param``: its name (the URL key and, with the page's prefix, the
widget key), its kind, default, range or choices, whether it is in the link, and how long a
text may be. Everything a link holds that cannot be used falls back visibly: a ``Note``
the page shows in the student's language.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gpt_core.reproduce import NUMBERS_VERSION

SHELL_PARAMS = frozenset({"lang", "present"})  # read by the page shell, not by a page
# The version of the way numbers are derived that a link was made with (gpt_core/reproduce.py):
# every link carries it; a link without it is from version 1.
VERSION_PARAM = "v"
TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}
KINDS = ("int", "float", "bool", "choice", "text")
DEFAULT_MAX_CHARS = 200_000
# The most characters of one text the app writes into a link: about 36 KB encoded when
# every character is CJK (9 bytes each as %XX%XX%XX), inside what deploy/'s nginx accepts
# (large_client_header_buffers). A longer text is left out of the link, and the page says so.
LINK_TEXT_CHARS = 4_000
URL_BYTES_PER_CHAR = 9  # the most a character takes in a link: a 3-byte UTF-8 character, percent-encoded
FLOAT_DIGITS = 2  # a float parameter keeps this many decimals (a slider's step is 0.05 at most)


@dataclass(frozen=True)
class Param:
    """One parameter of a page: its URL key, kind, default and allowed values.

    ``choices`` is a tuple, or a function returning one (choices known only when the page
    runs, such as the models there are). ``optional``: None is a value (the page fills it
    in later, for example a model's own prompt) and is left out of the link. ``in_url``:
    False keeps the value in the session only (an uploaded file, a secret).
    """

    name: str
    kind: str
    default: Any
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] | Callable[[], Sequence[Any]] = ()
    in_url: bool = True
    max_chars: int = DEFAULT_MAX_CHARS
    optional: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r} of {self.name}")
        if self.kind in ("int", "float") and (self.low is None or self.high is None):
            raise ValueError(f"{self.name} needs low and high")

    def options(self) -> tuple[Any, ...]:
        return tuple(self.choices() if callable(self.choices) else self.choices)

    def parse(self, raw: str) -> Any:
        """The value of ``raw``, or ValueError (OverflowError for a number too large)."""
        if self.kind == "text":
            if len(raw) > self.max_chars:
                raise ValueError("too_long")
            return raw
        if self.kind == "choice":
            for option in self.options():  # a choice may be an int (the Train page's heads)
                if raw == str(option):
                    return option
            raise ValueError("choice")
        if self.kind == "bool":
            word = raw.strip().lower()
            if word in TRUE_WORDS | FALSE_WORDS:
                return word in TRUE_WORDS
            raise ValueError("bool")
        if self.kind == "int":
            value = int(raw.strip())  # ValueError on "abc", "1.5"
        else:
            value = float(raw.strip())
            if not math.isfinite(value):
                raise ValueError("not_finite")
            value = round(value, FLOAT_DIGITS)
        if not self.low <= value <= self.high:
            raise ValueError("range")
        return value

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` is a valid value (type and range): what a widget may hold."""
        if value is None:
            return self.optional
        if self.kind == "text":
            return isinstance(value, str) and len(value) <= self.max_chars
        if self.kind == "choice":
            return any(value == option and type(value) is type(option) for option in self.options())
        if self.kind == "bool":
            return isinstance(value, bool)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        if self.kind == "int" and not isinstance(value, int):
            return False
        return math.isfinite(value) and self.low <= value <= self.high

    def clamp(self, value: float | None) -> Any:
        """The nearest allowed value of a number parameter to ``value`` (None: the default)."""
        if value is None:
            return self.default
        cast = int if self.kind == "int" else float
        return cast(min(max(cast(value), self.low), self.high))

    def allowed(self) -> str:
        """The allowed values, for a note."""
        if self.kind in ("int", "float"):
            return f"{self.to_url(self.low)} … {self.to_url(self.high)}"
        if self.kind == "choice":
            return ", ".join(str(option) for option in self.options())
        if self.kind == "bool":
            return "1, 0"
        return f"≤ {self.max_chars}"

    def to_url(self, value: Any) -> str:
        if self.kind == "bool":
            return "1" if value else "0"
        if self.kind == "int":
            return str(int(value))
        if self.kind == "float":
            return f"{value:g}"
        return str(value)


@dataclass(frozen=True)
class Note:
    """Something a link held that was not used (or a value that was changed), and why.

    ``reason``: "invalid", "unknown", "older_version", "newer_version", or a page's own
    reason (its text is then the page's ``<prefix>note_<reason>`` string)."""

    name: str
    value: str
    reason: str
    allowed: str = ""
    default: str = ""


def by_name(params: Sequence[Param]) -> dict[str, Param]:
    return {param.name: param for param in params}


def defaults(params: Sequence[Param]) -> dict[str, Any]:
    return {param.name: param.default for param in params}


def _last(value: str | list[str] | None) -> str:
    """A repeated key's last value (Streamlit's query_params keeps the last one too)."""
    if isinstance(value, list):
        value = value[-1] if value else ""
    return value if isinstance(value, str) else ""


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


def parse_query(
    params: Sequence[Param], query: Mapping[str, str | list[str]], ignored: frozenset[str] = SHELL_PARAMS
) -> tuple[dict[str, Any], list[Note]]:
    """Values for every parameter from a query string (each checked on its own: kind and
    range), and notes about what was not used. ``ignored``: keys another part of the page
    reads (the shell's language and presentation mode)."""
    known = by_name(params)
    values = defaults(params)
    notes: list[Note] = []
    for name, raw_value in query.items():
        raw = _last(raw_value)
        if name == VERSION_PARAM:
            notes.extend(version_notes(raw))
            continue
        param = known.get(name)
        if param is None or not param.in_url:
            if name not in ignored:
                notes.append(Note(name, raw, "unknown"))
            continue
        try:
            values[name] = param.parse(raw)
        except (ValueError, OverflowError):
            default = "" if param.default is None else param.to_url(param.default)
            notes.append(Note(name, raw, "invalid", param.allowed(), default))
    return values, notes


def repairs(params: Sequence[Param], current: Mapping[str, Any], last_good: Mapping[str, Any]) -> dict[str, Any]:
    """Replacements for values a parameter can't hold: the last good value, else the
    default. (Streamlit sends a select box's choice as its label; when the labels change,
    with new text or another language, an old label comes back as a plain string. A
    crafted client may send anything.)"""
    fixes = {}
    for param in params:
        if not param.accepts(current.get(param.name)):
            good = last_good.get(param.name)
            fixes[param.name] = good if param.accepts(good) else param.default
    return fixes


def to_query(params: Sequence[Param], values: Mapping[str, Any]) -> dict[str, str]:
    """The query string for ``values``: every parameter in the link that has a value (so a
    link never depends on defaults), and the numbers version it was made with."""
    query = {
        param.name: param.to_url(values[param.name])
        for param in params
        if param.in_url and values.get(param.name) is not None
    }
    query[VERSION_PARAM] = str(NUMBERS_VERSION)
    return query


def too_long_for_a_link(query: Mapping[str, str]) -> list[str]:
    """The parameters of ``query`` whose text is longer than a link carries."""
    return [name for name, value in query.items() if len(value) > LINK_TEXT_CHARS]


def clamp_position(name: str, value: int, tokens: int) -> tuple[int, list[Note]]:
    """A token's position from a link kept inside a text of ``tokens`` tokens: one past its
    end becomes its last token, with a ``past_text`` note (the text's positions, the last);
    a negative one (counted from the end) is left as it is."""
    if value < tokens:
        return value, []
    return tokens - 1, [Note(name, str(value), "past_text", f"0 … {tokens - 1}", str(tokens - 1))]


def limit(name: str, value: int, low: int, high: int, default: int) -> tuple[int, list[Note]]:
    """``value`` kept inside ``low … high`` (what a model or a text allows): ``default``
    with a note when it is outside."""
    if low <= value <= high:
        return value, []
    return default, [Note(name, str(value), "invalid", f"{low} … {high}", str(default))]
