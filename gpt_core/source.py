"""One interface for every source of attention, so that no page knows which it is showing.

Three kinds of source stand behind it (``gpt_core.sources``): random weights (the book's
layer, from a seed and settings), the book's tiny GPT (shipped, or trained in a session) and
a Hugging Face causal model. Each reads a text into tokens (noting what it left out or cut),
traces every layer into one ``Trace`` (a list of ``AttentionTrace``, what the figures draw),
gives the next token's odds and generation with attention rows, describes itself
(``Description``) and states what it can do (``Capabilities``). A page tests capabilities,
never classes; the head metrics and induction scores below are computed for any source.

    source = RandomWeights(PlaygroundConfig(heads=4, head_dim=8))
    trace = source.trace("the cat sat")      # trace.layers[0].weights: (1, 4, T, T)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import torch

from .attention import Trace
from .explore import head_metrics, induction_scores
from .playground import LayerSizes, PlaygroundConfig

INDUCTION_TOKENS = 24  # the random sequence of the induction test, repeated once


@dataclass(frozen=True)
class Capabilities:
    """What a source can do beyond tracing a text (a page offers a view only where it can)."""

    layers: bool  # a model of layers to choose among (random weights are one layer)
    generates: bool  # next-token odds and generation
    snapshots: bool  # attention at steps of its training (the shipped heads experiment)
    retrainable: bool  # trained in this session: the Train page can train it again
    chooses_heads: bool  # the reader sets h, d, the seed and the tokenizer (random weights)


@dataclass(frozen=True)
class Description:
    """What a source is, in the book's letters."""

    name: str  # how a link names it ("random", "h4", "session", "gpt2", a folder's last part)
    family: str  # "random", "gpt" (the book's tiny GPT), or transformers' model_type ("gpt2", "qwen2", …)
    origin: str  # where its weights come from: "seed" (drawn again from it), "checkpoint", "hub"
    unit: str  # what one of its layers is called: "block" (the book's GPT, random weights) or "layer"
    layers: int
    heads: int  # h: query heads
    kv_heads: int  # h_kv: key/value heads (fewer than h: grouped-query attention)
    head_dim: int  # d
    hidden: int  # the width of the stream into each attention (its input)
    context: int  # the most tokens it was built for (0: not known)
    reads: int  # the most tokens of a text the app reads with it (its context, or the app's limit)
    vocabulary: int  # the tokens (characters) it can read; 0: any text (random weights)
    parameters: int
    bytes: int = 0  # its weights in memory
    padding: int = 0  # ids past its tokenizer (a padded embedding's extra rows): never predicted nor generated
    tokens_word: str = "tokens"  # what it reads a text into: "tokens", or "characters" (the tiny GPT)

    @property
    def groups(self) -> int:
        """Query heads per key/value head (1 without grouped-query attention)."""
        return self.heads // self.kv_heads

    @property
    def width(self) -> int:
        """C = h × d: the queries' width before the split."""
        return self.heads * self.head_dim


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
    default_prompt: str  # a text it reads well
    # Names exactly these numbers (its name with a serial never reused, or its settings): what
    # is kept under it (a trace, a figure) is its own, for every session that shows it.
    identity: tuple

    def decode(self, token_ids: list[int]) -> str:
        """The text of ``token_ids``."""
        ...

    def trace(self, text: str) -> Trace:
        """Read ``text`` and trace every layer. Raises ``InputError`` for a text it cannot read."""
        ...

    def layer_sizes(self, layer: int) -> LayerSizes | PlaygroundConfig:
        """Layer ``layer``'s (0-based) sizes, as a view of one layer reads them."""
        ...

    def next_step(self, text: str) -> NextStep:
        """The next token's logits after ``text`` (only where ``capabilities.generates``)."""
        ...

    def generate(self, text: str, n: int, temperature: float = 0.0, seed: int = 0) -> list[GeneratedToken]:
        """Up to ``n`` tokens after ``text``: greedy at temperature 0, else sampled with a
        generator seeded by ``seed`` (only where ``capabilities.generates``)."""
        ...

    def token(self, token_id: int) -> Token:
        """Token ``token_id`` of its vocabulary as a page shows it."""
        ...

    def induction_weights(self) -> tuple[list[torch.Tensor], int, int]:
        """Every layer's weights (B, h, T, T) on the induction test (``n`` random tokens, then
        the same ``n`` again, from position ``offset``): (weights, n, offset)."""
        ...


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
