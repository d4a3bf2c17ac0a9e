"""Lesson step 9's count of the key vectors a generation step computes, read off the cache's
shapes (ui/lesson/cache_step.py ``new_keys``): with the cache, a step after the prompt adds one
position, so each layer computes one key per key/value head, whatever the step."""

from __future__ import annotations

import pytest
import torch

from gpt_core.kv_cache import CacheCost, CachedGeneration, CacheLayer, CacheStep
from ui.lesson.cache_step import new_keys

H_KV, D, PROMPT = 2, 3, 4


def _step(index: int, length: int, layers: int) -> CacheStep:
    layer = CacheLayer(
        keys=torch.zeros(H_KV, length, D),
        values=torch.zeros(H_KV, length, D),
        weights=torch.full((H_KV, length), 1.0 / length),
        query=torch.zeros(H_KV, D),
    )
    new = PROMPT if index == 0 else 1
    return CacheStep(index, 0, "a", "a", length - 1, new, (layer,) * layers)


def _generation(lengths: list[int], layers: int = 2) -> CachedGeneration:
    steps = tuple(_step(i, length, layers) for i, length in enumerate(lengths))
    return CachedGeneration((0,) * PROMPT, ("a",) * PROMPT, steps, CacheCost(layers, H_KV, H_KV, D), ())


@pytest.mark.parametrize("step", [1, 2, 3])
def test_a_step_with_the_cache_computes_one_key_per_key_value_head_in_each_layer(step):
    generation = _generation([PROMPT, PROMPT + 1, PROMPT + 2, PROMPT + 3])
    assert [new_keys(generation, step, layer) for layer in range(2)] == [H_KV, H_KV]


def test_the_count_is_what_the_cache_gained_not_a_constant():
    """A cache that grew by three positions (three tokens at once) counts three keys a head."""
    generation = _generation([PROMPT, PROMPT + 3])
    assert new_keys(generation, 1, 0) == 3 * H_KV
