"""A tiny GPT built around the same MultiHeadAttention the playground shows."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch
import torch.nn.functional as F
from torch import nn

from .attention import AttentionTrace, MultiHeadAttention
from .errors import InputError
from .seeding import dropout, initialize, seeded_generator

FEED_FORWARD_MULTIPLIER = 4  # the hidden layer of each block's MLP is 4 × embedding_dim


@dataclass(frozen=True)
class GPTConfig:
    """The shape of a GPT. Frozen: safe as a cache key; validated on creation."""

    vocab_size: int  # distinct tokens (characters)
    context_length: int = 32  # the longest sequence the model reads (the book's 32)
    embedding_dim: int = 64  # C; each head gets embedding_dim / heads channels
    heads: int = 2  # the book's HEADS
    blocks: int = 2  # transformer blocks stacked
    dropout: float = 0.0  # in attention weights, after attention and after the MLP

    def __post_init__(self) -> None:
        for name in ("vocab_size", "context_length", "embedding_dim", "heads", "blocks"):
            value = getattr(self, name)
            if value < 1:
                raise InputError("dim_too_small", name=name, value=value)
        if self.embedding_dim % self.heads != 0:
            raise InputError("heads_not_divisor", output_dim=self.embedding_dim, num_heads=self.heads)
        if not 0.0 <= self.dropout < 1.0:
            raise InputError("dropout_range", dropout=self.dropout)

    @property
    def head_dim(self) -> int:
        return self.embedding_dim // self.heads


@dataclass
class GPTTrace:
    """A prompt's trace: one AttentionTrace per block, in order."""

    layers: list[AttentionTrace] = field(default_factory=list)


class Block(nn.Module):
    """Pre-LayerNorm transformer block: x + attention(LN(x)), then x + MLP(LN(x))."""

    def __init__(self, config: GPTConfig) -> None:
        super().__init__()
        C = config.embedding_dim
        self.attention_norm = nn.LayerNorm(C)
        self.attention = MultiHeadAttention(
            C, C, config.context_length, config.dropout, config.heads, fused=True
        )  # fused: the fast kernel when not traced
        self.feed_forward_norm = nn.LayerNorm(C)
        self.feed_forward = nn.Sequential(
            nn.Linear(C, FEED_FORWARD_MULTIPLIER * C),
            nn.GELU(),
            nn.Linear(FEED_FORWARD_MULTIPLIER * C, C),
            nn.Dropout(config.dropout),
        )
        self.residual_dropout = nn.Dropout(config.dropout)

    def forward(
        self, x: torch.Tensor, trace: AttentionTrace | None = None, generator: torch.Generator | None = None
    ) -> torch.Tensor:
        """x: (B, T, C) -> (B, T, C). ``generator`` draws every dropout mask in training mode."""
        attended = self.attention(self.attention_norm(x), trace=trace, generator=generator)
        x = x + dropout(attended, self.residual_dropout, generator)
        hidden = self.feed_forward[:-1](self.feed_forward_norm(x))  # (B, T, C) before its dropout
        return x + dropout(hidden, self.feed_forward[-1], generator)


class GPT(nn.Module):
    """Token and position embeddings, blocks, a final LayerNorm and the language-model head.

    The weights are drawn from a generator seeded with ``seed`` (the same numbers as after
    ``torch.manual_seed(seed)``), never from torch's global random state.
    """

    def __init__(self, config: GPTConfig, seed: int = 0, device: str = "cpu") -> None:
        """``device="meta"``: the layers' shapes only, no memory and no numbers (to count
        what a config describes before building it)."""
        super().__init__()
        self.config = config
        with torch.device("meta"):  # nothing drawn from torch's global state: see initialize
            self.token_embedding = nn.Embedding(config.vocab_size, config.embedding_dim)
            self.position_embedding = nn.Embedding(config.context_length, config.embedding_dim)
            self.embedding_dropout = nn.Dropout(config.dropout)
            self.blocks = nn.ModuleList(Block(config) for _ in range(config.blocks))
            self.final_norm = nn.LayerNorm(config.embedding_dim)
            self.lm_head = nn.Linear(config.embedding_dim, config.vocab_size)
        if device != "meta":
            self.to_empty(device=device)
            initialize(self, seeded_generator(seed))

    def forward(
        self,
        ids: torch.Tensor,
        targets: torch.Tensor | None = None,
        trace: GPTTrace | None = None,
        generator: torch.Generator | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        """ids: (B, T) token ids -> logits (B, T, vocab), and the mean cross-entropy with
        ``targets`` (B, T) when given. ``trace`` collects every block's attention;
        ``generator`` draws the dropout masks in training mode."""
        if ids.dim() != 2:
            raise InputError("input_rank", ndim=ids.dim(), shape=tuple(ids.shape))
        B, T = ids.shape
        if T > self.config.context_length:
            raise InputError("sequence_too_long", tokens=T, context_length=self.config.context_length)
        positions = torch.arange(T, device=ids.device)
        embedded = self.token_embedding(ids) + self.position_embedding(positions)  # (B, T, C)
        x = dropout(embedded, self.embedding_dropout, generator)
        if trace is not None:
            trace.layers.clear()
        for block in self.blocks:
            layer_trace = AttentionTrace() if trace is not None else None
            x = block(x, trace=layer_trace, generator=generator)
            if trace is not None:
                trace.layers.append(layer_trace)
        logits = self.lm_head(self.final_norm(x))  # (B, T, vocab)
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(B * T, -1), targets.reshape(B * T))
        return logits, loss

    def parameter_count(self) -> int:
        return sum(p.numel() for p in self.parameters())
