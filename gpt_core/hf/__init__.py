"""Real language models from Hugging Face, traced stage by stage with the book's names.

Any causal decoder that transformers runs (GPT-2, Llama, Qwen2, Mistral, …) is traced through
transformers' public attention registry: ``AttentionInterface.register`` puts this package's
attention function in place of the model's own (and ``AttentionMaskInterface.register`` the
eager mask beside it). The function receives every layer's query ``(B, h, T, d)`` and
key/value ``(B, h_kv, T, d)`` after rotary positions and computes exactly what transformers'
eager attention computes, keeping each layer's tensors while a trace is being taken. The
modules transformers passes to it are the model's attention modules: a model is traced only
where it passes one per layer.

transformers is imported only when a real model is loaded: a server that never offers one
never loads it. Nothing here runs a model's own code (``trust_remote_code`` is never set).

    loaded = load("gpt2")              # a Hugging Face id (downloaded once) or a local folder
    traced = trace(loaded, "the cat")  # traced.layers[i]: an AttentionTrace, as the playground draws

One job a module: ``hub`` finds and fetches a model's folder, ``loading`` loads it with the
registered attention, ``recording`` is that attention and what it keeps, ``reading`` reads
text into the tokenizer's pieces, ``tracing`` traces a text through every layer, and
``generation`` continues a text with each new token's attention, ``kv_cache`` the same step by
step with the model's own key/value cache.
"""

from __future__ import annotations

from ..source import Description
from .generation import GeneratedPiece, generate_tokens
from .hub import (
    DEFAULT_MODELS,
    HUB_TIMEOUT_S,
    MODEL_FILES,
    Progress,
    fetch,
    is_folder,
    local_folder,
    offered_models,
    short_name,
)
from .kv_cache import HubCache, generate_cached
from .loading import IMPLEMENTATION, adopt, load
from .model import Piece, RealModel, Spelling
from .reading import MAX_REAL_TOKENS, no_token_label, piece, read, spelling, token_logits
from .tracing import (
    INDUCTION_TOKENS,
    LayerTraces,
    RealTrace,
    induction_weights,
    layer_trace,
    shape_steps,
    trace,
    trace_ids,
)

__all__ = [
    "DEFAULT_MODELS",
    "HUB_TIMEOUT_S",
    "IMPLEMENTATION",
    "INDUCTION_TOKENS",
    "MAX_REAL_TOKENS",
    "MODEL_FILES",
    "GeneratedPiece",
    "HubCache",
    "LayerTraces",
    "Description",
    "Piece",
    "Progress",
    "RealModel",
    "RealTrace",
    "Spelling",
    "fetch",
    "generate_cached",
    "generate_tokens",
    "induction_weights",
    "is_folder",
    "layer_trace",
    "adopt",
    "load",
    "local_folder",
    "no_token_label",
    "offered_models",
    "piece",
    "read",
    "shape_steps",
    "short_name",
    "spelling",
    "token_logits",
    "trace",
    "trace_ids",
]
