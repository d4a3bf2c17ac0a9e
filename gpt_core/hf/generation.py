"""Generating with attention: a real model continues a text token by token (greedy or sampled
with a seeded generator, through its key/value cache), and each new token keeps the attention
row of the query that chose it, in every layer."""

from __future__ import annotations

import time
from dataclasses import dataclass

import torch

from ..generate import choose_next
from .model import RealModel
from .reading import MAX_REAL_TOKENS, Piece, piece, read, token_logits
from .tracing import run_model


@dataclass
class GeneratedPiece:
    """One generated token and the attention that chose it."""

    piece: Piece
    context: list[str]  # the labels of the tokens the model read to choose it
    rows: torch.Tensor  # (layers, h, T_ctx): the last query's softmax weights over the context


def generate_tokens(
    loaded: RealModel,
    text: str,
    n: int,
    temperature: float = 0.0,
    seed: int = 0,
    top_k: int | None = None,
    max_seconds: float | None = None,
) -> list[GeneratedPiece]:
    """Continue ``text`` by up to ``n`` tokens (greedy at temperature 0, else sampled from the
    ``top_k`` likeliest when given, with a generator seeded by ``seed``), keeping for each the
    attention row of the last query in every layer. Stops at the context (or the app's limit),
    or once the next token would not be done within ``max_seconds``. Uses the model's key/value
    cache, so each step computes one new query. Only the tokenizer's ids are chosen
    (``token_logits``)."""
    pieces, _, _ = read(loaded, text)
    limit = min(loaded.description.context or MAX_REAL_TOKENS, MAX_REAL_TOKENS)
    n = max(0, min(n, limit - len(pieces)))
    ids, labels = [piece.token_id for piece in pieces], [piece.label for piece in pieces]
    generator = torch.Generator().manual_seed(seed)
    steps: list[GeneratedPiece] = []
    records, out = run_model(loaded, ids, True, use_cache=True)
    began, slowest = time.perf_counter(), 0.0
    for _ in range(n):
        if max_seconds is not None and time.perf_counter() - began + slowest > max_seconds:
            break
        tick = time.perf_counter()
        new = choose_next(token_logits(loaded, out.logits[0, -1].float()), temperature, top_k, generator)
        rows = torch.stack([r.weights[0, :, -1, :] for r in records])  # (layers, h, T_ctx)
        chosen = piece(loaded, new)  # a new byte piece has no character yet
        steps.append(GeneratedPiece(chosen, list(labels), rows))
        ids.append(new)
        labels.append(chosen.label)
        records, out = run_model(loaded, [new], True, use_cache=True, cache=out.cache)
        slowest = max(slowest, time.perf_counter() - tick)
    return steps
