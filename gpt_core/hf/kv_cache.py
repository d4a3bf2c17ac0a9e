"""Generating with a real model's own key/value cache, step by step with its numbers: the model
runs with ``use_cache=True`` and its cache (transformers' ``DynamicCache``, one layer of keys and
values ``(B, h_kv, t, d)`` each, after rotary positions) is handed back on the next step; each
new row of weights is computed from the query the model's attention received (recorded by
``recording.traced_attention``) and the keys its cache keeps, grouped-query heads included."""

from __future__ import annotations

from ..errors import InputError
from ..kv_cache import CacheCost, CachedGeneration, Forward, attend_over_cache, generate_with_cache, steps_that_fit
from .model import RealModel
from .reading import MAX_REAL_TOKENS, piece, read, token_logits
from .tracing import run_model


class HubCache:
    """A real model with its own cache: each call runs the new ids through the model, handing
    it the cache it returned last, and reads every layer's cache and new queries."""

    def __init__(self, loaded: RealModel) -> None:
        self.loaded = loaded
        self.cache = None  # the model's cache, after the last call
        self.length = 0

    def __call__(self, ids: list[int]) -> Forward:
        given = {} if self.cache is None else {"cache": self.cache}
        records, out = run_model(self.loaded, ids, True, use_cache=True, **given)
        self.cache, self.length = out.cache, self.length + len(ids)
        layers = list(getattr(self.cache, "layers", ()))
        if len(layers) != len(records) or any(self._held(layer) != self.length for layer in layers):
            name = self.loaded.description.name
            raise InputError("model_unsupported", name=name, reason="its key/value cache does not keep every token")
        queries, keys, values, weights = [], [], [], []
        for record, layer in zip(records, layers, strict=True):
            query = record.queries[0]  # (h, n, d) after the model's positions
            keys.append(layer.keys[0].detach())  # (h_kv, t, d)
            values.append(layer.values[0].detach())
            queries.append(query)
            weights.append(attend_over_cache(query, keys[-1], values[-1], record.scaling)[0])
        logits = token_logits(self.loaded, out.logits[0, -1].float())
        return Forward(logits, queries, keys, values, weights)

    @staticmethod
    def _held(layer) -> int:
        """The positions a cache layer holds (-1: none it can show, such as a recurrent state)."""
        keys = getattr(layer, "keys", None)
        return int(keys.shape[-2]) if keys is not None and keys.dim() == 4 else -1


def generate_cached(
    loaded: RealModel,
    text: str,
    n: int,
    temperature: float = 0.0,
    seed: int = 0,
    top_k: int | None = None,
    max_seconds: float | None = None,
) -> CachedGeneration:
    """Continue ``text`` by up to ``n`` tokens with the model's own cache, choosing as
    ``generation.generate_tokens`` does (the same tokens for the same settings). The model reads
    at most its context (or the app's limit) and stops there; only the tokenizer's ids are chosen."""
    pieces, cut, _ = read(loaded, text)
    limit = min(loaded.description.context or MAX_REAL_TOKENS, MAX_REAL_TOKENS)
    ids = [p.token_id for p in pieces]

    def describe(token_id: int) -> tuple[str, str | None]:
        chosen = piece(loaded, token_id)
        return chosen.label, chosen.text if chosen.kind == "text" else None

    steps, prompt_weights = generate_with_cache(
        HubCache(loaded),
        ids,
        steps_that_fit(limit, len(ids), n),
        describe,
        temperature=temperature,
        seed=seed,
        top_k=top_k,
        max_seconds=max_seconds,
    )
    number_bytes = next(loaded.model.parameters()).element_size()  # the cache's numbers are the model's
    return CachedGeneration(
        tuple(ids),
        tuple(p.label for p in pieces),
        tuple(steps),
        CacheCost.of(loaded.description, number_bytes),
        tuple(prompt_weights),
        cut=cut,
    )
