"""The three sources of attention behind ``gpt_core.source.AttentionSource``.

- ``RandomWeights``: the book's layer with weights drawn from a seed (``gpt_core.playground``);
- ``TinyGPT``: the book's character GPT, shipped or trained in a session (``gpt_core.explore``);
- ``HubModel``: a Hugging Face causal model traced through transformers' attention registry
  (``gpt_core.hf``).

A new model family is one more class here with the same methods, and one line where the app
registers its sources (ui/shared/sources.py).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import torch

from . import hf
from .attention import Trace
from .data import CharVocabulary
from .errors import InputError
from .explore import generate_characters, induction_text, trace_model
from .model import GPT
from .odds import next_token
from .playground import MAX_TOKENS, PlaygroundConfig, trace_attention
from .source import INDUCTION_TOKENS, Capabilities, Description, GeneratedToken, LayerSizes, NextStep, Token
from .tokens import display_label, display_labels, tokenize, truncate_text

FLOAT_BYTES = 4


class RandomWeights:
    """One attention layer whose weights follow a seed: the reader chooses every setting."""

    capabilities = Capabilities(layers=False, generates=False, snapshots=False, retrainable=False, chooses_heads=True)
    default_prompt = "the cat sat on the mat"

    def __init__(self, config: PlaygroundConfig, name: str = "random") -> None:
        self.config, self.name = config, name
        self.identity = (name, config)

    @cached_property
    def description(self) -> Description:
        c = self.config  # counted, not built (the page asks on every rerun): W_q, W_k, W_v (and biases), W_o and its bias
        parameters = 3 * (c.embedding_dim * c.output_dim + (c.output_dim if c.qkv_bias else 0)) + c.output_dim**2 + c.output_dim
        return Description(
            name=self.name, family="random", origin="seed", unit="block", layers=1, heads=c.heads, kv_heads=c.heads,
            head_dim=c.head_dim, hidden=c.embedding_dim, context=MAX_TOKENS, reads=MAX_TOKENS, vocabulary=0,
            parameters=parameters, bytes=parameters * FLOAT_BYTES,
        )  # fmt: skip

    def trace(self, text: str) -> Trace:
        """The text's first ``MAX_TOKENS`` tokens through the layer (the rest is counted as cut)."""
        used = truncate_text(text, self.config.tokenizer, MAX_TOKENS)
        result = trace_attention(used, self.config)
        cut = len(tokenize(text, self.config.tokenizer)) - len(result.tokens)
        layer = result.trace
        return Trace(result.tokens, result.labels, used, [layer], [layer.weights], cut=max(0, cut))

    def layer_sizes(self, layer: int) -> PlaygroundConfig:
        return self.config

    def decode(self, token_ids: list[int]) -> str:
        raise NotImplementedError("random weights have no vocabulary")

    def next_step(self, text: str) -> NextStep:
        raise NotImplementedError("random weights have no vocabulary to predict from")

    def generate(self, text: str, n: int, temperature: float = 0.0, seed: int = 0) -> list[GeneratedToken]:
        raise NotImplementedError("random weights have no vocabulary to generate from")

    def token(self, token_id: int) -> Token:
        raise NotImplementedError("random weights have no vocabulary")

    def induction_weights(self) -> tuple[list[torch.Tensor], int, int]:
        raise NotImplementedError("random weights read no token ids")


class TinyGPT:
    """The book's character-level GPT: a shipped model of the heads experiment, or one a
    session trained (``retrainable``). ``serial``: never reused by another model."""

    def __init__(self, model: GPT, vocabulary: CharVocabulary, name: str, default_prompt: str, serial: int = 0,
                 snapshots: bool = False, retrainable: bool = False) -> None:  # fmt: skip
        self.model, self.vocabulary, self.name = model, vocabulary, name
        self.default_prompt = default_prompt
        self.identity = (name, serial)
        self.capabilities = Capabilities(layers=True, generates=True, snapshots=snapshots, retrainable=retrainable,
                                         chooses_heads=False)  # fmt: skip

    @cached_property
    def description(self) -> Description:
        config = self.model.config
        parameters = self.model.parameter_count()
        return Description(
            name=self.name, family="gpt", origin="checkpoint", unit="block", layers=config.blocks, heads=config.heads,
            kv_heads=config.heads, head_dim=config.embedding_dim // config.heads, hidden=config.embedding_dim,
            context=config.context_length, reads=config.context_length, vocabulary=len(self.vocabulary.chars),
            parameters=parameters, bytes=parameters * FLOAT_BYTES, tokens_word="characters",
        )  # fmt: skip

    def trace(self, text: str) -> Trace:
        """The characters it knows of ``text``, at most its context (the rest is noted)."""
        return trace_model(self.model, self.vocabulary, text)

    def layer_sizes(self, layer: int) -> LayerSizes:
        """Its sizes as they are, whatever the playground's limits for random weights."""
        d = self.description
        bias = self.model.blocks[layer].attention.query_layer.bias is not None
        return LayerSizes(d.heads, d.head_dim, d.hidden, "char", d.kv_heads, qkv_bias=bias)

    def decode(self, token_ids: list[int]) -> str:
        return self.vocabulary.decode(token_ids)

    def next_step(self, text: str) -> NextStep:
        step = next_token(self.model, self.vocabulary, text)
        return NextStep(step.logits, step.rows, display_labels(list(step.context)))

    def generate(self, text: str, n: int, temperature: float = 0.0, seed: int = 0) -> list[GeneratedToken]:
        steps = generate_characters(self.model, self.vocabulary, text, n, temperature, seed)
        return [
            GeneratedToken(self._character(step.char), display_labels(list(step.context)), step.rows) for step in steps
        ]

    def _character(self, char: str) -> Token:
        return Token(self.vocabulary.encode(char)[0], display_label(char), char)

    def token(self, token_id: int) -> Token:
        return self._character(self.vocabulary.decode([token_id]))

    def induction_weights(self) -> tuple[list[torch.Tensor], int, int]:
        """The induction test in characters: as many as the context allows (at most
        ``INDUCTION_TOKENS``), twice."""
        n = min(INDUCTION_TOKENS, self.model.config.context_length // 2)
        traced = trace_model(self.model, self.vocabulary, induction_text(self.vocabulary, n))
        return traced.weights, n, 0


class HubModel:
    """A Hugging Face causal model (``hf.load``), shared read-only by every session.
    ``serial``: never reused by another loaded copy (one evicted and loaded again)."""

    capabilities = Capabilities(layers=True, generates=True, snapshots=False, retrainable=False, chooses_heads=False)

    def __init__(self, real: Any, name: str, default_prompt: str, serial: int = 0) -> None:
        self.real, self.name, self.default_prompt = real, name, default_prompt
        self.identity = (name, serial)

    @cached_property
    def description(self) -> Description:
        d = self.real.description
        return Description(
            name=self.name, family=d.family, origin="hub", unit="layer", layers=d.layers, heads=d.heads,
            kv_heads=d.kv_heads, head_dim=d.head_dim, hidden=d.hidden, context=d.context,
            reads=min(d.context or hf.MAX_REAL_TOKENS, hf.MAX_REAL_TOKENS), vocabulary=self.real.spelling.size,
            parameters=d.parameters, bytes=d.bytes, padding=max(0, self._rows() - self.real.spelling.size),
        )  # fmt: skip

    def _rows(self) -> int:
        """The rows of its output embedding: the ids it has scores for."""
        return int(self.real.model.get_output_embeddings().weight.shape[0])

    def trace(self, text: str) -> Trace:
        """The tokens the model reads of ``text`` (at most its context or the app's limit)."""
        return hf.trace(self.real, text)

    def layer_sizes(self, layer: int) -> LayerSizes:
        d = self.description
        return LayerSizes(d.heads, d.head_dim, d.hidden, self.name, d.kv_heads)

    def decode(self, token_ids: list[int]) -> str:
        return self.real.tokenizer.decode(token_ids)

    def next_step(self, text: str) -> NextStep:
        """The scores of the tokenizer's ids after ``text`` (a padded embedding's extra rows are no
        token: ``padding`` counts them). A text longer than it reads: its last tokens."""
        if not text.strip():
            raise InputError("empty_text")
        ids = self.real.tokenizer(text, add_special_tokens=True)["input_ids"]
        reads = self.description.reads
        traced = hf.trace(self.real, text, logits=True) if len(ids) <= reads else \
            hf.trace_ids(self.real, ids[-reads:], logits=True)  # fmt: skip
        rows = torch.stack([weights[0, :, -1, :] for weights in traced.weights])
        scores = traced.logits[0, -1].float()
        logits = hf.token_logits(self.real, scores)
        return NextStep(logits, rows, traced.labels, scores.numel() - logits.numel())

    def generate(self, text: str, n: int, temperature: float = 0.0, seed: int = 0) -> list[GeneratedToken]:
        steps = hf.generate_tokens(self.real, text, n, temperature, seed)
        return [GeneratedToken(self._token(step.piece), step.context, step.rows) for step in steps]

    @staticmethod
    def _token(piece) -> Token:
        return Token(piece.token_id, piece.label, piece.text if piece.kind == "text" else None)

    def token(self, token_id: int) -> Token:
        return self._token(hf.piece(self.real, token_id))

    def induction_weights(self) -> tuple[list[torch.Tensor], int, int]:
        weights, offset = hf.induction_weights(self.real)
        return weights, INDUCTION_TOKENS, offset
