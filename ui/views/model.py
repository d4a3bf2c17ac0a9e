"""One view model over a source and its trace, read by every shared view: the source, the
trace's labels, the layer looked at, every layer's softmax weights, the identity under which
every session shares the view's figures, and the one rule that names a chart's download.
A page composes its own extras on it (the playground's stages of one layer, the explorer's
metrics and chosen head)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from figures.export import export_name
from gpt_core.source import AttentionSource, Description

SCREEN_CHART_PX = 700  # a chart seen whole once scrolled to: the screen less the app's header bar


@dataclass(kw_only=True)
class SourceView:
    """A source, its trace's labels and the layer looked at (0-based). ``identity`` is what
    the numbers are of, in full (source, text, ...): every session showing the same identity
    shares its figures (ui/charts.py); empty: never shared."""

    source: AttentionSource
    labels: list[str]
    layer: int = 0
    identity: tuple = ()
    # A page that looks at one layer (the playground: its views are of the layer computed).
    one_layer_page: ClassVar[bool] = False

    @property
    def about(self) -> Description:
        """What the source is: its sizes, and what its layers are called."""
        return self.source.description

    @property
    def unit(self) -> str:
        """What the source calls a layer: "block" (the book's GPT) or "layer" (a real model)."""
        return self.source.words.unit

    def every_layer(self) -> Sequence[np.ndarray]:
        """Every layer's softmax weights, (h, T, T) each, from the first layer up."""
        raise NotImplementedError

    def layer_weights(self) -> np.ndarray:
        """The softmax weights (h, T, T) of the layer looked at."""
        return self.every_layer()[self.layer]

    def shared(self, *what) -> tuple | None:
        """The key under which every session shares one of this view's figures, or None."""
        return (self.identity, *what) if self.identity else None

    def file_name(self, kind: str, *words, **parts) -> str:
        """A chart's download name: what it shows (``kind``), the model whose weights these
        are, the rest of what it shows (``words``, ``parts``) and the tokens' number. A source
        the reader sets up (random weights) has no name of its own: its heads and head size
        name it instead, last."""
        by_settings = bool(self.source.settings)
        model = None if by_settings else self.about.name
        sizes = dict(h=self.about.heads, d=self.about.head_dim) if by_settings else {}
        return export_name(kind, model, *words, **parts, T=len(self.labels), **sizes)
