"""What a page says of how it was made, and how to make it again: the settings, the model
that computed the numbers, the ``seeing-attention export`` command and the playground's link
to the same view."""

from __future__ import annotations

import shlex
import urllib.parse
from dataclasses import fields
from typing import Any

from gpt_core import STAGES, PlaygroundConfig
from links import playground as state
from string_table import t

DEFAULT_APP_URL = "http://localhost:8501"


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


def settings_text(config) -> str:
    """``name=value, …`` of a ``PlaygroundConfig`` or of a source's settings (a mapping)."""
    items = config.items() if isinstance(config, dict) else ((f.name, getattr(config, f.name)) for f in fields(config))
    return ", ".join(f"{name}={value!r}" for name, value in items)


def model_facts(described, lang: str) -> str:
    """What the model is: a Hub model by its id, a folder's as the learner's own (its family is
    only its architecture: a folder of gpt2's kind is not GPT-2)."""
    from gpt_core.hf.hub import is_folder

    d = described
    if is_folder(d.name):
        facts = {"layers": d.layers, "heads": d.heads, "kv_heads": d.kv_heads, "head_dim": d.head_dim}
        return t("page.made.folder", lang, folder=d.name, family=d.family, **facts)
    return f"{d.name} ({d.family}, {d.layers} × {d.heads} heads, h_kv = {d.kv_heads}, d = {d.head_dim})"


def made_by(source, block: int, lang: str) -> str:
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
