"""The three sources of attention behind ``gpt_core.source.AttentionSource``.

- ``RandomWeights``: the book's layer with weights drawn from a seed (``gpt_core.playground``);
- ``TinyGPT``: the book's character GPT, shipped or trained in a session (``gpt_core.explore``);
- ``HubModel``: a Hugging Face causal model traced through transformers' attention registry
  (``gpt_core.hf``).

Each says what a page needs to show it (its notes, facts, reproduction, settings, snapshots
and words); a new kind of source is one class with the same members and one line where a
registry lists it (``gpt_core.registry``; the app's is made in ui/shared/sources.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import cached_property
from typing import Any

import torch

from . import hf
from .attention import Trace
from .data import CharVocabulary
from .errors import InputError
from .explore import generate_characters, induction_text, trace_model
from .hf.hub import is_folder
from .kv_cache import CachedGeneration, generate_characters_cached
from .model import GPT
from .numbers import format_bytes, parameters_text
from .odds import next_token
from .playground import MAX_TOKENS, PlaygroundConfig, trace_attention
from .reproduction import checkpoint_code, hub_code, hub_command, random_code, random_command
from .source import (
    INDUCTION_TOKENS,
    Capabilities,
    Description,
    GeneratedToken,
    NextStep,
    Note,
    NoVocabulary,
    Reproduction,
    Token,
    Words,
)
from .tokens import display_label, display_labels, tokenize, truncate_text

FLOAT_BYTES = 4
# A playground link's names for random weights' settings (``PlaygroundConfig``'s fields).
RANDOM_SETTINGS = {
    "heads": "heads",
    "head_dim": "head_dim",
    "input_dim": "input_dim",
    "seed": "seed",
    "tokenizer": "tok",
    "positional": "pos",
    "dropout": "dropout",
    "training": "mode",
    "qkv_bias": "bias",
    "scale": "scale",
}
Snapshots = Callable[[], Mapping[int, Any]]  # step -> (layers, h, T, T) weights, read when asked


def left_out_note(trace: Trace) -> list[Note]:
    """The characters a source could not read, shown as a page draws them."""
    if not trace.left_out:
        return []
    shown = " ".join(display_labels(list(trace.left_out)))
    return [Note("pg.left_out", {"chars": shown, "count": len(trace.left_out)}, literal=("chars",))]


class NoSnapshots:
    """A source that kept no attention while it trained (or never trained)."""

    def snapshot_steps(self) -> tuple[int, ...]:
        return ()

    def snapshot(self, step: int) -> tuple[torch.Tensor, str]:
        raise InputError("no_snapshot", step=step)


class RandomWeights(NoSnapshots, NoVocabulary):
    """One attention layer whose weights follow a seed: the reader chooses every setting."""

    capabilities = Capabilities(generates=False)
    words = Words(unit="block", token="token")
    default_prompt = "the cat sat on the mat"
    no_vocabulary = "random weights have no vocabulary"
    no_token_ids = "random weights read no token ids"

    def __init__(self, config: PlaygroundConfig, name: str = "random") -> None:
        self.config, self.name = config, name
        self.identity = (name, config)
        self.settings = {link: getattr(config, field) for field, link in RANDOM_SETTINGS.items()}

    @cached_property
    def description(self) -> Description:
        c = (
            self.config
        )  # counted, not built (the page asks on every rerun): W_q, W_k, W_v (and biases), W_o and its bias
        parameters = (
            3 * (c.embedding_dim * c.output_dim + (c.output_dim if c.qkv_bias else 0)) + c.output_dim**2 + c.output_dim
        )
        return Description(
            name=self.name,
            family="random",
            layers=1,
            heads=c.heads,
            kv_heads=c.heads,
            head_dim=c.head_dim,
            hidden=c.embedding_dim,
            context=MAX_TOKENS,
            parameters=parameters,
            reads=MAX_TOKENS,
            bytes=parameters * FLOAT_BYTES,
            scale=c.scale,
            dropout=c.dropout,
            training=c.training,
            qkv_bias=c.qkv_bias,
        )

    def trace(self, text: str) -> Trace:
        """The text's first ``MAX_TOKENS`` tokens through the layer (the rest is counted as cut)."""
        used = truncate_text(text, self.config.tokenizer, MAX_TOKENS)
        result = trace_attention(used, self.config)
        cut = len(tokenize(text, self.config.tokenizer)) - len(result.tokens)
        layer = result.trace
        return Trace(result.tokens, result.labels, used, [layer], [layer.weights], cut=max(0, cut))

    def notes(self, trace: Trace) -> list[Note]:
        if not trace.cut:
            return []
        return [Note("pg.truncated", {"total": trace.total_tokens, "shown": len(trace.tokens)})]

    def facts(self) -> Note | None:
        """Where its weights come from (its sizes are its settings, each with its control)."""
        return Note("page.made.random", {"seed": self.config.seed}, level="caption")

    def reproduction(self, text: str, layer: int) -> Reproduction:
        return Reproduction(random_code(text, self.config), random_command(text, self.config))


class TinyGPT:
    """The book's character-level GPT: a shipped model of the heads experiment, or one a
    session trained. ``serial``: never reused by another model; ``checkpoint``: the file its
    weights are in, for the code that reproduces its numbers; ``snapshots``: the attention it
    kept while it trained (the shipped models), read when asked."""

    capabilities = Capabilities(generates=True)
    words = Words(unit="block", token="character")
    settings: Mapping[str, Any] = {}

    def __init__(
        self,
        model: GPT,
        vocabulary: CharVocabulary,
        name: str,
        default_prompt: str,
        serial: int = 0,
        checkpoint: str = "model.pt",
        snapshots: Snapshots | None = None,
        snapshot_prompt: str = "",
    ) -> None:
        self.model, self.vocabulary, self.name = model, vocabulary, name
        self.default_prompt = default_prompt
        self.identity = (name, serial)
        self.checkpoint = checkpoint
        self._snapshots, self._snapshot_prompt = snapshots, snapshot_prompt

    @cached_property
    def description(self) -> Description:
        config = self.model.config
        parameters = self.model.parameter_count()
        return Description(
            name=self.name,
            family="gpt",
            layers=config.blocks,
            heads=config.heads,
            kv_heads=config.heads,
            head_dim=config.embedding_dim // config.heads,
            hidden=config.embedding_dim,
            context=config.context_length,
            parameters=parameters,
            reads=config.context_length,
            vocabulary=len(self.vocabulary.chars),
            bytes=parameters * FLOAT_BYTES,
            qkv_bias=self.model.blocks[0].attention.query_layer.bias is not None,
        )

    def trace(self, text: str) -> Trace:
        """The characters it knows of ``text``, at most its context (the rest is noted)."""
        return trace_model(self.model, self.vocabulary, text)

    def notes(self, trace: Trace) -> list[Note]:
        cut = [Note("context_cut", {"context": self.description.context, "cut": trace.cut})] if trace.cut else []
        return left_out_note(trace) + cut

    def facts(self) -> Note | None:
        d = self.description
        values = {"h": d.heads, "d": d.head_dim, "C": d.width, "context": d.context, "chars": d.vocabulary}
        return Note("pg.trained_facts", values, level="caption")

    def reproduction(self, text: str, layer: int) -> Reproduction:
        return Reproduction(checkpoint_code(self.checkpoint, text, layer))

    def snapshot_steps(self) -> tuple[int, ...]:
        return tuple(sorted(self._snapshots())) if self._snapshots is not None else ()

    def snapshot(self, step: int) -> tuple[torch.Tensor, str]:
        if step not in self.snapshot_steps():
            raise InputError("no_snapshot", step=step)
        weights = torch.as_tensor(self._snapshots()[step])
        return weights, self._snapshot_prompt[: weights.shape[-1]]

    def decode(self, token_ids: list[int]) -> str:
        return self.vocabulary.decode(token_ids)

    def next_step(self, text: str) -> NextStep:
        step = next_token(self.model, self.vocabulary, text)
        return NextStep(step.logits, step.rows, display_labels(list(step.context)))

    def generate(
        self,
        text: str,
        n: int,
        temperature: float = 0.0,
        seed: int = 0,
        top_k: int | None = None,
        max_seconds: float | None = None,
    ) -> list[GeneratedToken]:
        steps = generate_characters(self.model, self.vocabulary, text, n, temperature, seed, top_k, max_seconds)
        return [
            GeneratedToken(self._character(step.char), display_labels(list(step.context)), step.rows) for step in steps
        ]

    def generate_cached(
        self,
        text: str,
        n: int,
        temperature: float = 0.0,
        seed: int = 0,
        top_k: int | None = None,
        max_seconds: float | None = None,
    ) -> CachedGeneration:
        """With the cache, as ``generate`` chooses: up to its context (a cache cannot slide)."""
        args = (temperature, seed, top_k, max_seconds)
        return generate_characters_cached(self.model, self.vocabulary, text, n, *args)

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


class HubModel(NoSnapshots):
    """A Hugging Face causal model (``hf.load``), shared read-only by every session.
    ``serial``: never reused by another loaded copy (one evicted and loaded again)."""

    capabilities = Capabilities(generates=True)
    words = Words(unit="layer", token="token")
    settings: Mapping[str, Any] = {}

    def __init__(self, real: Any, name: str, default_prompt: str, serial: int = 0) -> None:
        self.real, self.name, self.default_prompt = real, name, default_prompt
        self.identity = (name, serial)

    @cached_property
    def description(self) -> Description:
        d = self.real.description
        return replace(
            d,
            name=self.name,
            reads=min(d.context or hf.MAX_REAL_TOKENS, hf.MAX_REAL_TOKENS),
            vocabulary=self.real.spelling.size,
            padding=max(0, self._rows() - self.real.spelling.size),
        )

    def _rows(self) -> int:
        """The rows of its output embedding: the ids it has scores for."""
        return int(self.real.model.get_output_embeddings().weight.shape[0])

    def trace(self, text: str) -> Trace:
        """The tokens the model reads of ``text`` (at most its context or the app's limit)."""
        return hf.trace(self.real, text)

    def notes(self, trace: Trace) -> list[Note]:
        cut = [Note("real.cut", {"tokens": len(trace.tokens), "cut": trace.cut})] if trace.cut else []
        return cut + [Note("real.tokens_note", {"name": self.name}, level="caption")]

    def facts(self) -> Note | None:
        d = self.description
        values = {
            "family": d.family,
            "layers": d.layers,
            "h": d.heads,
            "h_kv": d.kv_heads,
            "d": d.head_dim,
            "C": d.width,
            "hidden": d.hidden,
            "context": d.context,
            "params": parameters_text(d.parameters),
            "size": format_bytes(d.bytes),
            "name": self.name,
        }
        # A folder's model is the learner's own: its family is only its architecture.
        key = "real.facts.folder" if is_folder(self.real.description.name) else "real.facts"
        return Note(key, values, level="caption")

    def reproduction(self, text: str, layer: int) -> Reproduction:
        return Reproduction(hub_code(self.name, text, layer), hub_command(self.name, text, [layer]))

    def decode(self, token_ids: list[int]) -> str:
        return self.real.tokenizer.decode(token_ids)

    def next_step(self, text: str) -> NextStep:
        """The scores of the tokenizer's ids after ``text`` (a padded embedding's extra rows are no
        token: ``padding`` counts them). A text longer than it reads: its last tokens."""
        if not text.strip():
            raise InputError("empty_text")
        ids = self.real.tokenizer(text, add_special_tokens=True)["input_ids"]
        reads = self.description.reads
        traced = (
            hf.trace(self.real, text, logits=True)
            if len(ids) <= reads
            else hf.trace_ids(self.real, ids[-reads:], logits=True)
        )
        rows = torch.stack([weights[0, :, -1, :] for weights in traced.weights])
        scores = traced.logits[0, -1].float()
        logits = hf.token_logits(self.real, scores)
        return NextStep(logits, rows, traced.labels, scores.numel() - logits.numel())

    def generate(
        self,
        text: str,
        n: int,
        temperature: float = 0.0,
        seed: int = 0,
        top_k: int | None = None,
        max_seconds: float | None = None,
    ) -> list[GeneratedToken]:
        steps = hf.generate_tokens(self.real, text, n, temperature, seed, top_k, max_seconds)
        return [GeneratedToken(self._token(step.piece), step.context, step.rows) for step in steps]

    def generate_cached(
        self,
        text: str,
        n: int,
        temperature: float = 0.0,
        seed: int = 0,
        top_k: int | None = None,
        max_seconds: float | None = None,
    ) -> CachedGeneration:
        """With the model's own cache (transformers' ``DynamicCache``), as ``generate`` chooses."""
        return hf.generate_cached(self.real, text, n, temperature, seed, top_k, max_seconds)

    @staticmethod
    def _token(piece) -> Token:
        return Token(piece.token_id, piece.label, piece.text if piece.kind == "text" else None)

    def token(self, token_id: int) -> Token:
        return self._token(hf.piece(self.real, token_id))

    def induction_weights(self) -> tuple[list[torch.Tensor], int, int]:
        weights, offset = hf.induction_weights(self.real)
        return weights, INDUCTION_TOKENS, offset
