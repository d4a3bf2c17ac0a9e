"""Generation with the key/value cache in a notebook: ``generate(model=..., text=..., n=...)``
returns each step with its numbers (``gpt_core.kv_cache``'s) and renders the stepper, the same
page that ``save_html`` writes, offline from one file (``figures.cache_page``).

    generation = sa.generate(model="gpt2", text="The cat sat", n=5)
    generation.steps[0].token_id, generation.steps[0].layers[0].weights   # (h, t)
    generation.steps[0].layers[0].keys.shape                              # (h_kv, t, d)
    generation.save_html("generation.html")

The model is chosen as ``show`` chooses it (a Hub id or folder, ``(model, tokenizer)``, a model
``gpt_core.hf.load`` returned) or is a ``gpt_core`` source that generates (the book's tiny GPT,
``gpt_core.sources.TinyGPT``); one that cannot generate is refused in words."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from figures.cache_page import CacheView, cache_page, step_entry
from gpt_core import InputError, PlaygroundConfig
from gpt_core.kv_cache import CacheCost, CachedGeneration, CacheStep
from gpt_core.reproduce import use_compute_threads
from string_table import LANGUAGES, t
from string_table.figure_words import figure_words

from .limits import plotly_js
from .view import TITLE_CHARS, package_version, title_text

MOST_STEPS = 256  # steps one call generates
MOST_PAIRS = 48  # steps × layers a page embeds (two figures each): the file stays a few MB
MOST_CELLS = 1_500_000  # the matrices' cells a page embeds (heads × t × t summed over what it holds)
WORDS = ("lead", "previous", "next", "step", "shown", "cache")


@dataclass
class Generation:
    """A text continued with the cache: gpt_core's ``CachedGeneration`` (every number) and the
    page that steps through it (``html``)."""

    generation: CachedGeneration
    html: str
    prompt: str
    lang: str
    model: str

    @property
    def steps(self) -> tuple[CacheStep, ...]:
        """Each step: ``token_id``, ``label``, ``position``, ``length`` (t), and per layer
        ``keys``/``values`` (h_kv, t, d), ``weights`` (h, t), ``query`` (h, d)."""
        return self.generation.steps

    @property
    def text(self) -> str:
        """The prompt and what the chosen tokens add to it."""
        return self.prompt + "".join(step.text or "" for step in self.steps)

    @property
    def cost(self) -> CacheCost:
        return self.generation.cost

    @property
    def token_ids(self) -> list[int]:
        return self.generation.token_ids

    def save_html(self, path: str | Path) -> Path:
        """Write the page, one file that works offline."""
        path = Path(path)
        path.write_text(self.html, encoding="utf-8")
        return path

    def __repr__(self) -> str:
        chosen = "".join(step.label for step in self.steps)
        return (
            f"<seeing_attention.Generation: {len(self.steps)} steps of {self.model} after "
            f"{self.prompt[:TITLE_CHARS]!r}: {chosen[:TITLE_CHARS]!r}; "
            f"{self.cost.bytes_per_token} cache bytes a token>"
        )

    def _repr_html_(self) -> str:
        """In a notebook: the page in a frame of its own, as ``View`` renders."""
        from .notebook import frame_html

        return frame_html(self.html, t("page.gen.title", self.lang, text=title_text(self.prompt)))


def generating_source(model: Any, text: str):
    """The source of ``model``: a ``gpt_core`` source as it is; an id or folder loaded, a
    ``(model, tokenizer)`` adopted, a loaded model wrapped, as ``show`` takes them; random
    weights (``None``) and other modules as sources that refuse to generate."""
    from gpt_core.sources import HubModel, RandomWeights

    if model is None:
        return RandomWeights(PlaygroundConfig())  # show's default: it generates nothing, and says so
    if hasattr(model, "generate_cached") and hasattr(model, "description"):
        return model
    from gpt_core import hf

    if isinstance(model, tuple):
        model = hf.adopt(*model)
    elif isinstance(model, str | Path):
        model = hf.load(str(model))
    elif isinstance(model, torch.nn.Module):
        raise InputError("no_generation", name=type(model).__name__)
    if not isinstance(model, hf.RealModel):
        choices = "a Hugging Face id or folder, (model, tokenizer), a gpt_core source"
        raise InputError("unknown_choice", name="model", choices=choices, value=type(model).__name__)
    return HubModel(model, model.description.name, text)


def generate(
    model: Any = None,
    text: str = "",
    n: int = 8,
    *,
    temperature: float = 0.0,
    seed: int = 0,
    top_k: int | None = None,
    lang: str = "en",
) -> Generation:
    """``text`` continued by ``model`` for up to ``n`` tokens with the key/value cache: greedy by
    default, else drawn at ``temperature`` (``top_k``: the k likeliest only) with a generator
    seeded by ``seed``, as the app draws. A model reads at most its context; the book's tiny GPT
    stops when its context is full."""
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {sorted(LANGUAGES)}, not {lang!r}")
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MOST_STEPS:
        raise InputError("out_of_range", name="n", low=1, high=MOST_STEPS, value=n)
    source = generating_source(model, text)
    use_compute_threads()
    with torch.no_grad():
        generation = source.generate_cached(text, n, temperature=temperature, seed=seed, top_k=top_k)
    name = source.description.name
    choice = (
        t("page.gen.sampled", lang, temperature=temperature, seed=seed) if temperature else t("page.gen.greedy", lang)
    )
    drawn = f", top_k={top_k}" if top_k is not None else ""
    call = f"seeing_attention.generate(model={name!r}, text={text!r}, n={n}, temperature={temperature}, seed={seed}{drawn})"
    made = [
        (t("page.made.model", lang), name),
        (t("page.gen.choice", lang), choice),
        (t("page.gen.call", lang), call),
        ("", t("page.made.versions", lang, torch=torch.__version__, version=package_version())),
    ]
    page = cache_page(page_data(generation, text, lang, made), plotly_js=plotly_js(), lang=lang)
    return Generation(generation, page, text, lang, name)


def shown_parts(generation: CachedGeneration) -> tuple[int, int]:
    """How many steps and layers a page holds: at most ``MOST_PAIRS`` of them, and their
    matrices at most ``MOST_CELLS`` cells (every step when it can, the first layers)."""
    steps, layers = len(generation.steps), len(generation.steps[0].layers)
    layers_shown = min(layers, max(1, MOST_PAIRS // steps))
    steps_shown, cells = 0, 0
    for step in generation.steps[: max(1, MOST_PAIRS // layers_shown)]:
        cells += layers_shown * step.layers[0].weights.shape[0] * step.length**2
        if steps_shown and cells > MOST_CELLS:
            break
        steps_shown += 1
    return steps_shown, layers_shown


def page_data(generation: CachedGeneration, text: str, lang: str, made: list[tuple[str, str]]) -> dict:
    """What the page's script reads: its words, the layers' names and each step shown."""
    steps_shown, layers_shown = shown_parts(generation)
    words = {name: t(f"page.gen.{name}", lang) for name in WORDS}
    words |= {"layer": t("page.layer_choice", lang), "made": t("page.made", lang), "offline": t("page.offline", lang)}
    words["no_plotly"] = t("page.no_plotly", lang)
    steps, all_layers = len(generation.steps), len(generation.steps[0].layers)
    bound = (steps_shown, layers_shown) != (steps, all_layers)
    words["bound"] = (
        t(
            "page.gen.bound",
            lang,
            steps=steps_shown,
            total=steps,
            layers=layers_shown,
            all_layers=all_layers,
            most=MOST_PAIRS,
        )
        if bound
        else ""
    )
    return {
        "title": t("page.gen.title", lang, text=title_text(text)),
        "words": words,
        "layers": [t("page.layer", lang, layer=index + 1) for index in range(layers_shown)],
        "steps": [_step_data(generation, index, layers_shown, lang) for index in range(steps_shown)],
        "made": [list(pair) for pair in made],
        "step": 0,
    }


def _step_data(generation: CachedGeneration, index: int, layers: int, lang: str) -> dict:
    step = generation.steps[index]
    labels = generation.labels[: step.length]
    words = figure_words(lang)
    entries = []
    for layer in range(layers):
        cached = step.layers[layer]
        view = CacheView(
            weights=cached.weights.detach().float().numpy(),
            matrix=generation.cached_matrix(index, layer).detach().float().numpy(),
            cache_shape=tuple(cached.keys.shape),
            cache_bytes=generation.cost.cache_bytes(step.length),
        )
        layer_name = t("page.layer", lang, layer=layer + 1)
        rows = t("page.gen.rows", lang, step=index + 1, layer=layer_name, t=step.length)
        entries.append(step_entry(view, labels, rows, t("page.gen.matrix", lang, t=step.length), words))
    return {"token": step.label, "query": labels[step.position], "position": step.position, "layers": entries}
