"""The contract between figures and the page's one chart-events component
(``ui/chart_events.py`` with ``assets/chart_events.js``): the ``meta`` keys a figure sets so
that a click on it chooses something and a hover on it is shown in its other panels.

- A trace a click can choose from carries ``meta = trace_meta(head, block)``: its head
  (0-based) and, in a chart of several blocks, its block. A click sends them back with the
  cell (row = query, column = key): of the whole matrix, where a window's trace or an
  overview's in blocks says where its cells lie (``origin``, ``step``).
- A figure whose panels show the same cells (one head's stages) sets
  ``layout.meta = layout_meta(sync_hover=True)``: hovering a cell in one panel outlines the
  same cell in every panel. ``min_width_px`` tells the page the width the layout needs.

- A heatmap trace that only marks cells of the panel's values trace drawn under or over it
  carries ``meta[LAYER]``: ``MINUS_INF`` (the −∞ cells), ``DROPPED`` (cells dropout set to 0)
  or ``BLANK`` (a transparent layer that only catches clicks). ``figures/chart_reading.py``
  reads the values from the other traces and these cells from the layers.

The component reads the key names from ``EVENT_KEYS`` (the page passes them), so this module
is the only place they are spelled.
"""

from __future__ import annotations

from typing import Any

HEAD = "head"
BLOCK = "block"
SYNC_HOVER = "syncHover"
MIN_WIDTH = "minWidthPx"
NAMED_AXES = "namedAxes"  # a heatmap whose axes name layers and heads, not token positions
LAYER = "layer"  # a heatmap trace that marks cells of its panel rather than holding values
MINUS_INF, DROPPED, BLANK = "minusInf", "dropped", "blank"  # what a layer's cells are
ORIGIN = "origin"  # [query, key] of the trace's first cell in the whole matrix (a window)
STEP = "step"  # tokens a cell of the trace stands for (an overview in blocks)
EVENT_KEYS = {"head": HEAD, "block": BLOCK, "syncHover": SYNC_HOVER, "origin": ORIGIN, "step": STEP}


def trace_meta(head: int, block: int | None = None, origin: tuple[int, int] = (0, 0), step: int = 1) -> dict:
    """A clickable trace's meta: which head (0-based) and, where several are drawn, which
    block; for a window over a long text, where its first cell is in the whole matrix, and for
    an overview whose cells are blocks, how many tokens a cell stands for. A click sends back
    the whole matrix's cell: ``origin + index * step``."""
    meta: dict = {HEAD: int(head)}
    if block is not None:
        meta[BLOCK] = int(block)
    if tuple(origin) != (0, 0):
        meta[ORIGIN] = [int(origin[0]), int(origin[1])]
    if step != 1:
        meta[STEP] = int(step)
    return meta


def layer_meta(head: int, layer: str, block: int | None = None) -> dict:
    """A cell layer's meta: its head (a click on it chooses that head too) and what it marks."""
    if layer not in (MINUS_INF, DROPPED, BLANK):
        raise ValueError(f"a layer marks {MINUS_INF}, {DROPPED} or {BLANK} cells, not {layer!r}")
    return {**trace_meta(head, block), LAYER: layer}


def layout_meta(
    sync_hover: bool = False, min_width_px: float | None = None, named_axes: bool = False
) -> dict[str, Any]:
    """A figure's layout meta: whether a hovered cell is outlined in every panel, the width its
    layout needs (more than the page's when cells would fall below their minimum), and whether
    its heatmap's axes name things (layers, heads) rather than token positions."""
    meta: dict[str, Any] = {}
    if named_axes:
        meta[NAMED_AXES] = True
    if sync_hover:
        meta[SYNC_HOVER] = True
    if min_width_px is not None:
        meta[MIN_WIDTH] = round(min_width_px)
    return meta


def _meta(item: Any) -> dict:
    meta = item.get("meta") if isinstance(item, dict) else getattr(item, "meta", None)
    return meta if isinstance(meta, dict) else {}


def _traces(figure: Any) -> list:
    data = figure.get("data", []) if isinstance(figure, dict) else figure.data
    return list(data)


def clickable_heads(figure: Any, kind: str = "heatmap") -> list[int]:
    """The heads of the figure's traces of ``kind`` that a click can choose (each trace's
    ``meta.head``); a trace of that kind without it is a contract breach (ValueError)."""
    heads = []
    for trace in _traces(figure):
        trace_kind = trace.get("type") if isinstance(trace, dict) else trace.type
        if trace_kind != kind:
            continue
        head = _meta(trace).get(HEAD)
        if not isinstance(head, int) or isinstance(head, bool) or head < 0:
            raise ValueError(
                f"a {kind} trace without meta.{HEAD}: {trace.get('name') if isinstance(trace, dict) else trace.name}"
            )
        heads.append(head)
    return heads


def hover_is_linked(figure: Any) -> bool:
    layout = figure.get("layout", {}) if isinstance(figure, dict) else figure.layout
    return _meta(layout).get(SYNC_HOVER) is True
