"""Trace a learner's own attention module, with its own weights: the numbers of its forward.

Three kinds are traced:
- gpt_core's ``MultiHeadAttention``: its own trace;
- the book's ``MultiHeadAttention`` (any module with ``query_layer``, ``key_layer``,
  ``value_layer``, ``output_layer`` and ``num_heads``): forward hooks keep what its projections
  computed during its own forward; the heads' stages follow from them by the book's steps
  (``attention.attend``), and the context its ``output_layer`` received must be theirs;
- ``torch.nn.MultiheadAttention``: its packed projection (``in_proj_weight``, as torch applies
  it), then the same steps; torch's own per-head weights (``need_weights=True``) must equal them.
No weight is copied: the module's parameters are used where they are, and each trace is checked
against what the module itself returned.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from .attention import AttentionTrace, MultiHeadAttention, attend, trace_of_steps
from .errors import InputError

BOOK_PARTS = ("query_layer", "key_layer", "value_layer", "output_layer")
AGREEMENT = 1e-5  # float32: the largest difference between the module's numbers and the trace's


def _check(kind: str, part: str, theirs: torch.Tensor, ours: torch.Tensor) -> None:
    difference = (theirs - ours).abs().max().item() if theirs.shape == ours.shape else float("inf")
    if not difference <= AGREEMENT:
        raise InputError("module_differs", kind=kind, part=part, difference=f"{difference:.2e}")


def _input(kind: str, x: torch.Tensor, width: int) -> None:
    if x.dim() != 3 or x.shape[-1] != width:
        raise InputError("module_unsupported", kind=kind, reason=f"x must be (B, T, {width}), not {tuple(x.shape)}")


def _book(module: nn.Module, x: torch.Tensor) -> AttentionTrace:
    kind = type(module).__name__
    seen: dict[str, tuple[torch.Tensor, torch.Tensor]] = {}
    hooks = [
        getattr(module, name).register_forward_hook(
            lambda _m, inputs, output, name=name: seen.__setitem__(name, (inputs[0], output))
        )
        for name in BOOK_PARTS
    ]
    try:
        module(x)
    finally:
        for hook in hooks:
            hook.remove()
    if set(seen) != set(BOOK_PARTS):
        raise InputError(
            "module_unsupported", kind=kind, reason=f"its forward did not call {sorted(set(BOOK_PARTS) - set(seen))}"
        )
    queries, keys, values = (seen[name][1] for name in BOOK_PARTS[:3])
    steps = {"x": x, "queries": queries, "keys": keys, "values": values}
    steps.update(attend(queries, keys, values, int(module.num_heads)))
    context_received, output = seen["output_layer"]
    _check(kind, "context", context_received, steps["context"])
    steps["output"] = output
    return trace_of_steps(steps)


def _torch(module: nn.MultiheadAttention, x: torch.Tensor) -> AttentionTrace:
    kind = type(module).__name__
    if not module._qkv_same_embed_dim or module.bias_k is not None or module.add_zero_attn:
        raise InputError("module_unsupported", kind=kind, reason="separate key/value widths, bias_k or add_zero_attn")
    batch_first = x if module.batch_first else x.transpose(0, 1)  # (B, T, E)
    _input(kind, batch_first, module.embed_dim)
    queries, keys, values = F.linear(batch_first, module.in_proj_weight, module.in_proj_bias).chunk(3, dim=-1)
    steps = {"x": batch_first, "queries": queries, "keys": keys, "values": values}
    steps.update(attend(queries, keys, values, module.num_heads))
    steps["output"] = module.out_proj(steps["context"])
    T = batch_first.shape[1]
    future = torch.ones(T, T, dtype=torch.bool).triu(diagonal=1)
    output, weights = module(x, x, x, attn_mask=future, need_weights=True, average_attn_weights=False)
    _check(kind, "weights", weights, steps["weights"])
    _check(kind, "output", output if module.batch_first else output.transpose(0, 1), steps["output"])
    return trace_of_steps(steps)


def trace_module(module: nn.Module, x: torch.Tensor) -> AttentionTrace:
    """Every stage of ``module``'s attention for input ``x`` ((B, T, C); (T, B, C) for an
    ``nn.MultiheadAttention`` without ``batch_first``), in eval mode (dropout off), without
    gradients. Raises ``InputError`` for another kind of module, or one whose forward is not
    the book's causal attention of its projections."""
    was_training = module.training
    module.eval()
    try:
        with torch.no_grad():
            if isinstance(module, MultiHeadAttention):
                trace = AttentionTrace()
                module(x, trace=trace)
                return trace
            if isinstance(module, nn.MultiheadAttention):
                return _torch(module, x)
            if all(hasattr(module, name) for name in BOOK_PARTS) and hasattr(module, "num_heads"):
                _input(type(module).__name__, x, module.query_layer.in_features)
                return _book(module, x)
            raise InputError(
                "module_unsupported", kind=type(module).__name__, reason="not an attention module this knows"
            )
    finally:
        module.train(was_training)
