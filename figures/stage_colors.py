"""Colours and written values of the attention stages, chosen to tell the truth: the
scaled and the masked scores share one range (a kept cell keeps its colour when masked),
the raw scores have their own, the weights go from 0 to 1 and, after dropout, to the
largest kept weight, with the dropped cells apart."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .palette import SCORE_COLORSCALE, WEIGHT_COLORSCALE
from .sizing import value_cell_px
from .words import Words

VALUE_DECIMALS = {"weights": 2, "dropped_weights": 2}  # scores: SCORE_VALUE_DECIMALS
SCORE_VALUE_DECIMALS = 1


def score_range(matrices: Sequence[np.ndarray]) -> float:
    """The largest |finite value| over ``matrices``, for a colour scale centred on 0."""
    largest = 0.0
    for matrix in matrices:
        finite = matrix[np.isfinite(matrix)]
        if finite.size:
            largest = max(largest, float(np.abs(finite).max()))
    return largest or 1.0


def is_weights(stage: str) -> bool:
    return stage in ("weights", "dropped_weights")


def value_format(stage: str) -> str:
    return f".{VALUE_DECIMALS.get(stage, SCORE_VALUE_DECIMALS)}f"


def values_cell_px(matrix: np.ndarray, stage: str, font_px: float) -> float:
    """The smallest cell the values of ``matrix``, written as the cells show them, fit in."""
    finite = matrix[np.isfinite(matrix)]
    if finite.size == 0:
        return 0.0  # nothing to write
    fmt = value_format(stage)
    return value_cell_px([format(float(finite.min()), fmt), format(float(finite.max()), fmt), "−∞"], font_px)


def values_fit(matrix: np.ndarray, stage: str, cell_px: float, font_px: float) -> bool:
    """Whether the values of ``matrix`` written as the cells show them fit in a cell."""
    return values_cell_px(matrix, stage, font_px) <= cell_px


@dataclass(frozen=True)
class Look:
    """How one panel's values are coloured and written."""

    colorscale: list
    zmin: float
    zmax: float
    zmid: float | None = None
    colorbar: dict | None = None
    values_font_px: float | None = None  # write each value in its cell, at this size


def stage_looks(stages: Mapping[str, np.ndarray], names: list[str]) -> dict[str, Look]:
    """Colours that tell the truth: the scaled and the masked scores share one range (a
    kept cell keeps its colour when masked); the raw scores have their own; the weights go
    from 0 to 1; after dropout, from 0 to the largest kept value."""
    shared = score_range([stages[stage] for stage in ("scaled_scores", "masked_scores") if stage in stages])
    looks = {}
    for stage in names:
        if stage == "weights":
            looks[stage] = Look(WEIGHT_COLORSCALE, 0.0, 1.0)
        elif stage == "dropped_weights":
            largest = float(np.nanmax(np.where(np.isfinite(stages[stage]), stages[stage], 0.0)))
            looks[stage] = Look(WEIGHT_COLORSCALE, 0.0, max(largest, 1.0))
        elif stage == "scores":
            limit = score_range([stages[stage]])
            looks[stage] = Look(SCORE_COLORSCALE, -limit, limit, 0.0)
        else:
            looks[stage] = Look(SCORE_COLORSCALE, -shared, shared, 0.0)
    return looks


def colorbar_notes(names: list[str], text: Words) -> dict[str, str]:
    """The line under each colour bar, saying what its range is."""
    notes = {
        "scores": text["fig.range_own"],
        "weights": text["fig.range_weights"],
        "dropped_weights": text["fig.range_dropped"],
    }
    shared = [stage for stage in ("scaled_scores", "masked_scores") if stage in names]
    for stage in shared:
        notes[stage] = text["fig.range_shared"] if len(shared) > 1 else text["fig.range_own"]
    return {stage: notes[stage] for stage in names}


def dropped_cells(stages: Mapping[str, np.ndarray]) -> np.ndarray | None:
    """Cells dropout set to zero: a weight above 0 that became exactly 0."""
    if "dropped_weights" not in stages or "weights" not in stages:
        return None
    weights = np.nan_to_num(stages["weights"], nan=0.0)
    return (weights > 0) & (stages["dropped_weights"] == 0)
