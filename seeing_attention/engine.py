"""From the notebook's call to a ``View``: ``show`` chooses the source (random weights with
the playground's settings, a Hugging Face model, a learner's own module or weights) and
``export`` writes its page. The page's HTML is ``offline_page``'s, what made it ``made``'s."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from gpt_core import InputError, PlaygroundConfig, trace_attention
from gpt_core.reproduce import use_compute_threads
from string_table import LANGUAGES

from .limits import DEFAULT_TOKENS, most_tokens
from .limits import page_bytes as page_bytes  # the playground says a page's size before its download
from .made import DEFAULT_APP_URL
from .made import app_link as app_link  # the links a page holds, as they were named here
from .made import model_app_link as model_app_link
from .model_view import model_view
from .offline_page import cut_note, page_html
from .offline_page import playground_page_html as playground_page_html  # the playground's download
from .source_view import source_view
from .view import View, layer_stages

BOOK_EXAMPLE = "动手学大模型"


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
    view = {"lang": lang, "stage": stage, "head": head, "row": row, "col": col}
    if attention is not None or module is not None:
        return _show_own(attention, module, x, tokens, layer, **view)
    if model is not None:
        return model_view(text, model, layer, app_url=app_url, **view)
    # The playground's settings, in PlaygroundConfig's order of fields (its names are show's).
    config = PlaygroundConfig(
        heads, head_dim, input_dim, seed, tokenizer, positional, dropout, training, qkv_bias, scale
    )
    return _show_random(text, config, max_tokens, app_url=app_url, **view)


def _show_random(text: str, config: PlaygroundConfig, max_tokens: int, *, lang: str, app_url: str, **view) -> View:
    """The page of random weights with the playground's ``config``: at most ``max_tokens`` of
    ``text`` (up to what a page of its heads holds)."""
    ceiling = most_tokens(config.heads)
    if not isinstance(max_tokens, int) or not 1 <= max_tokens <= ceiling:
        raise InputError("out_of_range", name="max_tokens", low=1, high=ceiling, value=max_tokens)
    use_compute_threads()  # the app's thread count: the same numbers, bit for bit
    with torch.no_grad():
        result = trace_attention(text, config, max_tokens=max_tokens)
    cut = cut_note(len(result.tokens), result.total_tokens, ceiling, lang)
    page = page_html(result, text, lang, app_url=app_url, cut=cut, **view)
    layers = {0: layer_stages(result.trace)}
    return View(html=page, result=result, text=text, lang=lang, layers=layers, config=config, note=cut)


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


def export(path: str | Path, text: str = BOOK_EXAMPLE, **settings) -> View:
    """``show(text, **settings)`` written to ``path``."""
    view = show(text, **settings)
    view.save_html(path)
    return view
