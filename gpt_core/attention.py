"""Multi-head causal self-attention, as in the book, with an optional full trace.

Shape letters are used the same way everywhere:
B batch, T tokens (sequence length), C = output_dim = h * d channels, h heads, d head_dim.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields

import torch
import torch.nn.functional as F
from torch import nn

from .errors import InputError
from .seeding import dropout

# The four stages of a head's attention, named as the fields of AttentionTrace, in lesson order.
STAGES: tuple[str, ...] = ("scores", "scaled_scores", "masked_scores", "weights")
# A detailed view may add the weights after dropout (training mode) as a fifth stage.
DETAIL_STAGES: tuple[str, ...] = (*STAGES, "dropped_weights")


@dataclass(frozen=True)
class ShapeStep:
    """One step of the split/merge, recorded from the real tensors."""

    name: str  # what the step does, e.g. "split heads"
    code: str  # the operation as code, e.g. ".view(B, T, h, d)"
    before: tuple[int, ...]  # shape of the tensor going in
    after: tuple[int, ...]  # shape of the tensor coming out
    letters: str  # what each dimension of ``after`` is, e.g. "B T h d"


@dataclass
class AttentionTrace:
    """Every intermediate tensor of one forward pass, one field per lesson step.

    Pass an empty ``AttentionTrace()`` to ``MultiHeadAttention.forward(x, trace=...)``;
    the fields are filled with detached tensors. Shapes are given beside each field.
    """

    x: torch.Tensor | None = None  # (B, T, C_in) the input
    queries: torch.Tensor | None = None  # (B, T, C) Q before the split
    keys: torch.Tensor | None = None  # (B, T, C)
    values: torch.Tensor | None = None  # (B, T, C)
    queries_heads: torch.Tensor | None = None  # (B, h, T, d) Q per head
    keys_heads: torch.Tensor | None = None  # (B, h, T, d)
    values_heads: torch.Tensor | None = None  # (B, h, T, d)
    scores: torch.Tensor | None = None  # (B, h, T, T) raw Q Kᵀ
    scaled_scores: torch.Tensor | None = None  # (B, h, T, T) ÷ √d (or unchanged if scale off)
    masked_scores: torch.Tensor | None = None  # (B, h, T, T) −inf above the diagonal
    weights: torch.Tensor | None = None  # (B, h, T, T) softmax, rows sum to 1
    dropped_weights: torch.Tensor | None = None  # (B, h, T, T) after dropout
    context_heads: torch.Tensor | None = None  # (B, h, T, d) weights @ V per head
    context: torch.Tensor | None = None  # (B, T, C) heads merged back
    output: torch.Tensor | None = None  # (B, T, C_out) after the output projection
    shape_steps: list[ShapeStep] = field(default_factory=list)

    def tensors(self) -> dict[str, torch.Tensor]:
        """The recorded tensors by field name, in lesson order (unset fields left out)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if isinstance(getattr(self, f.name), torch.Tensor)}


# The split/merge as the book writes it: (name, code, tensor in, tensor out, letters of the
# tensor out). "scale" is rewritten when scaling is off.
_SHAPE_STEPS: tuple[tuple[str, str, str, str, str], ...] = (
    ("project Q, K, V", "query_layer(x)", "x", "queries", "B T C"),
    ("split heads", ".view(B, T, h, d)", "queries", "queries_split", "B T h d"),
    ("heads first", ".transpose(1, 2)", "queries_split", "queries_heads", "B h T d"),
    ("scores", "queries @ keys.transpose(-2, -1)", "queries_heads", "scores", "B h T T"),
    ("scale", "/ math.sqrt(d)", "scores", "scaled_scores", "B h T T"),
    ("causal mask", ".masked_fill(mask, -inf)", "scaled_scores", "masked_scores", "B h T T"),
    ("softmax", "torch.softmax(dim=-1)", "masked_scores", "weights", "B h T T"),
    ("dropout", "dropout(weights)", "weights", "dropped_weights", "B h T T"),
    ("context", "weights @ values", "dropped_weights", "context_heads", "B h T d"),
    ("tokens first", ".transpose(1, 2)", "context_heads", "context_tokens", "B T h d"),
    ("merge heads", ".contiguous().view(B, T, C)", "context_tokens", "context", "B T C"),
    ("output projection", "output_layer(context)", "context", "output", "B T C_out"),
)
UNSCALED_CODE = "(no scaling)"


def _fill_trace(trace: AttentionTrace, steps: dict[str, torch.Tensor], scaled: bool) -> None:
    """Record the shape steps and a detached copy of every traced tensor."""
    trace.shape_steps.clear()
    for name, code, before, after, letters in _SHAPE_STEPS:
        if name == "scale" and not scaled:
            code = UNSCALED_CODE
        trace.shape_steps.append(ShapeStep(name, code, tuple(steps[before].shape), tuple(steps[after].shape), letters))
    for f in fields(trace):
        if f.name in steps:
            setattr(trace, f.name, steps[f.name].detach())


def attend(
    queries: torch.Tensor,
    keys: torch.Tensor,
    values: torch.Tensor,
    num_heads: int,
    *,
    scale: bool = True,
    future: torch.Tensor | None = None,
    dropout_layer: nn.Module | None = None,
    generator: torch.Generator | None = None,
) -> dict[str, torch.Tensor]:
    """The book's steps from the projections Q, K, V (each (B, T, C)) to the merged context:
    split into ``num_heads`` heads, scores, scale, causal mask, softmax, dropout, weighted sum,
    merge. One named tensor per step (the trace's fields and the reshaped views between).
    ``future``: the (T, T) cells a query may not see (default: above the diagonal)."""
    B, T, C = queries.shape
    h = num_heads
    d = C // h
    queries_split = queries.view(B, T, h, d)  # (B, T, h, d)
    queries_heads = queries_split.transpose(1, 2)  # (B, h, T, d)
    keys_heads = keys.view(B, T, h, d).transpose(1, 2)  # (B, h, T, d)
    values_heads = values.view(B, T, h, d).transpose(1, 2)  # (B, h, T, d)

    scores = queries_heads @ keys_heads.transpose(-2, -1)  # (B, h, T, T)
    scaled_scores = scores / math.sqrt(d) if scale else scores
    if future is None:
        future = torch.ones(T, T, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    masked_scores = scaled_scores.masked_fill(future, float("-inf"))  # (B, h, T, T)
    weights = torch.softmax(masked_scores, dim=-1)  # (B, h, T, T)
    dropped_weights = dropout(weights, dropout_layer, generator) if dropout_layer is not None else weights

    context_heads = dropped_weights @ values_heads  # (B, h, T, d)
    context_tokens = context_heads.transpose(1, 2)  # (B, T, h, d)
    context = context_tokens.contiguous().view(B, T, C)  # (B, T, C)
    return {
        "queries_split": queries_split,
        "queries_heads": queries_heads,
        "keys_heads": keys_heads,
        "values_heads": values_heads,
        "scores": scores,
        "scaled_scores": scaled_scores,
        "masked_scores": masked_scores,
        "weights": weights,
        "dropped_weights": dropped_weights,
        "context_heads": context_heads,
        "context_tokens": context_tokens,
        "context": context,
    }


def trace_of_steps(steps: dict[str, torch.Tensor], scaled: bool = True) -> AttentionTrace:
    """An ``AttentionTrace`` of the named steps of ``MultiHeadAttention``'s readable path."""
    trace = AttentionTrace()
    _fill_trace(trace, steps, scaled)
    return trace


class MultiHeadAttention(nn.Module):
    """Causal multi-head self-attention with the book's constructor and submodule names.

    A ``state_dict`` saved from the book's ``MultiHeadAttention`` loads unchanged:
    ``query_layer``, ``key_layer``, ``value_layer``, ``output_layer``, ``dropout`` and the
    ``mask`` buffer (1 above the diagonal, shape context_length × context_length).

    ``scale=False`` skips the division by √head_dim, so a learner can watch the softmax
    saturate; it is not part of the state.

    ``fused=True`` lets an untraced forward use torch's fused
    ``scaled_dot_product_attention`` (faster training; the same numbers, proven by
    ``tests/unit/test_attention.py``). A traced forward always takes the readable path.
    """

    def __init__(
        self,
        input_dim: int,
        output_dim: int,
        context_length: int,
        dropout: float,
        num_heads: int,
        qkv_bias: bool = False,
        *,
        scale: bool = True,
        fused: bool = False,
    ) -> None:
        super().__init__()
        if num_heads < 1:
            raise InputError("heads_too_few", num_heads=num_heads)
        for name, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if value < 1:
                raise InputError("dim_too_small", name=name, value=value)
        if context_length < 1:
            raise InputError("context_too_small", context_length=context_length)
        if output_dim % num_heads != 0:
            raise InputError("heads_not_divisor", output_dim=output_dim, num_heads=num_heads)
        if not 0.0 <= dropout < 1.0:
            raise InputError("dropout_range", dropout=dropout)

        self.input_dim = input_dim
        self.output_dim = output_dim
        self.context_length = context_length
        self.num_heads = num_heads
        self.head_dim = output_dim // num_heads
        self.scale = scale
        self.fused = fused

        self.query_layer = nn.Linear(input_dim, output_dim, bias=qkv_bias)
        self.key_layer = nn.Linear(input_dim, output_dim, bias=qkv_bias)
        self.value_layer = nn.Linear(input_dim, output_dim, bias=qkv_bias)
        self.output_layer = nn.Linear(output_dim, output_dim)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.empty(context_length, context_length))
        self.reset_buffers()

    def reset_buffers(self) -> None:
        """Fill the mask: 1 marks a future position a query may not look at. A module built
        on the meta device holds no numbers: its mask is filled once it has memory (``initialize``)."""
        if self.mask.is_meta:
            return
        with torch.no_grad():
            self.mask.copy_(torch.triu(torch.ones_like(self.mask), diagonal=1))

    def forward(
        self, x: torch.Tensor, trace: AttentionTrace | None = None, generator: torch.Generator | None = None
    ) -> torch.Tensor:
        """x: (B, T, input_dim) -> (B, T, output_dim). Fills ``trace`` when one is given.
        ``generator`` draws the dropout mask in training mode (else torch's global state)."""
        self._check_input(x)
        random_dropout = self.training and self.dropout.p > 0 and generator is not None
        if self.fused and trace is None and not random_dropout:
            return self._fused_forward(x)
        steps = self._readable_forward(x, generator)
        if trace is not None:
            _fill_trace(trace, steps, scaled=self.scale)
        return steps["output"]

    def _check_input(self, x: torch.Tensor) -> None:
        if x.dim() != 3:
            raise InputError("input_rank", ndim=x.dim(), shape=tuple(x.shape))
        _, T, width = x.shape
        if width != self.input_dim:
            raise InputError("input_width", input_dim=self.input_dim, width=width, shape=tuple(x.shape))
        if T > self.context_length:
            raise InputError("sequence_too_long", tokens=T, context_length=self.context_length)

    def _readable_forward(self, x: torch.Tensor, generator: torch.Generator | None) -> dict[str, torch.Tensor]:
        """The book's computation, one named tensor per step, in order (the trace's fields
        plus the two reshaped views in between)."""
        queries = self.query_layer(x)  # (B, T, C)
        keys = self.key_layer(x)  # (B, T, C)
        values = self.value_layer(x)  # (B, T, C)
        T = x.shape[1]
        steps = {"x": x, "queries": queries, "keys": keys, "values": values}
        steps.update(
            attend(
                queries,
                keys,
                values,
                self.num_heads,
                scale=self.scale,
                future=self.mask.bool()[:T, :T],
                dropout_layer=self.dropout,
                generator=generator,
            )
        )
        steps["output"] = self.output_layer(steps["context"])  # (B, T, C)
        return steps

    def _fused_forward(self, x: torch.Tensor) -> torch.Tensor:
        """The same computation through torch's fused kernel (no intermediates to show; its
        dropout, if any, draws from torch's global state: forward() avoids it with a generator)."""
        B, T, _ = x.shape
        h, d, C = self.num_heads, self.head_dim, self.output_dim
        queries = self.query_layer(x).view(B, T, h, d).transpose(1, 2)  # (B, h, T, d)
        keys = self.key_layer(x).view(B, T, h, d).transpose(1, 2)  # (B, h, T, d)
        values = self.value_layer(x).view(B, T, h, d).transpose(1, 2)  # (B, h, T, d)
        context_heads = F.scaled_dot_product_attention(
            queries,
            keys,
            values,
            is_causal=True,
            dropout_p=self.dropout.p if self.training else 0.0,
            scale=None if self.scale else 1.0,
        )
        context = context_heads.transpose(1, 2).contiguous().view(B, T, C)  # (B, T, C)
        return self.output_layer(context)


@dataclass
class Trace:
    """One text through a source: the tokens it read and every layer's attention."""

    tokens: list[str]  # what each token stands for
    labels: list[str]  # a visible label per token (a leading space as ␣, a byte piece with its character)
    text_used: str  # the text the tokens cover (the readable part of the text, up to the cut)
    layers: Sequence[AttentionTrace]  # one per layer (a real model's are built when asked for)
    weights: list[torch.Tensor]  # per layer (B, h, T, T): the softmax weights, kept
    cut: int = 0  # tokens of the text after the ones read (over the context or the app's limit)
    left_out: tuple[str, ...] = ()  # characters the source cannot read (left out, sorted)
    token_ids: list[int] = field(default_factory=list)

    @property
    def total_tokens(self) -> int:
        """The tokens of the text, read or cut."""
        return len(self.tokens) + self.cut
