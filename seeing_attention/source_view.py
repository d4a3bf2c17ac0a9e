"""The page of any ``gpt_core`` source: its stages (only those it has), its notes in the chosen
language under the stage switch, and what it is. ``show(attention=...)`` (``GivenWeights``)
and ``show(module=...)`` (``ModuleSource``) come here."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from figures.page import PageLayer, page_data, standalone_page
from figures.shapes import shape_trace_code
from gpt_core.attention import STAGES, AttentionTrace
from gpt_core.reproduce import use_compute_threads
from gpt_core.source import AttentionSource, Note
from string_table import t

from .limits import plotly_js
from .view import View, chosen_layers, package_version, page_words, title_text

FIXED_TEXT = "source.fixed_text"  # said of every source of its own tokens: not worth a view's text


def note_text(note: Note, lang: str) -> str:
    """A source's note in ``lang``."""
    return t(note.key, lang, **note.values)


def _numbers(layer: AttentionTrace, stages: Sequence[str]) -> dict[str, np.ndarray]:
    return {stage: getattr(layer, stage)[0].detach().float().numpy() for stage in stages}


def _shapes(layer: AttentionTrace) -> str:
    """The split and merge of a layer that recorded them ("" for weights alone)."""
    if layer.x is None or not layer.shape_steps:
        return ""
    return shape_trace_code(layer.shape_steps, tuple(layer.x.shape))


def _stage_titles(source: AttentionSource, lang: str) -> dict[str, str]:
    titles = {stage: t(f"stage.{stage}", lang) for stage in source.capabilities.stages}
    if "scaled_scores" in titles and not source.description.scale:
        titles["scaled_scores"] = t("stage.not_scaled", lang)
    return titles


def _page_words(source: AttentionSource, lang: str, tokens: int) -> dict[str, str]:
    """The page's words; its lead names the stages only where the source has every one."""
    words = page_words(lang, tokens)
    if set(source.capabilities.stages) != set(STAGES):
        words["lead"] = t("page.lead.some_stages", lang)
    return words


def source_view(
    source: AttentionSource,
    layer: int | str | Sequence[int] = 0,
    *,
    lang: str = "en",
    stage: str = "weights",
    head: int = 0,
    row: int | None = None,
    col: int | None = None,
) -> View:
    """Every head of ``source``'s chosen layers (0-based: one, several or ``"all"``) for the
    text it reads by default, as a ``View``: the stages it has, its notes and its facts."""
    described = source.description
    chosen = chosen_layers(layer, described.layers)
    use_compute_threads()
    with torch.no_grad():
        trace = source.trace(source.default_prompt)
    stages = source.capabilities.stages
    layers = {index: _numbers(trace.layers[index], stages) for index in chosen}
    facts, notes = source.facts(), source.notes(trace)
    made = [(t("page.made.model", lang), note_text(facts, lang) if facts else described.name)]
    # Its remarks say how the numbers were made (a mask it was given, dropout off); its
    # warnings what the page lacks, under the stage switch.
    made += [("", note_text(note, lang)) for note in notes if note.level == "caption"]
    command = source.reproduction(source.default_prompt, chosen[0]).command
    if command:
        made.append((t("page.made.command", lang), command))
    made.append(("", t("page.made.versions", lang, torch=torch.__version__, version=package_version())))
    names = [described.name] if described.layers == 1 else [t("page.layer", lang, layer=index) for index in chosen]
    data = page_data(
        title=t("page.title", lang, text=title_text(trace.text_used.strip())),
        tokens=trace.labels,
        layers=[PageLayer(name, layers[index]) for name, index in zip(names, chosen, strict=True)],
        stage_titles=_stage_titles(source, lang),
        words=_page_words(source, lang, len(trace.tokens)),
        shape_trace=_shapes(trace.layers[chosen[0]]),
        made=made,
        stage=stage,
        head=head,
        row=row,
        col=col,
        notes=[note_text(note, lang) for note in notes if note.level == "warning"],
    )
    page = standalone_page(data, plotly_js=plotly_js(), lang=lang)
    said = "; ".join(note_text(note, lang) for note in notes if note.key != FIXED_TEXT)
    return View(
        html=page, result=trace, text=trace.text_used, lang=lang, layers=layers, model=described.name, note=said
    )
