"""A training run's records: how to train (``TrainConfig``, its budget checked), each step's
point of the history, what the trainer reports after a step and what a run returns."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import InputError

MAX_STEPS = 20_000  # the most steps a TrainConfig accepts (the app caps its runs lower)
MAX_SECONDS = 600.0  # the longest wall-time budget a TrainConfig accepts


@dataclass(frozen=True)
class TrainConfig:
    """How to train. A budget in steps, or in seconds of wall time (whichever is set)."""

    steps: int | None = 1000  # optimizer steps; None when the budget is in seconds
    seconds: float | None = None  # wall-time budget; the schedule then follows elapsed time
    batch_size: int = 64
    learning_rate: float = 5e-3  # measured best of a small sweep at the book's size (docs/benchmarks.md)
    min_learning_rate_ratio: float = 0.1  # cosine decays to this fraction of learning_rate
    warmup_steps: int = 50
    weight_decay: float = 0.1
    grad_clip: float = 1.0  # max global gradient norm
    eval_every: int = 100  # steps between held-out evaluations (and one at the end)
    eval_batches: int | None = 8  # random test batches per evaluation; None: the whole split
    seed: int = 0
    max_seconds: float | None = None  # a wall-time cap whatever the budget (a steps budget too)
    max_bytes: int | None = None  # refuse a run whose estimated peak memory is above this

    def __post_init__(self) -> None:
        if (self.steps is None) == (self.seconds is None):
            raise InputError("budget_kind", steps=self.steps, seconds=self.seconds)
        if self.steps is not None and not 1 <= self.steps <= MAX_STEPS:
            raise InputError("steps_range", low=1, high=MAX_STEPS, unit="steps", value=self.steps)
        for seconds in (self.seconds, self.max_seconds):
            if seconds is not None and not 0 < seconds <= MAX_SECONDS:
                raise InputError("steps_range", low=0, high=MAX_SECONDS, unit="seconds", value=seconds)


@dataclass(frozen=True)
class HistoryPoint:
    """One step of a run's history: the train loss, and the held-out loss where evaluated."""

    step: int
    elapsed: float  # seconds since training started
    train_loss: float
    test_loss: float | None = None  # set on evaluation steps

    def to_dict(self, digits: int | None = None) -> dict:
        """A plain record (no test_loss key when not evaluated), numbers rounded to ``digits``."""
        record = {"step": self.step, "elapsed": self.elapsed, "train_loss": self.train_loss}
        if self.test_loss is not None:
            record["test_loss"] = self.test_loss
        if digits is not None:
            record = {
                name: round(value, digits) if isinstance(value, float) else value for name, value in record.items()
            }
        return record

    @classmethod
    def from_dict(cls, record: dict) -> HistoryPoint:
        return cls(int(record["step"]), record["elapsed"], record["train_loss"], record.get("test_loss"))


@dataclass(frozen=True)
class Progress:
    """What the trainer reports after each step."""

    point: HistoryPoint  # the step's entry of the history
    learning_rate: float
    tokens_per_second: float
    fraction: float  # of the budget done, 0..1

    @property
    def step(self) -> int:
        return self.point.step

    @property
    def train_loss(self) -> float:
        return self.point.train_loss

    @property
    def test_loss(self) -> float | None:
        return self.point.test_loss

    @property
    def elapsed(self) -> float:
        return self.point.elapsed


@dataclass
class TrainResult:
    steps: int
    elapsed: float
    tokens_per_second: float
    final_test_loss: float
    stopped_early: bool
    history: list[HistoryPoint] = field(default_factory=list)


def last_test_loss(history: list[HistoryPoint]) -> float | None:
    """The latest held-out loss of a history, or None when it was never evaluated."""
    evaluated = [point.test_loss for point in history if point.test_loss is not None]
    return evaluated[-1] if evaluated else None
