"""What a real model's attention computes, kept while a trace is being taken: the function
registered with transformers in place of the model's own attention (it computes exactly what
transformers' eager attention computes), the hooks that keep each attention module's input
and output, and the search for those modules (the ones transformers passes to the function)."""

from __future__ import annotations

import contextvars
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import torch


@dataclass
class LayerRecord:
    x: torch.Tensor | None = None  # (B, T, hidden) the attention's input
    queries: torch.Tensor | None = None  # (B, h, T, d)
    keys: torch.Tensor | None = None  # (B, h_kv, T, d)
    values: torch.Tensor | None = None  # (B, h_kv, T, d)
    scaling: float = 1.0
    blocked: torch.Tensor | None = None  # (B, 1, T, T) True where the model's mask blocks
    weights: torch.Tensor | None = None  # (B, h, T, T)
    context_heads: torch.Tensor | None = None  # (B, h, T, d)
    output: torch.Tensor | None = None  # (B, T, hidden) after the output projection


class Recorder:
    def __init__(self) -> None:
        self.layers: dict[int, LayerRecord] = {}
        self.modules: dict[int, Any] = {}  # by layer: the modules transformers passed to the attention function

    def layer(self, module: Any) -> LayerRecord:
        return self.layers.setdefault(int(module.layer_idx), LayerRecord())


RECORDER: contextvars.ContextVar[Recorder | None] = contextvars.ContextVar("hf_recorder", default=None)


def record_stages(query, keys, scaling, attention_mask):
    """Raw, scaled scores and weights, as transformers' eager attention computes them."""
    scores = torch.matmul(query, keys.transpose(2, 3))  # (B, h, T, T) raw Q Kᵀ
    scaled = scores * scaling
    masked = scaled + attention_mask if attention_mask is not None else scaled
    weights = torch.nn.functional.softmax(masked, dim=-1, dtype=torch.float32).to(query.dtype)
    return scores, scaled, weights


def repeat_heads(states: torch.Tensor, groups: int) -> torch.Tensor:
    """(B, h_kv, T, d) -> (B, h, T, d): each key/value head once per query head of its group."""
    if groups == 1:
        return states
    B, h_kv, T, d = states.shape
    return states[:, :, None].expand(B, h_kv, groups, T, d).reshape(B, h_kv * groups, T, d)


def _blocked(attention_mask: torch.Tensor | None, dtype: torch.dtype, T: int) -> torch.Tensor:
    """The cells the model masks (it adds a very large negative number there, not −∞)."""
    if attention_mask is None:
        return torch.zeros(1, 1, T, T, dtype=torch.bool)
    return attention_mask <= torch.finfo(dtype).min / 2


def traced_attention(module, query, key, value, attention_mask, scaling=None, dropout=0.0, **kwargs):
    """The model's attention, computed as transformers' eager attention does (and kept while
    a trace is being taken). Returns (output (B, T, h, d), weights (B, h, T, T))."""
    groups = query.shape[1] // key.shape[1]
    scaling = query.shape[-1] ** -0.5 if scaling is None else scaling
    keys, values = repeat_heads(key, groups), repeat_heads(value, groups)
    _, _, weights = record_stages(query, keys, scaling, attention_mask)
    weights = torch.nn.functional.dropout(weights, p=dropout, training=module.training)
    output = torch.matmul(weights, values)  # (B, h, T, d)
    recorder = RECORDER.get()
    if recorder is not None:
        record = recorder.layer(module)
        recorder.modules[int(module.layer_idx)] = module
        record.queries, record.keys, record.values = query.detach(), key.detach(), value.detach()
        record.scaling = float(scaling)
        record.blocked = _blocked(attention_mask, query.dtype, query.shape[2])
        record.weights, record.context_heads = weights.detach(), output.detach()
    return output.transpose(1, 2).contiguous(), weights


def attention_modules(model) -> dict[int, Any]:
    """The modules transformers passes to the registered attention function, by layer index:
    the model's attention modules, whatever their classes are named. Found by running one
    token through the model (no cache, nothing kept)."""
    recorder = Recorder()
    token = RECORDER.set(recorder)
    try:
        with torch.inference_mode():
            model.base_model(input_ids=torch.zeros(1, 1, dtype=torch.long), use_cache=False)
    finally:
        RECORDER.reset(token)
    return dict(sorted(recorder.modules.items()))


def hook_inputs_and_outputs(modules: Iterable[Any]) -> None:
    """Keep each attention's input (the normed stream) and its projected output while tracing."""

    def before(module, args, kwargs):
        recorder = RECORDER.get()
        if recorder is not None:
            hidden = kwargs.get("hidden_states", args[0] if args else None)
            recorder.layer(module).x = hidden.detach()

    def after(module, args, kwargs, output):
        recorder = RECORDER.get()
        if recorder is not None:
            recorder.layer(module).output = (output[0] if isinstance(output, tuple) else output).detach()

    for module in modules:
        module.register_forward_pre_hook(before, with_kwargs=True)
        module.register_forward_hook(after, with_kwargs=True)
