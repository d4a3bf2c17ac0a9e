"""Numbers as a person reads them, in any language: sizes in bytes and parameter counts, short."""

from __future__ import annotations


def format_bytes(count: int) -> str:
    """1.2 GB, 548 MB, 12 kB: sizes a person reads."""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= size:
            return f"{count / size:.{1 if count < 10 * size else 0}f} {unit}"
    return f"{count} B"


def parameters_text(count: int) -> str:
    """124M, 0.5B, 98k parameters."""
    for unit, size in (("B", 1e9), ("M", 1e6), ("k", 1e3)):
        if count >= size:
            value = count / size
            return f"{value:.{1 if value < 10 else 0}f}{unit}"
    return str(count)
