"""From playground settings to the page: gpt_core's trace, the words in the chosen language,
and ``figures.page``'s one-file HTML."""

from __future__ import annotations

import shlex
import urllib.parse
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np
import torch

from figures.page import PageLayer, page_data, standalone_page
from gpt_core import STAGES, InputError, PlaygroundConfig, PlaygroundTrace, display_labels, trace_attention
from gpt_core.reproduce import use_compute_threads
from links import playground as state
from string_table import LANGUAGES, t

from .limits import DEFAULT_TOKENS, PAGE_LIMIT_BYTES, most_tokens, plotly_js
from .limits import page_bytes as page_bytes  # the playground says a page's size before its download
from .source_view import source_view
from .view import (
    STAGE_ORDER,
    View,
    chosen_layers,
    layer_stages,
    package_version,
    page_words,
    shape_trace,
    title_text,
)

BOOK_EXAMPLE = "动手学大模型"
DEFAULT_APP_URL = "http://localhost:8501"


def _stage_titles(config: PlaygroundConfig, lang: str) -> dict[str, str]:
    titles = {stage: t(f"stage.{stage}", lang) for stage in STAGE_ORDER}
    if not config.scale:
        titles["scaled_scores"] = t("stage.not_scaled", lang)
    return titles


def command_line(text: str, config: PlaygroundConfig, lang: str, output: str = "attention.html") -> str:
    """The ``seeing-attention export`` command that writes the same page again."""
    parts = [
        "seeing-attention",
        "export",
        "--text",
        text,
        "--heads",
        str(config.heads),
        "--head-dim",
        str(config.head_dim),
        "--seed",
        str(config.seed),
        "--tok",
        config.tokenizer,
    ]
    if config.input_dim is not None:
        parts += ["--input-dim", str(config.input_dim)]
    if not config.positional:
        parts.append("--no-positional")
    if config.dropout:
        parts += ["--dropout", repr(config.dropout)] + (["--training"] if config.training else [])
    if config.qkv_bias:
        parts.append("--qkv-bias")
    if not config.scale:
        parts.append("--no-scale")
    parts += ["--lang", lang, "-o", output]
    return shlex.join(parts)


def app_link(
    text: str, config: PlaygroundConfig, lang: str, app_url: str = DEFAULT_APP_URL, view: dict[str, Any] | None = None
) -> str:
    """The playground's link to the same view, written by the playground's own link rules
    (its numbers version included). view: the page's other controls by link name (the head
    shown, 1-based; the stage; the row and column)."""
    values = {**state.values_of(text, config), **(view or {})}
    query = {**state.to_query(values), "lang": lang}
    return f"{app_url.rstrip('/')}/playground?{urllib.parse.urlencode(query)}"


def show(
    text: str = BOOK_EXAMPLE,
    *,
    heads: int = 4,
    head_dim: int = 8,
    input_dim: int | None = None,
    seed: int = 0,
    tokenizer: str = "char",
    positional: bool = True,
    dropout: float = 0.0,
    training: bool = False,
    qkv_bias: bool = False,
    scale: bool = True,
    lang: str = "en",
    stage: str = "weights",
    head: int = 0,
    row: int | None = None,
    col: int | None = None,
    app_url: str = DEFAULT_APP_URL,
    model: str | Any | None = None,
    layer: int | str | Sequence[int] = 0,
    module: torch.nn.Module | None = None,
    x: torch.Tensor | None = None,
    tokens: Sequence[str] | None = None,
    attention: Any = None,
    max_tokens: int = DEFAULT_TOKENS,
) -> View:
    """Every head of an attention layer for ``text``: a ``View`` that renders in a notebook and
    saves as one offline page.

    Random weights by default, with the playground's settings by name (``heads``, ``head_dim``,
    ``seed``...). ``model``: a real model instead, a Hugging Face id or a local folder (loaded
    with ``gpt_core.hf.load``, downloaded once), a model ``gpt_core.hf.load`` returned, or a
    transformers model you loaded yourself with its tokenizer, ``model=(model, tokenizer)``
    (``gpt_core.hf.adopt``); then
    ``layer`` chooses its layers (0-based: one, several, or ``"all"``), and the settings of
    random weights do not apply. ``module``: your own attention module instead (gpt_core's
    ``MultiHeadAttention``, the book's, or ``torch.nn.MultiheadAttention``), run on ``x``
    ((1, T, C)) with its own weights (``gpt_core.ModuleSource``); ``tokens`` names the T
    positions. ``attention``: softmax weights you already have instead, with their ``tokens``
    (``gpt_core.GivenWeights``): transformers' ``outputs.attentions``, one tensor (layers, h, T, T)
    or one layer's (h, T, T); ``layer`` chooses among them, and the page shows the weights alone
    and says which stages it lacks. ``head``, ``row`` and ``col`` are 0-based (the cell
    outlined when the page opens). ``max_tokens``: random weights read at most this many tokens
    of the text (128 by default; a longer text is cut, and the page and the view say so), up to
    what a page holds (``limits.most_tokens``)."""
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {sorted(LANGUAGES)}, not {lang!r}")
    if attention is not None or module is not None:
        return _show_own(attention, module, x, tokens, layer, lang=lang, stage=stage, head=head, row=row, col=col)
    if model is not None:
        if isinstance(model, tuple):
            from gpt_core import hf

            model = hf.adopt(*model)
        return _show_model(text, model, layer, lang=lang, stage=stage, head=head, row=row, col=col, app_url=app_url)
    config = PlaygroundConfig(
        heads=heads,
        head_dim=head_dim,
        input_dim=input_dim,
        seed=seed,
        tokenizer=tokenizer,
        positional=positional,
        dropout=dropout,
        training=training,
        qkv_bias=qkv_bias,
        scale=scale,
    )
    ceiling = most_tokens(heads)
    if not isinstance(max_tokens, int) or not 1 <= max_tokens <= ceiling:
        raise InputError("out_of_range", name="max_tokens", low=1, high=ceiling, value=max_tokens)
    use_compute_threads()  # the app's thread count: the same numbers, bit for bit
    with torch.no_grad():
        result = trace_attention(text, config, max_tokens=max_tokens)
    cut = cut_note(len(result.tokens), result.total_tokens, ceiling, lang)
    page = page_html(result, text, lang, app_url=app_url, stage=stage, head=head, row=row, col=col, cut=cut)
    layers = {0: layer_stages(result.trace)}
    return View(html=page, result=result, text=text, lang=lang, layers=layers, config=config, note=cut)


def cut_note(shown: int, total: int, ceiling: int, lang: str) -> str:
    """What a page of a cut text says (nothing when the text was not cut)."""
    if total <= shown:
        return ""
    return t("page.cut", lang, shown=shown, total=total, limit=ceiling, mb=PAGE_LIMIT_BYTES // 1_000_000)


def _show_model(
    text: str, model, layer, *, lang: str, stage: str, head: int, row: int | None, col: int | None, app_url: str
) -> View:
    from gpt_core import hf

    loaded = hf.load(model) if isinstance(model, str) else model
    described = loaded.description
    chosen = chosen_layers(layer, described.layers)
    use_compute_threads()
    result = hf.trace(loaded, text)
    layers = {index: layer_stages(result.layers[index]) for index in chosen}
    shown = len(result.tokens)  # a real model reads up to its context (and the app's longest text): said
    cut = t("page.cut_model", lang, total=shown + result.cut, shown=shown, name=described.name) if result.cut else ""
    made = [
        (t("page.made.model", lang), _model_facts(described, lang)),
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


def _model_facts(described, lang: str) -> str:
    """What the model is: a Hub model by its id, a folder's as the learner's own (its family is
    only its architecture: a folder of gpt2's kind is not GPT-2)."""
    from gpt_core.hf.hub import is_folder

    d = described
    if is_folder(d.name):
        facts = {"layers": d.layers, "heads": d.heads, "kv_heads": d.kv_heads, "head_dim": d.head_dim}
        return t("page.made.folder", lang, folder=d.name, family=d.family, **facts)
    return f"{d.name} ({d.family}, {d.layers} × {d.heads} heads, h_kv = {d.kv_heads}, d = {d.head_dim})"


def _show_own(attention, module, x, tokens, layer, **view) -> View:
    """The page of weights a learner has (``attention``) or of their own ``module`` on ``x``."""
    from gpt_core import GivenWeights, ModuleSource

    if attention is not None:
        if tokens is None:
            raise ValueError("attention= needs tokens, the T tokens its weights are over")
        return source_view(GivenWeights(attention, tokens), layer, **view)
    if x is None:
        raise ValueError("module= needs x, its input (1, T, C)")
    return source_view(ModuleSource(module, x, tokens), 0, **view)


def model_command_line(text: str, name: str, layers: list[int], lang: str, output: str = "attention.html") -> str:
    layer = ",".join(str(index) for index in layers)
    return shlex.join(
        ["seeing-attention", "export", "--model", name, "--layer", layer, "--text", text, "--lang", lang, "-o", output]
    )


def model_app_link(text: str, name: str, layer: int, lang: str, app_url: str = DEFAULT_APP_URL) -> str:
    """The playground's link to the model's layer (``block`` is 1-based there)."""
    from gpt_core.hf import short_name

    values = {**state.defaults(), "text": text, "weights": short_name(name), "block": layer + 1}
    query = {**state.to_query(values), "lang": lang}
    return f"{app_url.rstrip('/')}/playground?{urllib.parse.urlencode(query)}"


def view_params(stage: str, head: int, row: int | None, col: int | None) -> dict[str, Any]:
    """The page's chosen view as the playground's link names it: the head (1-based there),
    the overview's stage where the playground has it, the row and column of the chosen cell."""
    view = {"head": head + 1, "row": -1 if row is None else row, "col": col or 0}
    return {**view, "stage": stage} if stage in STAGES else view


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
        (t("page.made.settings", lang), _settings(config)),
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


def _settings(config) -> str:
    """``name=value, …`` of a ``PlaygroundConfig`` or of a source's settings (a mapping)."""
    items = config.items() if isinstance(config, dict) else ((f.name, getattr(config, f.name)) for f in fields(config))
    return ", ".join(f"{name}={value!r}" for name, value in items)


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
    made = [(t("page.made.settings", lang), _settings(source.settings))] if source.settings else []
    made.append((t("page.made.model", lang), _made_by(source, block, lang)))
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


def _made_by(source, block: int, lang: str) -> str:
    """What computed the numbers: a source the reader sets up says it in its facts (random
    weights: their seed; its settings are listed above), a model by its name and sizes."""
    about, facts = source.description, source.facts()
    if source.settings and facts is not None:
        return t(facts.key, lang, **facts.values)
    unit = t(f"page.unit.{source.words.unit}", lang)
    return (
        f"{about.name} ({about.family}, {unit} {block} of {about.layers}, h = {about.heads}, "
        f"h_kv = {about.kv_heads}, d = {about.head_dim})"
    )


def export(path: str | Path, text: str = BOOK_EXAMPLE, **settings) -> View:
    """``show(text, **settings)`` written to ``path``."""
    view = show(text, **settings)
    view.save_html(path)
    return view
