"""One training step and what it needs: the learning-rate schedule, AdamW, the run's own
random streams, held-out evaluation, and the memory check made before a run's first step."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .data import Corpus
from .errors import InputError
from .memory import estimate_training_bytes, largest_fitting_parameters
from .model import GPT
from .seeding import seeded_generator
from .train_records import TrainConfig


def learning_rate_at(fraction: float, step: int, config: TrainConfig) -> float:
    """Linear warmup over warmup_steps, then cosine from learning_rate to its min ratio."""
    if step < config.warmup_steps:
        return config.learning_rate * (step + 1) / config.warmup_steps
    floor = config.learning_rate * config.min_learning_rate_ratio
    return floor + 0.5 * (config.learning_rate - floor) * (1 + math.cos(math.pi * min(1.0, fraction)))


@torch.no_grad()
def evaluate(
    model: GPT, corpus: Corpus, batches: int | None, batch_size: int, generator: torch.Generator | None = None
) -> float:
    """Mean held-out loss: over ``batches`` random batches of the test split, or over every
    window of it in order when ``batches`` is None."""
    was_training = model.training
    model.eval()
    if batches is None:
        chunks = torch.arange(len(corpus.test)).split(batch_size)
    else:
        chunks = [torch.randint(len(corpus.test), (batch_size,), generator=generator) for _ in range(batches)]
    total, count = 0.0, 0
    for indices in chunks:
        inputs, targets = corpus.test.batch(indices)
        total += model(inputs, targets)[1].item() * len(indices)
        count += len(indices)
    model.train(was_training)
    return total / count


@dataclass
class Generators:
    """The run's own random streams, one per use, all from its seed (never the global state)."""

    batches: torch.Generator  # which windows form each training batch
    evaluation: torch.Generator  # which test windows each evaluation reads
    dropout: torch.Generator  # dropout masks, when the model has dropout

    @classmethod
    def from_seed(cls, seed: int) -> Generators:
        return cls(seeded_generator(seed), seeded_generator(seed + 1), seeded_generator(seed + 2))


def optimizer_for(model: GPT, config: TrainConfig) -> torch.optim.AdamW:
    """AdamW with weight decay on the matrices only (not on biases and LayerNorm gains)."""
    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    return torch.optim.AdamW(
        [{"params": decay, "weight_decay": config.weight_decay}, {"params": no_decay, "weight_decay": 0.0}],
        lr=config.learning_rate,
    )


def training_step(
    model: GPT, corpus: Corpus, config: TrainConfig, optimizer: torch.optim.Optimizer, generators: Generators
) -> float:
    """One optimizer step on a random batch of the train split; returns its loss."""
    indices = torch.randint(len(corpus.train), (config.batch_size,), generator=generators.batches)
    inputs, targets = corpus.train.batch(indices)
    _, loss = model(inputs, targets, generator=generators.dropout)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), config.grad_clip)
    optimizer.step()
    return loss.item()


def check_memory(model: GPT, config: TrainConfig) -> None:
    """Refuse, before any step, a run whose estimated peak is above ``config.max_bytes``."""
    if config.max_bytes is None:
        return
    estimate = estimate_training_bytes(model, config.batch_size)
    if estimate > config.max_bytes:
        raise InputError(
            "too_large_for_memory",
            estimate_mb=round(estimate / 2**20),
            budget_mb=round(config.max_bytes / 2**20),
            parameters=model.parameter_count(),
            largest=largest_fitting_parameters(model.config, config.batch_size, config.max_bytes),
        )
