"""Heads and layers combined, for the playground and the explorer: the chosen layer's heads
averaged, and attention rollout (Abnar & Zuidema, 2020) through every layer the source has
(½ mean + ½ identity per layer, rows renormalised, multiplied from the first layer up); a
source of one layer (random weights) rolls out that one layer. A page chooses which it
shows, where, and what it writes around them."""

from __future__ import annotations

from figures.combined import combined_figure
from gpt_core.explore import attention_rollout, mean_over_heads
from gpt_core.window import Window
from string_table import t
from string_table.figure_words import figure_words

from ..charts import show_chart, sized_for_page
from .model import SourceView

KINDS = ("mean", "rollout")


def units(view: SourceView, lang: str) -> str:
    """What the source's layers are called, plural: "blocks" or "layers"."""
    return t(f"cb.{view.unit}s", lang)


def title(view: SourceView, kind: str, lang: str) -> str:
    """The chart's title: whose heads the mean is of; how many layers the rollout runs through."""
    layers, heads = view.about.layers, view.about.heads
    if kind == "mean":
        if layers == 1:
            return t("cb.mean_title", lang, heads=heads)
        return t("ex.combined_mean_title", lang, heads=heads, where=t(f"ex.{view.unit}_n", lang, n=view.layer + 1))
    if layers == 1:
        return t("cb.one_layer_title", lang)
    return t("ex.combined_rollout_title", lang, blocks=layers, units=units(view, lang))


def matrix(view: SourceView, kind: str):
    """(T, T): the chosen layer's mean over heads, or the rollout through every layer."""
    if kind == "mean":
        return mean_over_heads([view.layer_weights()])[0].numpy()
    return attention_rollout(list(view.every_layer())).numpy()


def combined_chart(view: SourceView, kind: str, chart_key: str, window: Window, lang: str) -> None:
    """One T × T heatmap of ``kind`` ("mean" or "rollout"), shared by every session."""
    sized, heading = sized_for_page(), title(view, kind, lang)
    several = view.about.layers > 1
    layer = view.layer if kind == "mean" else None

    def build():
        return combined_figure(
            matrix(view, kind), view.labels, kind, figure_words(lang), title=heading, window=window, size=sized
        )

    show_chart(
        build,
        chart_key,
        sized=True,
        share=view.shared("combined", kind, layer, sized, window),
        file_name=view.file_name(kind, block=layer + 1 if several and layer is not None else None),
    )
