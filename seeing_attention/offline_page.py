"""The offline page's HTML: one layer's stages in ``figures.page``'s one-file page, with the
words in the chosen language and what made it, for a random-weight trace (``show``'s), for any
source the playground shows, and what a page of a cut text says."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from figures.page import PageLayer, page_data, standalone_page
from gpt_core import PlaygroundConfig, PlaygroundTrace, display_labels
from string_table import t

from .limits import PAGE_LIMIT_BYTES, plotly_js
from .made import DEFAULT_APP_URL, app_link, command_line, made_by, settings_text, view_params
from .view import STAGE_ORDER, layer_stages, package_version, page_words, shape_trace, title_text


def _stage_titles(config: PlaygroundConfig, lang: str) -> dict[str, str]:
    titles = {stage: t(f"stage.{stage}", lang) for stage in STAGE_ORDER}
    if not config.scale:
        titles["scaled_scores"] = t("stage.not_scaled", lang)
    return titles


def cut_note(shown: int, total: int, ceiling: int, lang: str) -> str:
    """What a page of a cut text says (nothing when the text was not cut)."""
    if total <= shown:
        return ""
    return t("page.cut", lang, shown=shown, total=total, limit=ceiling, mb=PAGE_LIMIT_BYTES // 1_000_000)


def page_html(
    result: PlaygroundTrace,
    text: str,
    lang: str,
    *,
    app_url: str = DEFAULT_APP_URL,
    stage: str = "weights",
    head: int = 0,
    row: int | None = None,
    col: int | None = None,
    cut: str = "",
) -> str:
    """The page for a random-weight trace (``show``'s); ``cut``: what it says of a cut text."""
    config = result.config
    made = [
        (t("page.made.settings", lang), settings_text(config)),
        (t("page.made.model", lang), t("page.made.random", lang, seed=config.seed)),
        (t("page.made.command", lang), command_line(text, config, lang)),
        (t("page.made.link", lang), app_link(text, config, lang, app_url, view_params(stage, head, row, col))),
        ("", t("page.made.versions", lang, torch=torch.__version__, version=package_version())),
    ]
    return stages_page_html(
        text=text,
        tokens=result.tokens,
        stages=layer_stages(result.trace),
        stage_titles=_stage_titles(config, lang),
        shape_trace=shape_trace(result, 0),
        made=made,
        lang=lang,
        stage=stage,
        head=head,
        row=row,
        col=col,
        cut=cut,
    )


def stages_page_html(
    *,
    text: str,
    tokens: Sequence[str],
    stages: dict[str, np.ndarray],
    stage_titles: dict[str, str],
    shape_trace: str,
    made: list[tuple[str, str]],
    lang: str,
    layer_name: str = "attention",
    stage: str = "weights",
    head: int = 0,
    row: int | None = None,
    col: int | None = None,
    cut: str = "",
) -> str:
    """The page of one layer's stages, whatever computed them."""
    data = page_data(
        title=t("page.title", lang, text=title_text(text)),
        tokens=list(tokens),
        layers=[PageLayer(layer_name, stages)],
        labels=display_labels(list(tokens)),
        stage_titles=stage_titles,
        words=page_words(lang, len(tokens), cut),
        shape_trace=shape_trace,
        made=made,
        stage=stage,
        head=head,
        row=row,
        col=col,
    )
    return standalone_page(data, plotly_js=plotly_js(), lang=lang)


def playground_page_html(
    *,
    text: str,
    result: PlaygroundTrace,
    stages: dict[str, np.ndarray],
    source,
    lang: str,
    link: str,
    block: int = 1,
    stage: str = "weights",
    head: int = 0,
) -> str:
    """The page of the playground's view, whatever its source (a ``gpt_core.source``
    ``AttentionSource``): what it is and its reader's settings, the command that writes the
    page again where there is one, and the view's own ``link``; ``block``: the layer shown,
    1-based as the link has it."""
    about = source.description
    made = [(t("page.made.settings", lang), settings_text(source.settings))] if source.settings else []
    made.append((t("page.made.model", lang), made_by(source, block, lang)))
    command = source.reproduction(text, block - 1).command
    if command:
        made.append((t("page.made.command", lang), f"{command} --lang {lang} -o attention.html"))
    made += [
        (t("page.made.link", lang), link),
        ("", t("page.made.versions", lang, torch=torch.__version__, version=package_version())),
    ]
    titles = {s: t(f"stage.{s}", lang) for s in STAGE_ORDER}
    if not about.scale:
        titles["scaled_scores"] = t("stage.not_scaled", lang)
    return stages_page_html(
        text=text,
        tokens=result.labels,
        stages={s: stages[s] for s in STAGE_ORDER},
        stage_titles=titles,
        shape_trace=shape_trace(result, 0),
        made=made,
        lang=lang,
        stage=stage,
        head=head,
    )
