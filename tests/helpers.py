"""Shared test helpers."""

from __future__ import annotations

import torch


def assert_close(actual: torch.Tensor, expected: torch.Tensor, atol: float, what: str = "") -> None:
    """assert |actual - expected| <= atol everywhere, reporting the max difference."""
    assert actual.shape == expected.shape, f"{what}: shape {tuple(actual.shape)} != {tuple(expected.shape)}"
    max_diff = (actual - expected).abs().max().item()
    assert max_diff <= atol, f"{what}: max difference {max_diff:.3e} > {atol:.0e}"


def free_slots(semaphore) -> int:
    """How many times ``semaphore`` can be acquired now (taken without blocking, then given back)."""
    taken = 0
    while semaphore.acquire(blocking=False):
        taken += 1
    for _ in range(taken):
        semaphore.release()
    return taken
