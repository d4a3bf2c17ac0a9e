"""Sampling text from a GPT: temperature and top-k, seeded."""

from __future__ import annotations

import time

import torch

from .model import GPT


def choose_next(logits: torch.Tensor, temperature: float, top_k: int | None, generator: torch.Generator) -> int:
    """The next id from the last position's ``logits`` (vocab,): the likeliest at temperature 0,
    else drawn from the softmax of ``logits / temperature`` (only the ``top_k`` likeliest)."""
    if temperature <= 0:
        return int(logits.argmax())
    logits = logits / temperature
    if top_k is not None and top_k < logits.numel():
        threshold = torch.topk(logits, top_k).values[-1]
        logits = logits.masked_fill(logits < threshold, float("-inf"))
    probabilities = torch.softmax(logits, dim=-1)
    return int(torch.multinomial(probabilities, 1, generator=generator))


@torch.no_grad()
def generate(
    model: GPT,
    prompt_ids: list[int],
    max_new_tokens: int,
    temperature: float = 1.0,
    top_k: int | None = None,
    seed: int = 0,
    max_seconds: float | None = None,
) -> list[int]:
    """Continue ``prompt_ids`` by ``max_new_tokens`` ids (the new ids are returned).
    temperature 0 means greedy. An empty prompt starts from id 0. ``max_seconds``: stop
    earlier, with the ids made so far, once the next one would not be done in time (a
    large model on a busy server); the ids made are those an unbounded call makes first."""
    was_training = model.training
    model.eval()
    generator = torch.Generator().manual_seed(seed)
    start = prompt_ids or [0]
    ids = torch.tensor([start], dtype=torch.long)  # (1, T)
    context = model.config.context_length
    began, slowest = time.perf_counter(), 0.0
    for _ in range(max_new_tokens):
        if max_seconds is not None and time.perf_counter() - began + slowest > max_seconds:
            break
        tick = time.perf_counter()
        logits, _ = model(ids[:, -context:])
        next_id = choose_next(logits[0, -1], temperature, top_k, generator)
        ids = torch.cat([ids, torch.tensor([[next_id]])], dim=1)
        slowest = max(slowest, time.perf_counter() - tick)
    model.train(was_training)
    return ids[0, len(start) :].tolist()
