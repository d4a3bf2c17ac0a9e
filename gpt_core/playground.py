"""One entry point for the playground: text in, a full attention trace out.

Random-weight mode: the weights come from a seed, and each token's input vector is a
function of (seed, token) alone, so the same text gives the same numbers on any machine
with the same torch, and a shared link reproduces exactly what its sender saw.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import torch

from .attention import AttentionTrace, MultiHeadAttention
from .errors import InputError
from .seeding import build_seeded, seeded_generator
from .source import Description
from .tokens import TOKENIZERS, Tokenizer, display_labels, tokenize

MAX_TOKENS = 128  # longer text is cut to this many tokens
MAX_HEADS = 16
MAX_HEAD_DIM = 64
MAX_INPUT_DIM = 1024
MAX_SEED = 2**31 - 1
POSITION_BASE = 10_000.0  # the sinusoid base of "Attention Is All You Need"


@dataclass(frozen=True)
class PlaygroundConfig:
    """Everything that decides the numbers of one playground view. Frozen: a cache key."""

    heads: int = 4
    head_dim: int = 8
    input_dim: int | None = None  # None: equal to C = heads * head_dim
    seed: int = 0
    tokenizer: Tokenizer = "char"
    positional: bool = True
    dropout: float = 0.0
    training: bool = False  # dropout acts only in training mode
    qkv_bias: bool = False
    scale: bool = True  # divide the scores by √head_dim

    def __post_init__(self) -> None:
        _check_range("heads", self.heads, 1, MAX_HEADS)
        _check_range("head_dim", self.head_dim, 1, MAX_HEAD_DIM)
        if self.input_dim is not None:
            _check_range("input_dim", self.input_dim, 1, MAX_INPUT_DIM)
        _check_range("seed", self.seed, 0, MAX_SEED)
        if self.tokenizer not in TOKENIZERS:
            raise InputError("unknown_choice", name="tokenizer", choices=list(TOKENIZERS), value=self.tokenizer)
        if not 0.0 <= self.dropout < 1.0:
            raise InputError("dropout_range", dropout=self.dropout)

    @property
    def output_dim(self) -> int:
        """C = heads × head_dim."""
        return self.heads * self.head_dim

    @property
    def embedding_dim(self) -> int:
        """The width of each input vector (input_dim, or C when not set)."""
        return self.input_dim if self.input_dim is not None else self.output_dim


def _check_range(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise InputError("out_of_range", name=name, low=low, high=high, value=value)


@dataclass
class PlaygroundTrace:
    """The trace of one playground pass, with the tokens it was computed for."""

    tokens: list[str]  # the tokens actually used (after the cap)
    labels: list[str]  # a visible label per token, same positions
    total_tokens: int  # tokens in the text before the cap
    config: PlaygroundConfig | Description  # the sizes: random weights' settings, or a source's description
    trace: AttentionTrace  # (build_attention(config) rebuilds the layer: its weights follow the seed)

    @property
    def truncated(self) -> bool:
        return self.total_tokens > len(self.tokens)


def token_vector(token: str, dim: int, seed: int) -> torch.Tensor:
    """A fixed random vector (dim,) for ``token``: the same for the same (token, seed)."""
    key = zlib.crc32(token.encode("utf-8"), seed & 0xFFFFFFFF)
    generator = torch.Generator().manual_seed(key)
    return torch.randn(dim, generator=generator)


def positional_encoding(length: int, dim: int) -> torch.Tensor:
    """Sinusoidal positions (length, dim), the deterministic choice of the original paper."""
    positions = torch.arange(length, dtype=torch.float32).unsqueeze(1)  # (T, 1)
    rates = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32) * (-math.log(POSITION_BASE) / dim))
    encoding = torch.zeros(length, dim)
    encoding[:, 0::2] = torch.sin(positions * rates)
    encoding[:, 1::2] = torch.cos(positions * rates[: dim // 2])
    return encoding


def embed(tokens: list[str], dim: int, seed: int, positional: bool) -> torch.Tensor:
    """Input vectors (1, T, dim): token vectors, plus positions when ``positional``. A token
    that comes again has the same vector: each distinct token's is drawn once."""
    vectors = {token: token_vector(token, dim, seed) for token in dict.fromkeys(tokens)}
    x = torch.stack([vectors[token] for token in tokens])  # (T, dim)
    if positional:
        x = x + positional_encoding(len(tokens), dim)
    return x.unsqueeze(0)  # (B=1, T, dim)


def build_attention(config: PlaygroundConfig, context_length: int = MAX_TOKENS) -> MultiHeadAttention:
    """The random-weight attention layer for ``config`` (weights drawn from a generator
    seeded with the seed: the same numbers as after ``torch.manual_seed(seed)``)."""
    module = build_seeded(
        lambda: MultiHeadAttention(
            config.embedding_dim,
            config.output_dim,
            context_length,
            config.dropout,
            config.heads,
            qkv_bias=config.qkv_bias,
            scale=config.scale,
        ),
        seeded_generator(config.seed),
    )
    module.train(config.training)
    return module


def trace_attention(text: str, config: PlaygroundConfig, max_tokens: int = MAX_TOKENS) -> PlaygroundTrace:
    """Tokenize ``text``, embed it, and run one traced attention pass.

    Text longer than ``max_tokens`` tokens is cut (``result.truncated`` says so).
    Raises ``InputError`` (a message a student can read) for empty text.
    """
    if not text.strip():
        raise InputError("empty_text")
    all_tokens = tokenize(text, config.tokenizer)
    if not all_tokens:
        raise InputError("no_tokens", tokenizer=config.tokenizer)
    tokens = all_tokens[:max_tokens]
    module = build_attention(config, context_length=max_tokens)
    x = embed(tokens, config.embedding_dim, config.seed, config.positional)
    trace = AttentionTrace()
    with torch.no_grad():  # dropout's mask, when training, follows the seed too
        module(x, trace=trace, generator=seeded_generator(config.seed))
    return PlaygroundTrace(
        tokens=tokens,
        labels=display_labels(tokens),
        total_tokens=len(all_tokens),
        config=config,
        trace=trace,
    )
