"""What every page of this package is made of: the ``View`` a call returns, the page's words
in the chosen language, its title, the layers chosen, and the version that made it.
``offline_page`` (random weights), ``model_view`` (a model) and ``source_view`` (any source)
build on these."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from figures.shapes import shape_trace_code
from gpt_core import STAGES, PlaygroundConfig, PlaygroundTrace
from string_table import t

STAGE_ORDER: tuple[str, ...] = STAGES  # scores, scaled_scores, masked_scores, weights
TITLE_CHARS = 40  # a longer text is cut in the page's title (the tokens show it whole)
# The page's words: "page.softmax.key" is read by its script as words["softmax_key"].
PAGE_KEYS = (
    "page.lead",
    "page.stage",
    "page.heads",
    "page.head",
    "page.detail",
    "page.query",
    "page.key",
    "page.value",
    "page.masked",
    "page.masked_note",
    "page.choose",
    "page.softmax",
    "page.softmax.key",
    "page.softmax.score",
    "page.softmax.exp",
    "page.softmax.weight",
    "page.softmax.stored",
    "page.softmax.sum",
    "page.shapes",
    "page.made",
    "page.offline",
    "page.layer_choice",
    "page.no_plotly",
    "page.window",
    "page.window_slide",
    "page.map",
)


def package_version() -> str:
    try:
        return metadata.version("seeing-attention")
    except metadata.PackageNotFoundError:
        return "(from a clone)"


def page_words(lang: str, tokens: int, cut: str = "") -> dict[str, str]:
    words = {"cut": cut}
    for key in PAGE_KEYS:
        name = key.removeprefix("page.").replace(".", "_")
        words[name] = t(key, lang)
    words["tokens"] = t("page.tokens", lang, n=tokens)
    return words


@dataclass
class View:
    """One view: the page (``html``), what was traced (``result``: gpt_core's playground trace
    for random weights, ``gpt_core.hf``'s for a real model, a source's ``Trace`` for given
    weights or a module) and the numbers of its layers."""

    html: str
    result: PlaygroundTrace | Any
    text: str
    lang: str
    layers: dict[int, dict[str, np.ndarray]]  # layer (0-based) -> stage -> (heads, T, T)
    config: PlaygroundConfig | None = None  # random weights' settings
    model: str | None = None  # a real model's name
    note: str = ""  # what its reader must know: a text cut to the tokens a page holds, a causal mask added

    @property
    def numbers(self) -> dict[str, np.ndarray]:
        """Each stage of the first layer shown, (heads, T, T), as gpt_core computed it (float32,
        −∞ where masked)."""
        return self.layers[min(self.layers)]

    @property
    def tokens(self) -> list[str]:
        return list(self.result.tokens)

    @property
    def shape_trace(self) -> str:
        return shape_trace(self.result, min(self.layers))

    def figures(self, stage: str = "weights"):
        """The app's overview of every head at ``stage`` (first layer shown), as a Plotly figure."""
        from figures import heads_overview_figure
        from string_table.figure_words import figure_words

        return heads_overview_figure(self.numbers[stage], list(self.result.labels), stage, figure_words(self.lang))

    def save_html(self, path: str | Path) -> Path:
        """Write the page, one file that works offline."""
        path = Path(path)
        path.write_text(self.html, encoding="utf-8")
        return path

    def __repr__(self) -> str:
        heads, T = self.numbers["weights"].shape[:2]
        source = f"model {self.model}" if self.model else f"seed {self.config.seed}"
        note = f"; {self.note}" if self.note else ""
        return f"<seeing_attention.View: {heads} heads × {T} tokens of {self.text[:TITLE_CHARS]!r}, {source}{note}>"

    def _repr_html_(self) -> str:
        """In a notebook (Jupyter, JupyterLab, VS Code, Colab): the page in a frame of its own,
        so that its script and style touch nothing else of the notebook; Plotly's script held
        once by the notebook (``notebook.py``)."""
        from .notebook import frame_html

        return frame_html(self.html, t("page.heads", self.lang))


def shape_trace(result, layer: int) -> str:
    trace = result.trace if isinstance(result, PlaygroundTrace) else result.layers[layer]
    if trace.x is None:  # weights alone: no split or merge was given
        return ""
    return shape_trace_code(trace.shape_steps, tuple(trace.x.shape))


def layer_stages(trace) -> dict[str, np.ndarray]:
    return {stage: getattr(trace, stage)[0].detach().float().numpy() for stage in STAGE_ORDER}


def chosen_layers(layer: int | str | Sequence[int], count: int) -> list[int]:
    if layer == "all":
        return list(range(count))
    chosen = [layer] if isinstance(layer, int) else list(layer)
    for index in chosen:
        if not isinstance(index, int) or not 0 <= index < count:
            raise ValueError(f'layer {index!r} is not one of 0..{count - 1} (or "all")')
    if not chosen:
        raise ValueError("no layer chosen")
    return chosen


def title_text(text: str) -> str:
    return text if len(text) <= TITLE_CHARS else text[:TITLE_CHARS] + "…"
