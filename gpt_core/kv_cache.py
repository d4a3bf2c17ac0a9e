"""Generating with the key/value cache: why the causal mask makes generation cheap, in numbers.

No token reads a later one, so the keys and values of the past never change: a model keeps
them (the KV cache) and each new token computes one query, one key and one value per layer
and key/value head, and its row of weights over every key so far. Step i takes the query of
the sequence's last token (the prompt's last at step 0, when the prompt's keys and values are
computed at once), its softmax weights over all t keys, and chooses the next token (greedy at
temperature 0, else drawn as ``gpt_core.generate`` draws: the same seed gives the same tokens).

    generation = generate_characters_cached(model, vocabulary, "ROMEO:", 5)
    step = generation.steps[0]
    step.token_id, step.layers[0].weights.shape      # (h, t): the last query's row
    step.layers[0].keys.shape                        # (h_kv, t, d): the cache after the step
    generation.cost.bytes_per_token                  # 2 × layers × h_kv × d × bytes per number

The book's tiny GPT runs here on its own weights (``GPTCache``); a Hugging Face model keeps
its own cache (``gpt_core.hf.kv_cache``). Both go through ``generate_with_cache``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch

from .data import CharVocabulary
from .explore import readable_characters
from .generate import choose_next
from .model import GPT
from .odds import check_sampling
from .tokens import display_label, display_labels


@dataclass(frozen=True)
class CacheLayer:
    """One layer at one step: the cache after it and the new query's row over it."""

    keys: torch.Tensor  # (h_kv, t, d): every key so far (after the model's positions: RoPE where it has it)
    values: torch.Tensor  # (h_kv, t, d)
    weights: torch.Tensor  # (h, t): the last token's query, softmax over the t keys (its head's key/value head)
    query: torch.Tensor  # (h, d): that query


@dataclass(frozen=True)
class CacheStep:
    """Step i of a generation: the last token's query against the cache, and the token chosen."""

    index: int  # i, from 0
    token_id: int  # the token chosen
    label: str  # the token as a page shows it (whitespace drawn, a byte piece with its character)
    text: str | None  # what it adds to the text (None: not text, such as a byte of a character)
    position: int  # the query's position, t - 1 (the chosen token goes to position t)
    new: int  # positions whose keys and values this step computed: the prompt's at step 0, then 1
    layers: tuple[CacheLayer, ...]

    @property
    def length(self) -> int:
        """t: the keys in the cache after this step (and the tokens a step without a cache recomputes)."""
        return self.position + 1


@dataclass(frozen=True)
class CacheCost:
    """What the cache holds and saves, from a model's sizes in the book's letters."""

    layers: int
    heads: int  # h: query heads
    kv_heads: int  # h_kv: key/value heads (fewer than h: grouped-query attention)
    head_dim: int  # d
    number_bytes: int = 4  # bytes per number (float32: 4)

    @classmethod
    def of(cls, description, number_bytes: int = 4) -> CacheCost:
        """The cost of a model its ``Description`` (layers, heads, kv_heads, head_dim) describes."""
        d = description
        return cls(d.layers, d.heads, d.kv_heads, d.head_dim, number_bytes)

    @property
    def bytes_per_token(self) -> int:
        """2 × layers × h_kv × d × bytes per number: one key and one value a layer and key/value head."""
        return 2 * self.layers * self.kv_heads * self.head_dim * self.number_bytes

    @property
    def bytes_per_token_ungrouped(self) -> int:
        """What a token would cost with a key/value head for every query head (h/h_kv times more)."""
        return 2 * self.layers * self.heads * self.head_dim * self.number_bytes

    def cache_bytes(self, tokens: int) -> int:
        """The cache of ``tokens`` tokens."""
        return self.bytes_per_token * tokens

    def vectors(self, tokens: int) -> int:
        """Key and value vectors computed for ``tokens`` positions: 2 × layers × h_kv × tokens
        (a step with the cache: its new positions; without it: all t)."""
        return 2 * self.layers * self.kv_heads * tokens


@dataclass(frozen=True)
class CachedGeneration:
    """A text continued token by token with the cache: its prompt, its steps and their cost."""

    prompt_ids: tuple[int, ...]  # the tokens read (at most the context)
    prompt_labels: tuple[str, ...]
    steps: tuple[CacheStep, ...]
    cost: CacheCost
    prompt_weights: tuple[torch.Tensor, ...]  # per layer (h, P, P): the prompt's rows, computed at step 0
    cut: int = 0  # tokens of the prompt not read, past the context (the tiny GPT's first ones, a real model's last)
    left_out: tuple[str, ...] = ()  # characters the model cannot read (the tiny GPT), left out

    @property
    def token_ids(self) -> list[int]:
        """The prompt's ids and the chosen ones."""
        return [*self.prompt_ids, *(step.token_id for step in self.steps)]

    @property
    def labels(self) -> list[str]:
        return [*self.prompt_labels, *(step.label for step in self.steps)]

    def cached_matrix(self, step: int, layer: int) -> torch.Tensor:
        """(h, t, t): layer ``layer``'s weights as the cache computed them up to step ``step``,
        the prompt's rows (step 0) then one new row a step, 0 past each row's query: what a full
        causal pass over the same t tokens computes at once."""
        rows = self.prompt_weights[layer]  # (h, P, P)
        h, t = rows.shape[0], self.steps[step].length
        matrix = rows.new_zeros(h, t, t)
        matrix[:, : rows.shape[1], : rows.shape[2]] = rows
        for later in self.steps[1 : step + 1]:
            matrix[:, later.position, : later.length] = later.layers[layer].weights
        return matrix


@dataclass(frozen=True)
class Forward:
    """New positions through a model with a cache: what ``generate_with_cache`` reads of it."""

    logits: torch.Tensor  # (vocabulary,) the last position's scores (only the ids that are tokens)
    queries: list[torch.Tensor]  # per layer (h, n, d): the new positions' queries
    keys: list[torch.Tensor]  # per layer (h_kv, t, d): the whole cache after them
    values: list[torch.Tensor]  # per layer (h_kv, t, d)
    weights: list[torch.Tensor]  # per layer (h, n, t): the new positions' softmax weights


Model = Callable[[list[int]], Forward]  # new ids in, the cache grown by them (a stateful model)
Describe = Callable[[int], tuple[str, str | None]]  # a chosen id's label and text


def attend_over_cache(
    queries: torch.Tensor, keys: torch.Tensor, values: torch.Tensor, scale: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """The n newest positions' attention over the cache: queries (h, n, d) against keys and
    values (h_kv, t, d), each key/value head read by its group of h/h_kv query heads. A new
    position sees every key up to its own (t − n + j for the j-th). Returns the weights (h, n, t)
    and the context (h, n, d)."""
    groups = queries.shape[0] // keys.shape[0]
    keys, values = keys.repeat_interleave(groups, dim=0), values.repeat_interleave(groups, dim=0)
    n, t = queries.shape[1], keys.shape[1]
    scores = queries @ keys.transpose(-2, -1) * scale  # (h, n, t)
    positions = torch.arange(t, device=queries.device)
    future = positions > positions[t - n :, None]  # (n, t): the keys after each new query
    masked = scores.masked_fill(future, float("-inf"))
    weights = torch.softmax(masked, dim=-1, dtype=torch.float32).to(queries.dtype)  # as eager attention
    return weights, weights @ values


def generate_with_cache(
    model: Model,
    prompt_ids: Sequence[int],
    n: int,
    describe: Describe,
    *,
    temperature: float = 0.0,
    seed: int = 0,
    top_k: int | None = None,
    max_seconds: float | None = None,
) -> tuple[list[CacheStep], list[torch.Tensor]]:
    """Up to ``n`` steps of ``model`` after ``prompt_ids``: step 0 reads the prompt, each later
    one the token chosen before; each chooses with ``gpt_core.generate.choose_next`` and a
    generator seeded by ``seed``. Stops once the next step would not be done within
    ``max_seconds``. Returns the steps and the prompt's weights (per layer (h, P, P)).

    Each step's keys and values are the first t rows of the last step's cache: a cache only
    grows (the past's keys never change), so the steps share it instead of a copy each."""
    check_sampling(temperature, top_k, None)
    generator = torch.Generator().manual_seed(seed)
    pending, chosen, last, prompt_weights = list(prompt_ids), [], None, []
    began, slowest = time.perf_counter(), 0.0
    for _ in range(n):
        if max_seconds is not None and time.perf_counter() - began + slowest > max_seconds:
            break
        tick = time.perf_counter()
        last = model(pending)
        prompt_weights = prompt_weights or [w.clone() for w in last.weights]
        token_id = choose_next(last.logits, temperature, top_k, generator)
        rows = [(q[:, -1].clone(), w[:, -1].clone()) for q, w in zip(last.queries, last.weights, strict=True)]
        chosen.append((token_id, last.keys[0].shape[1], len(pending), rows))
        pending = [token_id]
        slowest = max(slowest, time.perf_counter() - tick)
    steps = [_step(index, entry, last, describe) for index, entry in enumerate(chosen)]
    return steps, prompt_weights


def _step(index: int, entry: tuple, last: Forward, describe: Describe) -> CacheStep:
    token_id, t, new, rows = entry
    layers = tuple(
        CacheLayer(keys[:, :t], values[:, :t], weights, query)
        for keys, values, (query, weights) in zip(last.keys, last.values, rows, strict=True)
    )
    label, text = describe(token_id)
    return CacheStep(index, token_id, label, text, t - 1, new, layers)


class GPTCache:
    """The book's tiny GPT with a key/value cache, on the model's own weights and layers: each
    call runs only the new positions through every block, their keys and values appended to
    the block's cache and their queries attending over it (eval mode: no dropout)."""

    def __init__(self, model: GPT) -> None:
        self.model = model
        self.keys: list[torch.Tensor | None] = [None] * len(model.blocks)
        self.values: list[torch.Tensor | None] = [None] * len(model.blocks)
        self.length = 0  # positions in the cache

    @torch.no_grad()
    def __call__(self, ids: list[int]) -> Forward:
        model, n = self.model, len(ids)
        positions = torch.arange(self.length, self.length + n)
        x = model.token_embedding(torch.tensor([ids])) + model.position_embedding(positions)  # (1, n, C)
        queries, weights = [], []
        for index, block in enumerate(model.blocks):
            attended, query, weight = self._attention(index, block, block.attention_norm(x))
            x = x + block.residual_dropout(attended)
            x = x + block.feed_forward(block.feed_forward_norm(x))
            queries.append(query)
            weights.append(weight)
        self.length += n
        logits = model.lm_head(model.final_norm(x))[0, -1]  # (vocab,)
        return Forward(logits, queries, list(self.keys), list(self.values), weights)

    def _attention(self, index: int, block, normed: torch.Tensor):
        """Block ``index``'s attention of the new positions (1, n, C): its output (1, n, C),
        their queries (h, n, d) and weights (h, n, t); the block's cache grows by n."""
        attention = block.attention
        n, h, d = normed.shape[1], attention.num_heads, attention.head_dim

        def heads(layer) -> torch.Tensor:
            return layer(normed)[0].view(n, h, d).transpose(0, 1)  # (h, n, d)

        query, key, value = heads(attention.query_layer), heads(attention.key_layer), heads(attention.value_layer)
        past_keys, past_values = self.keys[index], self.values[index]
        self.keys[index] = key if past_keys is None else torch.cat([past_keys, key], dim=1)
        self.values[index] = value if past_values is None else torch.cat([past_values, value], dim=1)
        scale = 1 / math.sqrt(d) if attention.scale else 1.0
        weights, context = attend_over_cache(query, self.keys[index], self.values[index], scale)
        merged = context.transpose(0, 1).reshape(1, n, h * d)  # heads merged back
        return attention.output_layer(merged), query, weights


def room_for(context: int, n: int) -> int:
    """The prompt's positions a context of ``context`` keeps so that ``n`` steps fit after it
    (the prompt's last token is step 0's query): at least one."""
    return max(1, context - n + 1)


def steps_that_fit(context: int, prompt: int, n: int) -> int:
    """The steps of a generation a context of ``context`` positions holds after ``prompt``
    tokens: a cache cannot slide (its keys carry their positions), so the last step's query
    is at position context − 1."""
    return max(0, min(n, context - prompt + 1))


def generate_characters_cached(
    model: GPT,
    vocabulary: CharVocabulary,
    prompt: str,
    n: int,
    temperature: float = 0.0,
    seed: int = 0,
    top_k: int | None = None,
    max_seconds: float | None = None,
) -> CachedGeneration:
    """Continue ``prompt`` by up to ``n`` characters with the cache, choosing as
    ``gpt_core.explore.generate_characters`` does (the same characters for the same settings
    while the text fits the context). Characters the vocabulary lacks are left out. A cache
    cannot slide (its keys carry their positions), so the model reads as much of the rest's end
    as leaves its context room for the ``n`` steps (the last query at position context − 1),
    and the characters before are ``cut``; ``n`` past the context stops there. Raises
    ``InputError`` when nothing readable is left or for a bad temperature or top-k."""
    known, left_out = readable_characters(vocabulary, prompt)
    context = model.config.context_length
    read = known[-room_for(context, n) :]

    def describe(token_id: int) -> tuple[str, str | None]:
        char = vocabulary.decode([token_id])
        return display_label(char), char

    was_training = model.training
    model.eval()
    try:
        steps, prompt_weights = generate_with_cache(
            GPTCache(model),
            vocabulary.encode(read),
            steps_that_fit(context, len(read), n),
            describe,
            temperature=temperature,
            seed=seed,
            top_k=top_k,
            max_seconds=max_seconds,
        )
    finally:
        model.train(was_training)
    config, number_bytes = model.config, next(model.parameters()).element_size()
    cost = CacheCost(config.blocks, config.heads, config.heads, config.head_dim, number_bytes)
    return CachedGeneration(
        tuple(vocabulary.encode(read)),
        tuple(display_labels(list(read))),
        tuple(steps),
        cost,
        tuple(prompt_weights),
        cut=len(known) - len(read),
        left_out=left_out,
    )
