"""Attention weights a learner already has, as a source: what BertViz and CircuitsVis take.

``attentions`` is transformers' ``outputs.attentions`` (a tuple of per-layer tensors
(1, h, T, T)), one tensor (layers, h, T, T) or one layer's (h, T, T), torch or numpy, with
``tokens`` naming the T positions. The weights are checked (shapes against the tokens, rows
that sum to 1, nothing on a later token) and kept as float32; the stages before the softmax
were not given, so a trace has the weights alone (``capabilities.stages``) and the notes say
which stages it lacks. The source reads no text: ``trace`` gives the given tokens' weights
whatever the text, and a note says so. A token's label reads a tokenizer's mark of a space
before it ("Ġ", "▁") as that space (drawn ␣), as the app's models do.

    source = GivenWeights(outputs.attentions, tokenizer.convert_ids_to_tokens(ids[0]))
    source.trace("").weights[0]               # (1, h, T, T), layer 0 as given
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from .attention import AttentionTrace, Trace
from .errors import InputError
from .source import Capabilities, Description, Note, NoVocabulary, Reproduction, Words
from .tokens import display_labels

ROW_SUM = 1e-3  # how far a row may sum from 1 (float16 and bfloat16 models' weights included)
FUTURE = 1e-6  # the most weight a query may put on a later token (a causal mask's leftovers)
LACKS = "source.weights_only"  # the note: which stages given weights lack
FIXED = "source.fixed_text"  # the note: the tokens are the given ones, whatever the text
# How tokenizers mark a space before a token: byte-level BPE's "Ġ" (GPT-2, Qwen), SentencePiece's "▁".
SPACE_MARKS = ("Ġ", "▁")


def _as_layers(attentions: Any) -> list[np.ndarray]:
    """Every layer's weights (h, T, T) as float32, from any of the three forms taken."""
    if isinstance(attentions, (list, tuple)):
        if not attentions:
            raise InputError("given_shape", shape="an empty sequence")
        layers = [_array(layer) for layer in attentions]
        for index, layer in enumerate(layers):
            if layer.ndim == 4 and layer.shape[0] != 1:
                raise InputError("given_batch", layer=index, shape=tuple(layer.shape))
            if layer.ndim not in (3, 4):
                raise InputError("given_shape", shape=f"layer {index}: {tuple(layer.shape)}")
        return [layer[0] if layer.ndim == 4 else layer for layer in layers]
    array = _array(attentions)
    if array.ndim == 3:
        return [array]
    if array.ndim == 4:
        return list(array)
    raise InputError("given_shape", shape=str(tuple(array.shape)))


def _spelled(token: str) -> str:
    """A token as text: a tokenizer's mark of a space before it read as that space."""
    return " " + token[1:] if token[:1] in SPACE_MARKS else token


def _array(value: Any) -> np.ndarray:
    if isinstance(value, torch.Tensor):
        return value.detach().to("cpu", torch.float32).numpy()
    return np.asarray(value, dtype=np.float32)


def _check(layers: list[np.ndarray], tokens: Sequence[str]) -> None:
    """Every layer (h, T, T) with T the tokens, finite and causal, each row summing to 1."""
    T = len(tokens)
    heads = layers[0].shape[0]
    for index, layer in enumerate(layers):
        if layer.shape != (heads, T, T):
            raise InputError("given_tokens", layer=index, shape=tuple(layer.shape), heads=heads, tokens=T)
        if not np.isfinite(layer).all() or (layer < 0).any():
            raise InputError("given_values", layer=index)
        future = np.triu(layer, k=1)  # what each query puts on later tokens
        head, row, col = np.unravel_index(np.argmax(future), layer.shape)
        if future[head, row, col] > FUTURE:
            raise InputError(
                "given_not_causal",
                layer=index,
                head=int(head),
                row=int(row),
                col=int(col),
                weight=f"{float(future[head, row, col]):.3g}",
            )
        sums = layer.sum(axis=-1)
        head, row = np.unravel_index(np.argmax(np.abs(sums - 1)), sums.shape)
        if abs(float(sums[head, row]) - 1) > ROW_SUM:
            raise InputError(
                "given_rows", layer=index, head=int(head), row=int(row), total=f"{float(sums[head, row]):.4g}"
            )


class GivenWeights(NoVocabulary):
    """Softmax weights of every layer a learner already has, over ``tokens``: a source of the
    weights stage alone, with no vocabulary (it neither predicts nor generates)."""

    capabilities = Capabilities(generates=False, stages=("weights",))
    words = Words(unit="layer", token="token")
    no_vocabulary = "given weights have no vocabulary"
    no_token_ids = "given weights were computed for their own tokens only"
    settings: dict[str, Any] = {}

    def __init__(self, attentions: Any, tokens: Sequence[str], name: str = "given") -> None:
        if isinstance(tokens, str) or not tokens:
            raise InputError("given_no_tokens")
        self.tokens = [str(token) for token in tokens]
        layers = _as_layers(attentions)
        _check(layers, self.tokens)
        future = np.triu(np.ones((len(self.tokens),) * 2, dtype=bool), k=1)
        self.layers = [np.where(future, np.float32(0), layer).astype("<f4") for layer in layers]  # masked: exactly 0
        self.name = name
        self.default_prompt = "".join(_spelled(token) for token in self.tokens)
        digest = hashlib.sha256(repr(self.tokens).encode("utf-8"))
        for layer in self.layers:
            digest.update(repr(layer.shape).encode("ascii") + layer.tobytes())
        self.identity = (name, digest.hexdigest())
        heads, T = self.layers[0].shape[:2]
        self.description = Description(
            name=name,
            family="given",
            layers=len(self.layers),
            heads=heads,
            kv_heads=heads,
            head_dim=0,
            hidden=0,
            context=T,
            reads=T,
            vocabulary=0,
            parameters=0,
        )

    def trace(self, text: str) -> Trace:
        """The given tokens and every layer's weights (``text`` is not read: the weights are
        of their own tokens)."""
        weights = [torch.from_numpy(layer.copy())[None] for layer in self.layers]
        layers = [AttentionTrace(weights=layer, dropped_weights=layer) for layer in weights]
        labels = display_labels([_spelled(token) for token in self.tokens])
        return Trace(list(self.tokens), labels, self.default_prompt, layers, weights)

    def notes(self, trace: Trace) -> list[Note]:
        return [Note(LACKS), Note(FIXED, {"tokens": len(self.tokens)}, level="caption")]

    def facts(self) -> Note | None:
        d = self.description
        return Note("source.given.facts", {"layers": d.layers, "heads": d.heads, "tokens": d.context}, level="caption")

    def reproduction(self, text: str, layer: int) -> Reproduction:
        """Python that holds layer ``layer``'s weights exactly (float32 in base64) and leaves
        them in ``weights`` (h, T, T), with ``tokens``."""
        if not 0 <= layer < len(self.layers):
            raise ValueError(f"layer {layer} is not one of 0..{len(self.layers) - 1}")
        weights = self.layers[layer]
        data = base64.b64encode(weights.tobytes()).decode("ascii")
        code = "\n".join(
            [
                f"# Layer {layer} of the attention weights given as {self.name!r}: every head's softmax weights,",
                "# float32 exactly as given (little-endian, base64), rows = queries, columns = keys.",
                "import base64",
                "",
                "import numpy as np",
                "",
                f"tokens = {self.tokens!r}",
                f'weights = np.frombuffer(base64.b64decode("{data}"), dtype="<f4").reshape{weights.shape}',
                "print(weights.shape, weights.sum(axis=-1).round(4))  # (h, T, T); each row sums to 1",
            ]
        )
        return Reproduction(code=code)

    def snapshot_steps(self) -> tuple[int, ...]:
        return ()

    def snapshot(self, step: int) -> tuple[torch.Tensor, str]:
        raise NotImplementedError("given weights keep no snapshots of a training")
