"""Generating with attention: a real model continues a text token by token (greedy or sampled
with a seeded generator, through its key/value cache), and each new token keeps the attention
row of the query that chose it, in every layer."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from .loading import RealModel
from .reading import MAX_REAL_TOKENS, Piece, piece, read, token_logits
from .tracing import _run


@dataclass
class GeneratedPiece:
    """One generated token and the attention that chose it."""

    piece: Piece
    context: list[str]  # the labels of the tokens the model read to choose it
    rows: torch.Tensor  # (layers, h, T_ctx): the last query's softmax weights over the context


def generate_tokens(
    loaded: RealModel, text: str, n: int, temperature: float = 0.0, seed: int = 0
) -> list[GeneratedPiece]:
    """Continue ``text`` by up to ``n`` tokens (greedy at temperature 0, else sampled with a
    generator seeded by ``seed``), keeping for each the attention row of the last query in
    every layer. Stops at the context (or the app's limit). Uses the model's key/value cache,
    so each step computes one new query. Only the tokenizer's ids are chosen (``token_logits``)."""
    pieces, _, _ = read(loaded, text)
    limit = min(loaded.description.context or MAX_REAL_TOKENS, MAX_REAL_TOKENS)
    n = max(0, min(n, limit - len(pieces)))
    ids, labels = [piece.token_id for piece in pieces], [piece.label for piece in pieces]
    generator = torch.Generator().manual_seed(seed)
    steps: list[GeneratedPiece] = []
    records, out = _run(loaded, ids, True, use_cache=True)
    for _ in range(n):
        scores = token_logits(loaded, out.logits[0, -1].float())
        if temperature > 0:
            new = int(torch.multinomial(torch.softmax(scores / temperature, -1), 1, generator=generator))
        else:
            new = int(scores.argmax())
        rows = torch.stack([r.weights[0, :, -1, :] for r in records])  # (layers, h, T_ctx)
        chosen = piece(loaded, new)  # a new byte piece has no character yet
        steps.append(GeneratedPiece(chosen, list(labels), rows))
        ids.append(new)
        labels.append(chosen.label)
        records, out = _run(loaded, [new], True, use_cache=True, cache=out.cache)
    return steps
