"""The explorer's view model (``ExplorerView``: the shared one, ``ui.views.model``, with the
head looked at, every layer's weights and metrics) and its charts' keys. Each view reads the
kept trace, one module per concern: the grid and a real model's map (``grid.py``), one head
stage by stage (``detail.py``), the lines, the metrics, the training snapshots and generation
(the only view that computes: once per its settings, kept in the session)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import streamlit as st
import torch

from gpt_core.attention import Trace
from gpt_core.explore import head_kind
from gpt_core.source import AttentionSource, grid_fits, layer_metrics
from gpt_core.window import Window, first_key, window_around
from string_table import t

from ..shared import sources
from ..shared.shared_cache import SharedResults
from ..views import notes
from ..views.model import SourceView
from .layer_weights import LayerWeights

GRID_CHART_KEY = "ex_grid_chart"
WINDOW_MAP_KEY = "ex_window_map"
MAP_CHART_KEY = "ex_map_chart"
LAYER_CHART_KEY = "ex_layer_chart"
DETAIL_CHART_KEY = "ex_detail_chart"
LINES_CHART_KEY = "ex_lines_chart"
METRIC_CHART_KEY = "ex_metric_chart"
TRAINING_CHART_KEY = "ex_training_chart"
GENERATION_CHART_KEY = "ex_generation_chart"
SHARED_NUMBER_ENTRIES = 128  # (model, prompt) weights and metrics kept for every session
SHARED_NUMBER_MB = 512  # and their memory: views of the kept traces (TRACES), a long text in a real model 150 MB


def has_map(view: ExplorerView) -> bool:
    """A model of more heads than one screen's grid holds (a real one: 12 layers × 12 heads)
    opens on a map of one number per head; a smaller one on the grid of every head."""
    return not grid_fits(view.about)


# Every layer's weights and every head's metrics of a (source, prompt), for everyone.
SHARED_NUMBERS: SharedResults[tuple] = SharedResults(
    SHARED_NUMBER_ENTRIES, SHARED_NUMBER_MB * 2**20, lambda numbers: numbers[0].nbytes
)


@dataclass(kw_only=True)
class ExplorerView(SourceView):
    """The shared view model (``ui.views.model``) of one trace, with what the explorer adds:
    the head looked at (0-based), the chosen cell of a long text, the training snapshots, and
    every layer's weights and metrics."""

    trace: Trace
    head: int
    steps: tuple[int, ...] = ()  # the shipped model's training snapshots
    row: int = -1  # a long text: the query the window is centred on (-1: the last)
    col: int = -1  # and the key (-1: chosen with the row, gpt_core.window.first_key)
    weights: LayerWeights = field(init=False)  # (blocks, h, T, T) float32, read per layer
    metrics: list[dict[str, torch.Tensor]] = field(init=False)  # per block: metric -> (h,)

    def __post_init__(self) -> None:
        numbers = SHARED_NUMBERS.get(self.identity, self._numbers) if self.identity else self._numbers()
        self.weights, self.metrics = numbers

    def _numbers(self) -> tuple[LayerWeights, list[dict[str, torch.Tensor]]]:
        weights = LayerWeights([weights[0].numpy() for weights in self.trace.weights])
        return weights, layer_metrics(self.trace, sources.induction(self.source))

    def every_layer(self) -> LayerWeights:
        return self.weights

    @property
    def window(self) -> Window:
        """The queries and keys the views draw: all of a short text's, else a window around
        the chosen cell (``gpt_core.window``)."""
        return window_around(len(self.trace.labels), self.row, self.chosen_col)

    @property
    def chosen_row(self) -> int:
        return self.row if self.row >= 0 else len(self.trace.labels) - 1

    @property
    def chosen_col(self) -> int:
        return self.col if self.col >= 0 else first_key(len(self.trace.labels), self.chosen_row)

    def kind(self, block: int, head: int) -> str:
        return head_kind(self.metrics[block], head)


def model_lines(source: AttentionSource, trace: Trace, lang: str) -> None:
    """Under the first chart: the source's notes below it (``ui.views.notes``) and its sizes."""
    d = source.description
    notes.below(source, source.notes(trace), lang)
    values = dict(T=len(trace.labels), blocks=d.layers, heads=d.heads, d=d.head_dim, context=d.reads)
    st.markdown(t(f"ex.read_line.{source.words.token}", lang, **values))


def metric_values(view: ExplorerView, metric: str) -> np.ndarray:
    return np.stack([block[metric].numpy() for block in view.metrics])  # (blocks, h)


def entropy_limit(view: ExplorerView) -> float:
    T = len(view.trace.labels)
    return math.log(T) if T > 1 else 1.0
