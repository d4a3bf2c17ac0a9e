"""One interface for every source of attention, so that no page knows which it is showing.

Five kinds of source stand behind it: random weights (the book's layer, from a seed and
settings), the book's tiny GPT (shipped, or trained in a session) and a Hugging Face causal
model (``gpt_core.sources``); a learner's own attention module (``gpt_core.module_source``)
and attention weights a learner already has (``gpt_core.given``). Each reads a text into
tokens, traces every layer into one ``Trace`` (a list of ``AttentionTrace``, what the figures
draw), describes itself (``Description``: sizes only) and says what a page needs to show it:
its notes on a trace (``Note``: a string-table key and its values), its facts, how to
reproduce its numbers (``Reproduction``), the settings a reader may change, its snapshots
during training and its words. What it can do is in ``Capabilities``; what costs much is a
rule on its sizes (``trace_work``, ``grid_fits``). A page asks a source, never which kind it
is; the head metrics and induction scores below are computed for any source.

    source = RandomWeights(PlaygroundConfig(heads=4, head_dim=8))
    trace = source.trace("the cat sat")      # trace.layers[0].weights: (1, 4, T, T)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import torch

from .attention import STAGES, Trace
from .errors import InputError
from .explore import head_metrics, induction_scores
from .kv_cache import CachedGeneration

INDUCTION_TOKENS = 24  # the random sequence of the induction test, repeated once
# A trace costing more multiply-adds than this is heavy work: it waits for a turn in the
# server's heavy lane (a real model's first trace), so that light reruns are never stalled.
HEAVY_WORK = 20_000_000
# A grid of every head of every layer fits one screen up to this many heads; past it a page
# shows a map of them (a real model's 12 × 12) with the chosen head beside it.
GRID_HEADS = 64


@dataclass(frozen=True)
class Capabilities:
    """What a source can do beyond tracing a text (a page offers a view only where it can)."""

    generates: bool  # next-token odds and generation (a vocabulary and an output head)
    stages: tuple[str, ...] = STAGES  # the stages its traces have (given weights: only "weights")


@dataclass(frozen=True)
class Note:
    """A sentence a page shows beside a source's views: a string-table key and its values
    (the page translates it); ``level`` is how much it matters to the reader."""

    key: str
    values: Mapping[str, Any] = field(default_factory=dict)
    level: str = "warning"  # "warning": what was cut or left out; "caption": a remark
    literal: tuple[str, ...] = ()  # the values that are the reader's own text (shown as it is, never as markup)


@dataclass(frozen=True)
class Words:
    """What a source's parts are called: the endings of string-table keys ("ex.col.block")."""

    unit: str = "block"  # one of its layers: "block" (the book's GPT) or "layer" (a real model)
    token: str = "token"  # one of what it reads: "token", or "character" (the tiny GPT)


@dataclass(frozen=True)
class Reproduction:
    """How a reader gets the same numbers again, away from the app."""

    code: str  # Python that recomputes them (gpt_core, and transformers for a real model)
    command: str | None = None  # the shell command that writes the offline page; None: none can


@dataclass(frozen=True)
class Description:
    """What a source is, in the book's letters: its sizes (the one description of a model)."""

    name: str  # how a link names it ("random", "h4", "gpt2", a folder's last part; a loaded model: as asked)
    family: str  # "random", "gpt" (the book's tiny GPT), transformers' model_type ("gpt2", "qwen2", …), a class
    layers: int
    heads: int  # h: query heads
    kv_heads: int  # h_kv: key/value heads (fewer than h: grouped-query attention)
    head_dim: int  # d
    hidden: int  # the width of the stream into each attention (its input)
    context: int  # the most tokens it was built for (0: not known)
    parameters: int
    reads: int = 0  # the most tokens of a text the app reads with it (its context, or the app's limit)
    vocabulary: int = 0  # the tokens (characters) it can read; 0: any text (random weights)
    bytes: int = 0  # its weights in memory
    download_bytes: int = 0  # the files of its folder (a Hugging Face model)
    padding: int = 0  # ids past its tokenizer (a padded embedding's extra rows): never predicted nor generated
    scale: bool = True  # scores ÷ √d before the mask
    dropout: float = 0.0  # p of the dropout on the weights
    training: bool = False  # the dropout applied (training mode)
    qkv_bias: bool = False  # the query, key and value projections have biases

    @property
    def groups(self) -> int:
        """Query heads per key/value head (1 without grouped-query attention)."""
        return self.heads // self.kv_heads

    @property
    def width(self) -> int:
        """C = h × d: the queries' width before the split."""
        return self.heads * self.head_dim

    output_dim = width  # the name the book's layer gives C


def trace_work(description: Description, tokens: int) -> int:
    """About how many multiply-adds a trace of ``tokens`` tokens costs: every weight once per
    token, and each head's T × T scores and weighted sums in every layer."""
    d = description
    return d.parameters * tokens + 2 * d.layers * d.heads * tokens * tokens * d.head_dim


def grid_fits(description: Description) -> bool:
    """Whether every head of every layer fits one grid on a screen (else a map of them)."""
    return description.layers * description.heads <= GRID_HEADS


@dataclass(frozen=True)
class Token:
    """One token of a source's vocabulary as a page shows it and adds it to a text."""

    token_id: int
    label: str  # visible (whitespace and newlines drawn, ``<id N>`` for an id with no token)
    text: str | None  # what it adds to a text; None: not text (a byte of a character, a special token, no token)


@dataclass(frozen=True)
class NextStep:
    """A text through a source: the next token's logits and the attention behind them."""

    logits: torch.Tensor | None  # (vocabulary,) over the ids that are tokens; None: the source gave none
    rows: torch.Tensor  # (layers, h, T) the last query's weights in every layer and head
    context: list[str]  # the labels of the tokens read
    padding: int = 0  # scores of ids that are no token (a padded embedding's extra rows), left out


@dataclass(frozen=True)
class GeneratedToken:
    """One generated token and the attention that chose it."""

    token: Token
    context: list[str]  # the labels of the tokens the source read to choose it
    rows: torch.Tensor  # (layers, h, T_ctx): the last query's softmax weights over that context


@runtime_checkable
class AttentionSource(Protocol):
    """A source of attention: what every page speaks (see the module's docstring)."""

    description: Description
    capabilities: Capabilities
    words: Words
    default_prompt: str  # a text it reads well
    # Names exactly these numbers (its name with a serial never reused, or its settings): what
    # is kept under it (a trace, a figure) is its own, for every session that shows it.
    identity: tuple
    # The settings a reader may change, by their link names, with their values now (random
    # weights: heads, head_dim, seed, tokenizer…; a model: none, its sizes are its own).
    settings: Mapping[str, Any]

    def notes(self, trace: Trace) -> list[Note]:
        """What a page says beside ``trace``: what was cut or left out of the text, how it
        reads a text, which stages it lacks."""
        ...

    def facts(self) -> Note | None:
        """One line of what it is, in the book's letters (None: its settings say it all)."""
        ...

    def reproduction(self, text: str, layer: int) -> Reproduction:
        """How to recompute layer ``layer``'s (0-based) numbers of ``text`` away from the app."""
        ...

    def snapshot_steps(self) -> tuple[int, ...]:
        """The steps of its training whose attention was kept (none for most sources)."""
        ...

    def snapshot(self, step: int) -> tuple[torch.Tensor, str]:
        """The kept weights (layers, h, T, T) at ``step`` and the prompt they were taken on."""
        ...

    def decode(self, token_ids: list[int]) -> str:
        """The text of ``token_ids``."""
        ...

    def trace(self, text: str) -> Trace:
        """Read ``text`` and trace every layer. Raises ``InputError`` for a text it cannot read."""
        ...

    def next_step(self, text: str) -> NextStep:
        """The next token's logits after ``text`` (only where ``capabilities.generates``)."""
        ...

    def generate(
        self,
        text: str,
        n: int,
        temperature: float = 0.0,
        seed: int = 0,
        top_k: int | None = None,
        max_seconds: float | None = None,
    ) -> list[GeneratedToken]:
        """Up to ``n`` tokens after ``text``: greedy at temperature 0, else sampled (from the
        ``top_k`` likeliest, when given) with a generator seeded by ``seed``; fewer once the next
        would not be done within ``max_seconds`` (only where ``capabilities.generates``)."""
        ...

    def generate_cached(
        self,
        text: str,
        n: int,
        temperature: float = 0.0,
        seed: int = 0,
        top_k: int | None = None,
        max_seconds: float | None = None,
    ) -> CachedGeneration:
        """Up to ``n`` tokens after ``text`` with the key/value cache, step by step: each step's
        query row over the cache, the cache after it and the token chosen (the same tokens as
        ``generate`` with the same settings, while the text fits the context), and the cache's
        cost (``gpt_core.kv_cache``). Raises ``InputError("no_generation")`` where it does not
        generate."""
        ...

    def token(self, token_id: int) -> Token:
        """Token ``token_id`` of its vocabulary as a page shows it."""
        ...

    def induction_weights(self) -> tuple[list[torch.Tensor], int, int]:
        """Every layer's weights (B, h, T, T) on the induction test (``n`` random tokens, then
        the same ``n`` again, from position ``offset``): (weights, n, offset)."""
        ...


class NoVocabulary:
    """The refusals of a source with no vocabulary and no output head (random weights, a
    module, given weights): ``generates`` is False, and each call that needs one says why."""

    no_vocabulary: str  # "random weights have no vocabulary": the words every refusal starts from
    no_token_ids: str  # why it cannot run the induction test on token ids
    description: Description

    def decode(self, token_ids: list[int]) -> str:
        raise NotImplementedError(self.no_vocabulary)

    def token(self, token_id: int) -> Token:
        raise NotImplementedError(self.no_vocabulary)

    def next_step(self, text: str) -> NextStep:
        raise NotImplementedError(f"{self.no_vocabulary} to predict from")

    def generate(
        self,
        text: str,
        n: int,
        temperature: float = 0.0,
        seed: int = 0,
        top_k: int | None = None,
        max_seconds: float | None = None,
    ) -> list[GeneratedToken]:
        raise NotImplementedError(f"{self.no_vocabulary} to generate from")

    def generate_cached(
        self,
        text: str,
        n: int,
        temperature: float = 0.0,
        seed: int = 0,
        top_k: int | None = None,
        max_seconds: float | None = None,
    ) -> CachedGeneration:
        raise InputError("no_generation", name=self.description.name)

    def induction_weights(self) -> tuple[list[torch.Tensor], int, int]:
        raise NotImplementedError(self.no_token_ids)


def generate_with_attention(
    source: AttentionSource, text: str, n: int, temperature: float = 0.0, seed: int = 0
) -> list[GeneratedToken]:
    """Continue ``text`` by up to ``n`` tokens of ``source`` (greedy at temperature 0, else
    sampled, seeded by ``seed``), keeping for each new token the attention row of the last
    query in every layer and head: the one generation function for every source."""
    return source.generate(text, n, temperature, seed)


def source_induction_scores(source: AttentionSource) -> torch.Tensor:
    """(layers, h) induction scores of ``source``: on its induction test, the mean weight each
    query of the second copy puts on the token after its earlier occurrence."""
    weights, n, offset = source.induction_weights()
    return torch.stack([induction_scores(layer[0], n, offset) for layer in weights])


def layer_metrics(trace: Trace, induction: torch.Tensor | None = None) -> list[dict[str, torch.Tensor]]:
    """Per layer, every head's metrics (``gpt_core.explore.head_metrics``), with its induction
    score where ``induction`` (layers, h) is given."""
    metrics = [head_metrics(weights[0]) for weights in trace.weights]
    if induction is not None:
        metrics = [values | {"induction": induction[layer]} for layer, values in enumerate(metrics)]
    return metrics
