"""A real model's view: a Hugging Face model (an id, a folder, or one already loaded) traced
through ``gpt_core.hf``, its chosen layers on one offline page."""

from __future__ import annotations

import torch

from figures.page import PageLayer, page_data, standalone_page
from gpt_core.reproduce import use_compute_threads
from string_table import t

from .limits import plotly_js
from .made import model_app_link, model_command_line, model_facts
from .view import STAGE_ORDER, View, chosen_layers, layer_stages, package_version, page_words, shape_trace, title_text


def model_view(
    text: str, model, layer, *, lang: str, stage: str, head: int, row: int | None, col: int | None, app_url: str
) -> View:
    """``model``: an id or a folder (loaded), a model ``gpt_core.hf.load`` returned, or
    ``(model, tokenizer)`` a learner loaded with transformers (adopted)."""
    from gpt_core import hf

    if isinstance(model, tuple):
        model = hf.adopt(*model)
    loaded = hf.load(model) if isinstance(model, str) else model
    described = loaded.description
    chosen = chosen_layers(layer, described.layers)
    use_compute_threads()
    result = hf.trace(loaded, text)
    layers = {index: layer_stages(result.layers[index]) for index in chosen}
    shown = len(result.tokens)  # a real model reads up to its context (and the app's longest text): said
    cut = t("page.cut_model", lang, total=shown + result.cut, shown=shown, name=described.name) if result.cut else ""
    made = [
        (t("page.made.model", lang), model_facts(described, lang)),
        (t("page.made.command", lang), model_command_line(text, described.name, chosen, lang)),
        (t("page.made.link", lang), model_app_link(text, described.name, chosen[0], lang, app_url)),
        ("", t("page.made.versions", lang, torch=torch.__version__, version=package_version())),
    ]
    titles = {stage_name: t(f"stage.{stage_name}", lang) for stage_name in STAGE_ORDER}
    data = page_data(
        title=t("page.title", lang, text=title_text(text)),
        tokens=result.labels,
        layers=[PageLayer(t("page.layer", lang, layer=index + 1), layers[index]) for index in chosen],  # 1-based
        stage_titles=titles,
        words=page_words(lang, shown, cut),
        shape_trace=shape_trace(result, chosen[0]),
        made=made,
        stage=stage,
        head=head,
        row=row,
        col=col,
    )
    page = standalone_page(data, plotly_js=plotly_js(), lang=lang)
    return View(html=page, result=result, text=text, lang=lang, layers=layers, model=described.name, note=cut)
