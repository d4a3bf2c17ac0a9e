"""A learner's own attention module, as a source: one layer, its own weights, its own input.

The module is gpt_core's ``MultiHeadAttention``, the book's (``query_layer``, ``key_layer``,
``value_layer``, ``output_layer``, ``num_heads``) or ``torch.nn.MultiheadAttention``; ``x``
is its input, one sequence ((1, T, C); (T, 1, C) for an ``nn.MultiheadAttention`` without
``batch_first``), and ``tokens`` name its T positions (0, 1, … when not given). It is traced
once, when the source is made (``gpt_core.trace_module``, in eval mode), and its weights and
``x`` are kept as they were then: a later change to the module makes a new source.

A module reads vectors, not text: ``trace`` gives the trace of ``x`` whatever the text, and a
note says so. Its reproduction rebuilds the module with its exact weights and ``x`` (float32
in base64) and traces it again, in a fresh Python.

    source = ModuleSource(MultiHeadAttention(8, 8, 16, 0.0, 2), torch.randn(1, 5, 8))
    source.trace("").weights[0]               # (1, 2, 5, 5)
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence

import torch
from torch import nn

from .attention import STAGES, MultiHeadAttention, Trace
from .errors import InputError
from .given import FIXED
from .modules import trace_module
from .source import Capabilities, Description, Note, NoVocabulary, Reproduction, Words
from .tokens import display_labels

FLOAT_BYTES = 4


def _encoded(tensor: torch.Tensor) -> str:
    return base64.b64encode(tensor.detach().to("cpu", torch.float32).numpy().astype("<f4").tobytes()).decode("ascii")


def _dropout(module: nn.Module) -> float:
    """The largest dropout probability in ``module`` (its trace is taken with dropout off)."""
    rates = [float(m.p) for m in module.modules() if isinstance(m, nn.Dropout)]
    if isinstance(module, nn.MultiheadAttention):
        rates.append(float(module.dropout))
    return max(rates, default=0.0)


class ModuleSource(NoVocabulary):
    """One attention module on one input: a source of one layer, with no vocabulary."""

    capabilities = Capabilities(generates=False, stages=STAGES)
    words = Words(unit="block", token="token")
    no_vocabulary = "a module has no vocabulary"
    no_token_ids = "a module reads vectors, not token ids"
    settings: dict = {}

    def __init__(
        self, module: nn.Module, x: torch.Tensor, tokens: Sequence[str] | None = None, name: str | None = None
    ) -> None:
        if not isinstance(x, torch.Tensor):
            raise ValueError("x must be a torch tensor, the module's input (1, T, C)")
        self.kind = type(module).__name__
        self.layer = trace_module(module, x)
        batch, heads, T = self.layer.weights.shape[:3]
        if batch != 1:
            raise ValueError(f"x holds {batch} sequences: pass one, (1, T, C)")
        self.tokens = [str(i) for i in range(T)] if tokens is None else [str(token) for token in tokens]
        if len(self.tokens) != T:
            raise ValueError(f"{len(self.tokens)} tokens for {T} positions")
        self.name = name or self.kind
        self.x = x.detach().clone()
        self.state = {key: value.detach().clone() for key, value in module.named_parameters()}
        self.rebuild = _rebuild_lines(module, T)
        self.dropout = _dropout(module)
        self.default_prompt = " ".join(self.tokens)
        digest = hashlib.sha256(f"{self.kind}|{self.rebuild}|{self.tokens!r}".encode())
        for key, value in [*sorted(self.state.items()), ("x", self.x)]:
            digest.update(f"{key}{tuple(value.shape)}{value.dtype}".encode() + value.cpu().double().numpy().tobytes())
        self.identity = (self.name, digest.hexdigest())
        parameters = sum(p.numel() for p in module.parameters())
        head_dim = self.layer.queries_heads.shape[-1]
        self.description = Description(
            name=self.name,
            family="module",
            layers=1,
            heads=heads,
            kv_heads=heads,
            head_dim=head_dim,
            hidden=int(self.layer.x.shape[-1]),
            context=T,
            reads=T,
            vocabulary=0,
            parameters=parameters,
            bytes=parameters * FLOAT_BYTES,
            scale=getattr(module, "scale", True) is not False,
            dropout=self.dropout,
        )

    def trace(self, text: str) -> Trace:
        """The module's trace on its ``x`` (``text`` is not read: a module reads vectors)."""
        return Trace(
            list(self.tokens), display_labels(self.tokens), self.default_prompt, [self.layer], [self.layer.weights]
        )

    def notes(self, trace: Trace) -> list[Note]:
        notes = [Note(FIXED, {"tokens": len(self.tokens)}, level="caption")]
        if self.kind == "MultiheadAttention":
            notes.append(Note("page.made.mask_added", level="caption"))
        if self.dropout:
            notes.append(Note("source.module.eval", {"p": self.dropout}, level="caption"))
        return notes

    def facts(self) -> Note | None:
        d = self.description
        values = {
            "kind": self.kind,
            "heads": d.heads,
            "head_dim": d.head_dim,
            "parameters": f"{d.parameters:,}",
            "shape": str(tuple(self.x.shape)),
        }
        return Note("source.module.facts", values, level="caption")

    def reproduction(self, text: str, layer: int) -> Reproduction:
        """Python that rebuilds the module with its exact weights and ``x`` and traces it:
        ``weights`` (1, h, T, T) is left for the reader, and printed."""
        if layer != 0:
            raise ValueError(f"layer {layer} is not one of 0..0: a module is one layer")
        state = "\n".join(
            f'    "{key}": tensor({tuple(value.shape)}, "{_encoded(value)}"),' for key, value in self.state.items()
        )
        code = "\n".join(
            [
                f"# {self.kind} {self.name!r}: its weights and input x, float32 exactly (little-endian, base64).",
                "import base64",
                "",
                "import numpy as np",
                "import torch",
                "",
                "from gpt_core import MultiHeadAttention, trace_module",
                "",
                "",
                "def tensor(shape, data):",
                '    return torch.from_numpy(np.frombuffer(base64.b64decode(data), dtype="<f4").copy()).reshape(shape)',
                "",
                "",
                "state = {",
                state,
                "}",
                f'x = tensor({tuple(self.x.shape)}, "{_encoded(self.x)}")',
                f"tokens = {self.tokens!r}",
                self.rebuild,
                "trace = trace_module(module, x)  # every stage: trace.scores, trace.masked_scores, ...",
                "weights = trace.weights  # (1, h, T, T): each head's softmax weights",
                "print(weights)",
            ]
        )
        return Reproduction(code=code)

    def snapshot_steps(self) -> tuple[int, ...]:
        return ()

    def snapshot(self, step: int) -> tuple[torch.Tensor, str]:
        raise NotImplementedError("a module keeps no snapshots of a training")


def _rebuild_lines(module: nn.Module, tokens: int) -> str:
    """The lines that make ``module`` again from ``state`` (its parameters by name), for
    ``tokens`` positions."""
    if isinstance(module, nn.MultiheadAttention):
        return "\n".join(
            [
                f"module = torch.nn.MultiheadAttention({module.embed_dim}, {module.num_heads}, "
                f"bias={module.in_proj_bias is not None}, batch_first={module.batch_first})",
                "module.load_state_dict(state)",
            ]
        )
    if isinstance(module, MultiHeadAttention):
        m = module
        return "\n".join(
            [
                f"module = MultiHeadAttention({m.input_dim}, {m.output_dim}, {m.context_length}, {m.dropout.p!r}, "
                f"{m.num_heads}, qkv_bias={m.query_layer.bias is not None}, scale={m.scale})",
                "module.load_state_dict(state, strict=False)  # the causal mask: the constructor's",
            ]
        )
    return _book_lines(module, tokens)


def _book_lines(module: nn.Module, tokens: int) -> str:
    """The book's module as gpt_core's (the same parts' names and steps) with its four
    projections, its output layer as it is (C to its own width, with or without a bias)."""
    query, output = module.query_layer, module.output_layer
    if output.in_features != query.out_features:
        raise InputError("module_unsupported", kind=type(module).__name__, reason="output_layer's width is not C")
    return "\n".join(
        [
            f"module = MultiHeadAttention({query.in_features}, {query.out_features}, {tokens}, 0.0, "
            f"{int(module.num_heads)}, qkv_bias={query.bias is not None})",
            f"module.output_layer = torch.nn.Linear({output.in_features}, {output.out_features}, "
            f"bias={output.bias is not None})",
            "module.load_state_dict({key: value for key, value in state.items() if key.split('.')[0] in "
            "('query_layer', 'key_layer', 'value_layer', 'output_layer')}, strict=False)",
        ]
    )
