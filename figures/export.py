"""A chart's file name when it is downloaded as an image: what the chart shows, in safe
characters only (``export_name("softmax", head=3, T=6, h=4, d=8)`` ->
``softmax_head3_T6_h4_d8``), and the image formats and scales a student may choose."""

from __future__ import annotations

import hashlib
import re

EXPORT_FORMATS = ("svg", "png")
EXPORT_SCALES = (1, 2, 3, 4)
DEFAULT_FORMAT = "png"
DEFAULT_SCALE = 2
MAX_NAME_CHARS = 80  # well under any file system's limit, with room for ".svg"
HASH_CHARS = 8  # a cut name ends with this much of its full form's hash: cut names stay apart
FALLBACK_NAME = "chart"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")  # everything else (a path separator, spaces, CJK) becomes "-"
_DASHES = re.compile(r"-{2,}")
_EDGES = "._-"


def safe_part(value: object) -> str:
    """One part of a file name: ASCII letters, digits, "-", "_" and inner "." only (no path
    separator, no leading dot); ``True``/``False`` as ``1``/``0``, numbers as written
    shortest (``0.1``, ``2``)."""
    if isinstance(value, bool):
        text = "1" if value else "0"
    elif isinstance(value, float):
        text = f"{value:g}"
    else:
        text = str(value)
    text = _DASHES.sub("-", _UNSAFE.sub("-", text))
    return text.strip(_EDGES)


def export_name(kind: str, *words: object, **parts: object) -> str:
    """The file name (without extension) of a chart: ``kind``, then each of ``words`` as it
    is, then each of ``parts`` as its name followed by its value, joined by "_". ``None``
    values and empty parts are left out; the name is at most ``MAX_NAME_CHARS`` long (a
    longer one is cut and ends with a short hash of the whole, so that two cut names differ
    where their wholes did)."""
    pieces = [safe_part(kind)] + [safe_part(word) for word in words if word is not None]
    pieces += [safe_part(name) + safe_part(value) for name, value in parts.items() if value is not None]
    name = "_".join(piece for piece in pieces if piece) or FALLBACK_NAME
    if len(name) > MAX_NAME_CHARS:
        digest = hashlib.sha256(name.encode()).hexdigest()[:HASH_CHARS]
        name = name[: MAX_NAME_CHARS - HASH_CHARS - 1].rstrip(_EDGES) + "_" + digest
    return name


def image_options(file_name: str, image_format: str = DEFAULT_FORMAT, scale: int = DEFAULT_SCALE) -> dict:
    """Plotly's ``config.toImageButtonOptions``: the chart as shown (its own width and height),
    in ``image_format`` at ``scale``, named ``file_name`` (made safe here too). An unknown
    format or scale is the default one."""
    if image_format not in EXPORT_FORMATS:
        image_format = DEFAULT_FORMAT
    if scale not in EXPORT_SCALES:
        scale = DEFAULT_SCALE
    name = export_name(file_name) if file_name else FALLBACK_NAME
    return {"format": image_format, "filename": name, "scale": scale}
