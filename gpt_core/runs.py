"""The one record of a finished training run: what the app shows, the shipped results
store, and a checkpoint carries about how its model was trained."""

from __future__ import annotations

from dataclasses import dataclass, field

from .train import HistoryPoint, TrainResult

HISTORY_EVERY = 10  # a kept history holds every n-th step's train loss (and every evaluation)


def compact_history(history: list[HistoryPoint], every: int = HISTORY_EVERY) -> list[HistoryPoint]:
    """Every ``every``-th step, and every step with a held-out loss."""
    return [point for point in history if point.step % every == 0 or point.test_loss is not None]


@dataclass
class RunSummary:
    """One training run of one model: its size, its budget, its speed and its losses."""

    heads: int
    parameters: int
    steps: int
    wall_time: float  # seconds of training (evaluation excluded)
    tokens_per_second: float
    final_test_loss: float | None  # None when the run was stopped before any evaluation
    history: list[HistoryPoint] = field(default_factory=list)
    sample: str = ""  # text generated after training, when taken
    checkpoint_file: str = ""  # the file of its weights, for shipped runs
    seed: int = 0  # the seed of its weights, batches and sampling

    @classmethod
    def from_result(
        cls, heads: int, parameters: int, result: TrainResult, sample: str = "", seed: int = 0
    ) -> RunSummary:
        return cls(
            heads=heads,
            parameters=parameters,
            steps=result.steps,
            wall_time=result.elapsed,
            tokens_per_second=result.tokens_per_second,
            final_test_loss=result.final_test_loss,
            history=list(result.history),
            sample=sample,
            seed=seed,
        )

    def to_dict(self, digits: int | None = None) -> dict:
        """A plain record (JSON, or a weights-only checkpoint), floats rounded to ``digits``."""

        def number(value: float | None) -> float | None:
            return round(value, digits) if digits is not None and value is not None else value

        return {
            "heads": self.heads,
            "parameters": self.parameters,
            "steps": self.steps,
            "wall_time": number(self.wall_time),
            "tokens_per_second": number(self.tokens_per_second),
            "final_test_loss": number(self.final_test_loss),
            "history": [point.to_dict(digits) for point in self.history],
            "sample": self.sample,
            "checkpoint_file": self.checkpoint_file,
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, record: dict) -> RunSummary:
        fields = dict(record)
        fields["history"] = [HistoryPoint.from_dict(point) for point in record.get("history", [])]
        return cls(**fields)
