"""What every figure shares: fonts sized for a classroom, and building a figure fast."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import plotly.graph_objects as go

TITLE_FONT_SIZE = 18
FONT_SIZE = 15  # readable from the back of a classroom
TICK_FONT_SIZE = 14
COLORBAR_FONT_SIZE = 12
COLORBAR_THICKNESS_PX = 12
WEB_FONT = "Source Sans"  # Streamlit's own, a web font of the page: downloads embed it (ui/export.py)
FONT_FAMILY = f'"{WEB_FONT}", "Source Sans Pro", "Noto Sans CJK SC", sans-serif'
TITLE_COLOR = "#222"
GRID_COLOR = "#eee"
BACKGROUND = "white"


@dataclass(frozen=True)
class FigureSpec:
    """A figure as its builder wrote it, plain dicts and arrays, before Plotly's Figure is
    made of it: what a page sends needs no Figure (figures/wire.py serializes this, and
    figures/chart_reading.py reads it), and making one costs more than the rest of the figure."""

    data: list[dict]
    layout: dict

    def figure(self) -> go.Figure:
        return go.Figure(data=self.data, layout=self.layout, _validate=False)


_specs = threading.local()


@contextmanager
def specs_only() -> Iterator[None]:
    """Within this block (in this thread), the builders return a FigureSpec, not a Figure."""
    before = getattr(_specs, "on", False)
    _specs.on = True
    try:
        yield
    finally:
        _specs.on = before


def build_figure(traces: list[dict], layout: dict) -> go.Figure:
    """A Figure from plain dicts, without Plotly's per-property validation (or, inside
    ``specs_only()``, the FigureSpec of those dicts).

    Validation costs most of a rerun (tens of ms for a grid of heatmaps); the builders are
    validated once in the tests instead (tests/unit/test_figures.py rebuilds every figure
    with validation on).
    """
    if getattr(_specs, "on", False):
        return FigureSpec(traces, layout)  # type: ignore[return-value]
    return go.Figure(data=traces, layout=layout, _validate=False)
