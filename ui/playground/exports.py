"""Downloads of the playground: a matrix as CSV and the whole trace as NPZ (the Python that
reproduces a view is its source's, ``AttentionSource.reproduction``). Pure functions (no
Streamlit)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

import numpy as np

from gpt_core import PlaygroundTrace


def matrix_csv(matrix: np.ndarray, labels: list[str]) -> str:
    """A (T, T) matrix as CSV: header row of keys, one row per query, −inf written as -inf."""
    out = io.StringIO()
    writer = csv.writer(out)
    # Position first: no header cell starts with = + - @, so a spreadsheet runs no formula.
    names = [f"{position}:{label}" for position, label in enumerate(labels)]
    writer.writerow(["query \\ key", *names])
    for name, row in zip(names, matrix, strict=True):
        writer.writerow([name, *(repr(float(value)) for value in row)])
    return out.getvalue()


def trace_npz(result: PlaygroundTrace, settings: Mapping[str, Any] | None = None) -> bytes:
    """Every tensor of the trace (arrays named as the trace's fields), the tokens, and the
    sizes it was computed with (its ``Description``, or a ``PlaygroundConfig``) with the
    reader's ``settings`` (random weights': the seed, the tokenizer… by their link names)."""
    arrays = {name: tensor.numpy() for name, tensor in result.trace.tensors().items()}
    arrays["tokens"] = np.array(result.tokens, dtype=np.str_)
    arrays["config_json"] = np.array(json.dumps({**asdict(result.config), **(settings or {})}))
    out = io.BytesIO()
    np.savez_compressed(out, **arrays)
    return out.getvalue()
