"""The page that works offline from one file: every head's stages, a stage switch, linked
hover, a click that outlines a cell in every stage with its row's softmax by hand, the
tokens, the shape trace and how the page was made, from arrays and words alone.

One HTML file holds Plotly's JavaScript (inlined once), the page's own script and style
(``figures/page/``), and the numbers as little-endian float32 in base64 (exact, −∞ included,
a third of the size of decimal text). No request leaves the file: no CDN, no font, no image.
User text (the tokens, the title) enters the page only as JSON that the script puts in as
text, and Plotly's labels escaped.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources

import numpy as np

from .palette import SCORE_COLORSCALE, WEIGHT_COLORSCALE

ASSETS = "page"  # figures/page/: page.js, page.css


@dataclass(frozen=True)
class PageLayer:
    """One layer's stages: each ``(heads, T, T)``, in the order the page shows them."""

    name: str
    stages: Mapping[str, np.ndarray]

    @property
    def heads(self) -> int:
        return int(next(iter(self.stages.values())).shape[0])


def encode_matrix(array: np.ndarray) -> str:
    """An array's numbers as little-endian float32 in base64, row-major (what the page decodes)."""
    return base64.b64encode(np.ascontiguousarray(array, dtype="<f4").tobytes()).decode("ascii")


def decode_matrix(text: str, shape: tuple[int, ...]) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype="<f4").reshape(shape)


def page_asset(name: str) -> str:
    return resources.files("figures").joinpath(ASSETS, name).read_text(encoding="utf-8")


def script_json(value: object) -> str:
    """JSON safe inside a <script> element: no "<", ">" or "&" (so no "</script>" and no
    comment opener), and no line separators JavaScript reads as line ends."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(raw, escaped)
    return text


def _stage_names(layers: Sequence[PageLayer], T: int, stage: str, head: int, row: int | None, col: int | None) -> list:
    """The stages every layer has, each (heads, T, T), checked; and that the chosen stage,
    head and cell exist."""
    if not layers:
        raise ValueError("a page needs at least one layer")
    names = list(layers[0].stages)
    for layer in layers:
        if list(layer.stages) != names:
            raise ValueError(f"layer {layer.name!r} has stages {list(layer.stages)}, not {names}")
        for name, array in layer.stages.items():
            if array.ndim != 3 or array.shape[1:] != (T, T):
                raise ValueError(f"{layer.name!r} {name}: shape {array.shape}, not (heads, {T}, {T})")
    if stage not in names:
        raise ValueError(f"stage {stage!r} is not one of {names}")
    if not 0 <= head < layers[0].heads:
        raise ValueError(f"head {head} is not one of 0..{layers[0].heads - 1}")
    if (row is None) != (col is None) or (row is not None and not (0 <= row < T and 0 <= col < T)):
        raise ValueError(f"cell ({row}, {col}) is not a cell of a {T} × {T} matrix")
    return names


def page_data(
    *,
    title: str,
    tokens: Sequence[str],
    layers: Sequence[PageLayer],
    stage_titles: Mapping[str, str],
    words: Mapping[str, str],
    shape_trace: str,
    made: Sequence[tuple[str, str]],
    stage: str = "weights",
    head: int = 0,
    row: int | None = None,
    col: int | None = None,
    notes: Sequence[str] = (),
    labels: Sequence[str] | None = None,
) -> dict:
    """What the page's script reads, checked: every stage of every layer is (heads, T, T).
    ``notes``: sentences shown under the stage switch (a source's notes: the stages it lacks).
    ``labels``: the tokens as they are shown (a space visible, as ``gpt_core.display_label``
    writes it); the tokens themselves when not given."""
    T = len(tokens)
    labels = list(tokens) if labels is None else list(labels)
    if len(labels) != T:
        raise ValueError(f"{len(labels)} labels for {T} tokens")
    names = _stage_names(layers, T, stage, head, row, col)
    return {
        "title": title,
        "tokens": list(tokens),
        "labels": labels,
        "colors": {"scores": SCORE_COLORSCALE, "weights": WEIGHT_COLORSCALE},
        "layers": [
            {
                "name": layer.name,
                "heads": layer.heads,
                "stages": {name: encode_matrix(array) for name, array in layer.stages.items()},
            }
            for layer in layers
        ],
        "stages": names,
        "stageTitles": {name: stage_titles[name] for name in names},
        "words": dict(words),
        "shapeTrace": shape_trace,
        "made": [list(pair) for pair in made],
        "stage": stage,
        "head": head,
        "row": row,
        "col": col,
        "notes": [str(note) for note in notes],
    }


def standalone_page(data: dict, *, plotly_js: str, lang: str) -> str:
    """The whole page as one HTML document (``data`` from ``page_data``)."""
    return "".join(
        [
            f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n',
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
            f"<title>{html.escape(data['title'])}</title>\n",
            f"<style>\n{page_asset('page.css')}</style>\n",
            f'<script type="text/javascript">{plotly_js}</script>\n',
            "</head>\n<body>\n<main>\n",
            '<h1 id="sa-heading"></h1>\n<p class="lead" id="sa-lead"></p>\n',
            '<h2 id="sa-tokens-heading"></h2>\n<p class="note cut" id="sa-cut" hidden></p>\n',
            '<div class="tokens" id="sa-tokens"></div>\n',
            '<div class="controls"><fieldset id="sa-stages"><legend id="sa-stage-legend"></legend></fieldset>',
            '<select id="sa-layer" hidden></select></div>\n<p class="note" id="sa-stage-notes"></p>\n',
            '<section class="window" id="sa-window" hidden><div class="chart map" id="sa-map"></div>',
            '<div><p class="note" id="sa-window-note"></p><label id="sa-slide-label" for="sa-slide"></label> ',
            '<input type="range" id="sa-slide" min="0" step="1"></div></section>\n',
            '<h2 id="sa-heads-heading"></h2>\n<p class="note" id="sa-masked-note"></p>\n<div class="grid" id="sa-heads"></div>\n',
            '<h2 id="sa-detail-heading"></h2>\n<div class="detail" id="sa-detail"></div>\n',
            '<section id="sa-hand"></section>\n',
            '<h2 id="sa-shapes-heading"></h2>\n<pre id="sa-shapes"></pre>\n',
            '<h2 id="sa-made-heading"></h2>\n<dl class="made" id="sa-made"></dl>\n<p class="note" id="sa-offline"></p>\n',
            "</main>\n",
            f'<script type="application/json" id="sa-data">{script_json(data)}</script>\n',
            f'<script type="text/javascript">\n{page_asset("window.js")}{page_asset("page.js")}</script>\n',
            "</body>\n</html>\n",
        ]
    )
