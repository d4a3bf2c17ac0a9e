"""The next token's odds: a model's probabilities for the token after a prompt, before and
after the cuts sampling makes (temperature, top-k, top-p), and a seeded draw from them.

    step = next_token(model, vocabulary, "ROMEO:")      # logits and the attention rows behind them
    odds = next_token_odds(step.logits, 0.8, top_k=5)   # sorted, before and after the cut
    token = sample(odds, seed=0)                        # the id gpt_core.generate would draw

Pure torch, no drawing. ``sample`` draws exactly as ``gpt_core.generate`` does (the same
temperature and seed give the same token when top-k and top-p are off, and with top-k when
no two logits tie at the k-th place).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .data import CharVocabulary
from .errors import InputError
from .explore import readable_characters
from .model import GPT, GPTTrace


@dataclass(frozen=True)
class Odds:
    """The next token's probabilities, sorted from the likeliest down.

    Order: by logit, descending; tokens with equal logits keep their id order (the lower id
    first), so top-k keeps exactly k tokens and, among tied ones at the k-th place, the
    lower ids. ``after`` is zero for tokens cut away and sums to 1 over the kept ones."""

    ids: torch.Tensor  # (vocab,) long: token ids, likeliest first
    before: torch.Tensor  # (vocab,) softmax(logits / T) in that order (one-hot on the argmax at T = 0)
    after: torch.Tensor  # (vocab,) after top-k then top-p, renormalised, in that order
    kept: int  # the first ``kept`` tokens of the order survive the cut
    temperature: float
    top_k: int | None
    top_p: float | None

    def by_id(self, values: torch.Tensor) -> torch.Tensor:
        """``values`` (in this order) back in token-id order."""
        out = torch.empty_like(values)
        out[self.ids] = values
        return out


@dataclass(frozen=True)
class NextToken:
    """A prompt through a trained GPT: the next token's logits and what the model read."""

    logits: torch.Tensor  # (vocab,) the last position's scores
    context: str  # the characters read: the prompt's known ones, at most the last context_length
    left_out: tuple[str, ...]  # characters of the prompt the vocabulary lacks (left out, sorted)
    rows: torch.Tensor  # (blocks, h, T_ctx): the last query's softmax weights in every block and head


def check_sampling(temperature: float, top_k: int | None, top_p: float | None) -> None:
    if not isinstance(temperature, (int, float)) or not math.isfinite(temperature) or temperature < 0:
        raise InputError("temperature_negative", value=temperature)
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1):
        raise InputError("top_k_too_small", value=top_k)
    if top_p is not None and (not isinstance(top_p, (int, float)) or not math.isfinite(top_p) or not 0 < top_p <= 1):
        raise InputError("top_p_range", value=top_p)


def next_token_odds(
    logits: torch.Tensor, temperature: float = 1.0, top_k: int | None = None, top_p: float | None = None
) -> Odds:
    """The probabilities of the next token from its ``logits`` (vocab,): before the cut,
    softmax(logits / temperature); after it, top-k (the k likeliest) then top-p (the
    smallest set of the likeliest whose probability adds up to at least p, always at least
    one token), renormalised to sum 1. Temperature 0 is greedy: all the mass on the argmax
    (the first one when logits tie, as ``torch.argmax`` and ``gpt_core.generate`` choose).
    ``top_k=None`` and ``top_p=None`` (or 1) are no cut.

    Raises ``InputError`` for a negative temperature, top_k below 1, top_p outside (0, 1]."""
    check_sampling(temperature, top_k, top_p)
    logits = logits.detach().float().reshape(-1)
    n = logits.numel()
    order = torch.sort(logits, descending=True, stable=True).indices
    if temperature == 0:  # the stable sort puts the first maximal logit first, as argmax chooses
        before = torch.zeros(n)
        before[0] = 1.0
        return Odds(order, before, before.clone(), 1, 0.0, top_k, top_p)
    scaled = logits / temperature
    before = torch.softmax(scaled, dim=-1)[order]
    kept = n if top_k is None else min(top_k, n)
    if top_p is not None and top_p < 1:
        head = torch.softmax(scaled[order[:kept]], dim=-1)
        below = torch.cumsum(head, dim=-1) - head  # the probability of the likelier ones
        kept = max(1, int((below < top_p).sum()))
    if kept == n:
        after = before.clone()  # no cut: exactly generate's probabilities
    else:
        masked = torch.full_like(scaled, float("-inf"))
        masked[order[:kept]] = scaled[order[:kept]]
        after = torch.softmax(masked, dim=-1)[order]
    return Odds(order, before, after, kept, float(temperature), top_k, top_p)


def sample(odds: Odds, seed: int = 0) -> int:
    """One token id drawn from ``odds.after`` with a ``torch.Generator`` seeded by ``seed``,
    as ``gpt_core.generate`` draws its first token (greedy at temperature 0: no draw)."""
    if odds.temperature == 0:
        return int(odds.ids[0])
    generator = torch.Generator().manual_seed(seed)
    return int(torch.multinomial(odds.by_id(odds.after), 1, generator=generator))


def next_token(model: GPT, vocabulary: CharVocabulary, prompt: str) -> NextToken:
    """The logits of the token after ``prompt`` and the attention rows that produced them.

    As ``gpt_core.generate`` reads a prompt: characters the vocabulary lacks are left out
    (as ``generate_characters`` does), and the model reads the last ``context_length``
    of the rest. Raises ``InputError`` when nothing readable is left."""
    known, left_out = readable_characters(vocabulary, prompt)
    context = known[-model.config.context_length :]
    trace = GPTTrace()
    was_training = model.training
    model.eval()
    ids = torch.tensor([vocabulary.encode(context)])
    with torch.no_grad():
        # The logits of the plain forward, as generate computes them (the traced forward
        # computes the same to within float rounding); the rows of the traced one.
        logits, _ = model(ids)
        model(ids, trace=trace)
    model.train(was_training)
    rows = torch.stack([layer.weights[0, :, -1, :] for layer in trace.layers])  # (blocks, h, T_ctx)
    return NextToken(logits[0, -1], context, left_out, rows)
