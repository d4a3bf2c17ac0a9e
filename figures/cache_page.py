"""The page of a generation with the key/value cache, offline from one file: a stepper (its
own script, no server) that shows, for the chosen step and layer, the new query's row per
head over the cached keys, the full causal matrix with that row outlined, and the cache's
shape and bytes after the step.

The figures are built here, in Python, per step and layer (``heads_overview_figure`` for the
matrix, a heatmap of the rows), and embedded as Plotly JSON with each row's weights as
little-endian float32 in base64 (``page.encode_matrix``); Plotly's JavaScript is inlined once.
User text (the tokens) reaches the page only as JSON and as escaped Plotly labels.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from .labels import axis_labels, plotly_safe
from .overview import heads_overview_figure
from .page import encode_matrix, page_asset, script_json
from .palette import WEIGHT_COLORSCALE
from .style import BACKGROUND, FONT_FAMILY, build_figure
from .words import Words

ROW_PX = 26  # a head's row in the rows' chart
ROWS_EXTRA_PX = 130  # the rows' chart: its title, key labels and margins


@dataclass(frozen=True)
class CacheView:
    """One step and layer of a generation, as the page shows it."""

    weights: np.ndarray  # (h, t): the new query's row per head over the t cached keys
    matrix: np.ndarray  # (h, t, t): the full causal matrix the cache's rows make
    cache_shape: tuple[int, int, int]  # (h_kv, t, d) of the keys (and of the values)
    cache_bytes: int  # keys and values of every layer after the step


def rows_figure(weights: np.ndarray, labels: Sequence[str], text: Words, title: str) -> go.Figure:
    """The new query's row of weights per head (rows) over the cached keys (columns)."""
    heads, t = weights.shape
    if len(labels) != t:
        raise ValueError(f"{len(labels)} labels for {t} keys")
    names = [plotly_safe(f"{text['fig.head']} {head + 1}") for head in range(heads)]
    trace = dict(
        type="heatmap",
        z=np.asarray(weights, dtype=np.float32),
        x=axis_labels(list(labels)),
        y=names,
        zmin=0.0,
        zmax=1.0,
        colorscale=WEIGHT_COLORSCALE,
        hovertemplate="%{y} · %{x}: %{z:.4f}<extra></extra>",
    )
    layout = dict(
        title=dict(text=plotly_safe(title)),
        height=ROWS_EXTRA_PX + ROW_PX * heads,
        font=dict(family=FONT_FAMILY),
        paper_bgcolor=BACKGROUND,
        plot_bgcolor=BACKGROUND,
        xaxis=dict(title=dict(text=plotly_safe(text["fig.key_axis"])), type="category", tickangle=-45),
        yaxis=dict(autorange="reversed", type="category"),
        margin=dict(l=70, r=20, t=50, b=80),
    )
    return build_figure([trace], layout)


def matrix_figure(matrix: np.ndarray, labels: Sequence[str], row: int, text: Words, title: str) -> go.Figure:
    """Every head's full causal matrix (``heads_overview_figure``), row ``row`` outlined."""
    return heads_overview_figure(np.asarray(matrix), list(labels), "weights", text, title=title, outline_row=row)


def _figure_json(figure: go.Figure) -> dict:
    return json.loads(pio.to_json(figure, validate=False))


def step_entry(view: CacheView, labels: Sequence[str], row_title: str, matrix_title: str, text: Words) -> dict:
    """What the page's script reads of one step and layer: the row's numbers, both figures,
    the cache's shape and bytes."""
    heads, t = view.weights.shape
    return {
        "shape": [heads, t],
        "weights": encode_matrix(view.weights),
        "cacheShape": list(view.cache_shape),
        "cacheBytes": view.cache_bytes,
        "rows": _figure_json(rows_figure(view.weights, labels, text, row_title)),
        "matrix": _figure_json(matrix_figure(view.matrix, labels, t - 1, text, matrix_title)),
    }


def cache_page(data: Mapping, *, plotly_js: str, lang: str) -> str:
    """The whole page as one HTML document. ``data``: its title, words, layer names and steps
    (each: its token, position and one ``step_entry`` per layer shown)."""
    return "".join(
        [
            f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n',
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
            f"<title>{html.escape(data['title'])}</title>\n",
            f"<style>\n{page_asset('page.css')}</style>\n",
            f'<script type="text/javascript">{plotly_js}</script>\n',
            "</head>\n<body>\n<main>\n",
            '<h1 id="sa-heading"></h1>\n<p class="lead" id="sa-lead"></p>\n',
            '<p class="note cut" id="sa-bound" hidden></p>\n',
            '<div class="controls"><button type="button" id="sa-previous"></button>',
            '<input type="range" id="sa-step" min="0" step="1"><button type="button" id="sa-next"></button>',
            '<label id="sa-layer-label" for="sa-layer"></label><select id="sa-layer"></select></div>\n',
            '<p id="sa-shown" aria-live="polite"></p>\n<p id="sa-cache"></p>\n',
            '<div class="chart" id="sa-rows"></div>\n<div class="chart" id="sa-matrix"></div>\n',
            '<h2 id="sa-made-heading"></h2>\n<dl class="made" id="sa-made"></dl>\n<p class="note" id="sa-offline"></p>\n',
            "</main>\n",
            f'<script type="application/json" id="sa-data">{script_json(dict(data))}</script>\n',
            f'<script type="text/javascript">\n{page_asset("cache.js")}</script>\n',
            "</body>\n</html>\n",
        ]
    )
