"""Tracing a text (or token ids) through a real model: one forward pass with the recorder on,
then every stage of every layer rebuilt from what its attention received, with the shapes of
the split and the merge; and the induction test's repeated random sequence."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from ..attention import AttentionTrace, ShapeStep, Trace
from ..errors import InputError
from ..source import INDUCTION_TOKENS, Description
from .model import RealModel
from .reading import MAX_REAL_TOKENS, Piece, piece, read
from .recording import RECORDER, LayerRecord, Recorder, record_stages, repeat_heads


def shape_steps(B: int, T: int, description: Description) -> list[ShapeStep]:
    """The split and the merge of a real model's attention, with grouped-query attention's
    repeat of the key/value heads where it has one."""
    h, h_kv, d, hidden = description.heads, description.kv_heads, description.head_dim, description.hidden
    steps = [
        ShapeStep("project Q, K, V", "q_proj(x), k_proj(x), v_proj(x)", (B, T, hidden), (B, T, h * d), "B T C"),
        ShapeStep("split heads", ".view(B, T, h, d)", (B, T, h * d), (B, T, h, d), "B T h d"),
        ShapeStep("heads first", ".transpose(1, 2)", (B, T, h, d), (B, h, T, d), "B h T d"),
    ]
    if h_kv != h:
        steps += [
            ShapeStep(
                "key/value heads",
                "k_proj(x).view(B, T, h_kv, d).transpose(1, 2)",
                (B, T, hidden),
                (B, h_kv, T, d),
                "B h_kv T d",
            ),
            ShapeStep("repeat", f"repeat_kv(keys, {h // h_kv})", (B, h_kv, T, d), (B, h, T, d), "B h T d"),
        ]
    steps += [
        ShapeStep("scores", "queries @ keys.transpose(-2, -1)", (B, h, T, d), (B, h, T, T), "B h T T"),
        ShapeStep("scale", f"* scaling  (1/√{d})", (B, h, T, T), (B, h, T, T), "B h T T"),
        ShapeStep("causal mask", "+ mask  (shown as -inf)", (B, h, T, T), (B, h, T, T), "B h T T"),
        ShapeStep("softmax", "torch.softmax(dim=-1)", (B, h, T, T), (B, h, T, T), "B h T T"),
        ShapeStep("context", "weights @ values", (B, h, T, T), (B, h, T, d), "B h T d"),
        ShapeStep("tokens first", ".transpose(1, 2)", (B, h, T, d), (B, T, h, d), "B T h d"),
        ShapeStep("merge heads", ".reshape(B, T, C)", (B, T, h, d), (B, T, h * d), "B T C"),
        ShapeStep("output projection", "o_proj(context)", (B, T, h * d), (B, T, hidden), "B T C_out"),
    ]
    return steps


def _flat(heads: torch.Tensor) -> torch.Tensor:
    """(B, n, T, d) -> (B, T, n·d): heads side by side, as before the split."""
    B, n, T, d = heads.shape
    return heads.transpose(1, 2).reshape(B, T, n * d)


def layer_trace(record: LayerRecord, description: Description) -> AttentionTrace:
    """Every stage of one layer, from what the model's attention received: the scores are
    recomputed from its q and k by the very operations it ran, so they are its numbers."""
    groups = description.groups
    keys, values = repeat_heads(record.keys, groups), repeat_heads(record.values, groups)
    scores, scaled, _ = record_stages(record.queries, keys, record.scaling, None)
    masked = scaled.masked_fill(record.blocked, float("-inf"))
    B, _, T, _ = record.queries.shape
    return AttentionTrace(
        x=record.x,
        queries=_flat(record.queries),
        keys=_flat(record.keys),
        values=_flat(record.values),
        queries_heads=record.queries,
        keys_heads=keys,
        values_heads=values,
        scores=scores,
        scaled_scores=scaled,
        masked_scores=masked,
        weights=record.weights,
        dropped_weights=record.weights,
        context_heads=record.context_heads,
        context=_flat(record.context_heads),
        output=record.output,
        shape_steps=shape_steps(B, T, description),
    )


class LayerTraces(Sequence[AttentionTrace]):
    """One ``AttentionTrace`` per layer, built when asked for (four (h, T, T) stages of every
    layer would hold 600 MB for GPT-2 at 512 tokens; the weights are kept, the rest is rebuilt)."""

    def __init__(self, records: list[LayerRecord], description: Description) -> None:
        self._records, self._description = records, description

    def __len__(self) -> int:
        return len(self._records)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [layer_trace(record, self._description) for record in self._records[index]]
        return layer_trace(self._records[index], self._description)

    def __iter__(self) -> Iterator[AttentionTrace]:
        return (layer_trace(record, self._description) for record in self._records)


@dataclass
class RealTrace(Trace):
    """One text through a real model: a ``Trace`` (what it read, every layer's attention) with
    the model's description, the pieces it read and, when asked for, its logits."""

    description: Description | None = None
    pieces: list[Piece] = field(default_factory=list)
    logits: torch.Tensor | None = None  # (B, T, vocabulary), when asked for

    @classmethod
    def of(
        cls,
        description: Description,
        pieces: list[Piece],
        cut: int,
        text_used: str,
        records: list[LayerRecord],
        logits: torch.Tensor | None,
    ) -> RealTrace:
        return cls(
            tokens=[piece.text for piece in pieces],
            labels=[piece.label for piece in pieces],
            text_used=text_used,
            layers=LayerTraces(records, description),
            weights=[r.weights for r in records],
            cut=cut,
            token_ids=[piece.token_id for piece in pieces],
            description=description,
            pieces=pieces,
            logits=logits,
        )

    @property
    def h_kv(self) -> int:
        return self.description.kv_heads

    def shared_kv_head(self, head: int) -> int:
        """The key/value head query head ``head`` (0-based) reads with."""
        return head // self.description.groups


def run_model(loaded: RealModel, ids: list[int], logits: bool, **kwargs) -> tuple[list[LayerRecord], Any]:
    """One forward pass with the recorder on: every layer's record, and the model's output."""
    recorder = Recorder()
    token = RECORDER.set(recorder)
    try:
        with torch.inference_mode():
            runner = loaded.model if logits else loaded.model.base_model
            out = runner(input_ids=torch.tensor([ids]), **kwargs)
    finally:
        RECORDER.reset(token)
    records = [recorder.layers[i] for i in sorted(recorder.layers)]
    if len(records) != loaded.description.layers or any(r.queries is None for r in records):
        raise InputError("model_unsupported", name=loaded.description.name, reason="attention not traced")
    return records, out


def trace(loaded: RealModel, text: str, *, logits: bool = False, max_tokens: int = MAX_REAL_TOKENS) -> RealTrace:
    """Run ``text`` through the model (no gradients) and keep every layer's attention.
    ``logits=True`` runs the language-model head too (the next-token scores)."""
    pieces, cut, used = read(loaded, text, max_tokens)
    records, out = run_model(loaded, [piece.token_id for piece in pieces], logits, use_cache=False)
    return RealTrace.of(loaded.description, pieces, cut, used, records, out.logits if logits else None)


def trace_ids(loaded: RealModel, ids: list[int], *, logits: bool = False) -> RealTrace:
    """Like ``trace``, for token ids (a generated sequence need not survive decoding and
    encoding again)."""
    if not ids:
        raise InputError("empty_text")
    pieces = [piece(loaded, i) for i in ids]
    records, out = run_model(loaded, list(ids), logits, use_cache=False)
    return RealTrace.of(
        loaded.description, pieces, 0, loaded.tokenizer.decode(ids), records, out.logits if logits else None
    )


def induction_weights(loaded: RealModel, n: int = INDUCTION_TOKENS, seed: int = 0) -> tuple[list[torch.Tensor], int]:
    """The standard test for induction heads: ``n`` random tokens (seeded, no special ones),
    then the same ``n`` again, after the BOS token where the tokenizer adds one. Returns every
    layer's weights (B, h, T, T) and where the first copy starts (for
    ``gpt_core.explore.induction_scores``)."""
    special = set(loaded.tokenizer.all_special_ids)
    vocabulary = [i for i in range(len(loaded.tokenizer)) if i not in special]
    generator = torch.Generator().manual_seed(seed)
    picks = torch.randint(len(vocabulary), (n,), generator=generator).tolist()
    tokens = [vocabulary[i] for i in picks]
    bos = loaded.tokenizer("a", add_special_tokens=True)["input_ids"][:1]
    prefix = bos if bos and bos[0] in special else []
    records, _ = run_model(loaded, [*prefix, *tokens, *tokens], False, use_cache=False)
    return [r.weights for r in records], len(prefix)
