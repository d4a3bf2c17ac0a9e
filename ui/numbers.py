"""Numbers as a person reads them: sizes in bytes and parameter counts, short (gpt_core's own,
which a source's notes use too)."""

from __future__ import annotations

from gpt_core.numbers import format_bytes, parameters_text

__all__ = ["format_bytes", "parameters_text"]
