"""Downloads of the playground: a matrix as CSV, the whole trace as NPZ, and Python code
that reproduces the view with gpt_core. Pure functions (no Streamlit)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict

import numpy as np

from gpt_core import PlaygroundConfig, PlaygroundTrace


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


def trace_npz(result: PlaygroundTrace) -> bytes:
    """Every tensor of the trace (arrays named as the trace's fields), the tokens, and the config."""
    arrays = {name: tensor.numpy() for name, tensor in result.trace.tensors().items()}
    arrays["tokens"] = np.array(result.tokens, dtype=np.str_)
    arrays["config_json"] = np.array(json.dumps(asdict(result.config)))
    out = io.BytesIO()
    np.savez_compressed(out, **arrays)
    return out.getvalue()


# The top of the downloaded Python: how to get gpt_core, which is not on PyPI.
SNIPPET_HEADER = """\
# Recomputes the numbers of the Seeing Attention playground with gpt_core.
#
# gpt_core is the pure-torch package of the Seeing Attention repository.
# Install it once: in a clone of that repository (the folder with pyproject.toml) run
#     pip install -e .        (or: pip install .; either also installs torch)
# Then run this file from anywhere:
#     python reproduce_attention.py

try:
    from gpt_core import PlaygroundConfig, trace_attention
except ModuleNotFoundError as missing:
    raise SystemExit(f"{missing}. Install gpt_core: pip install -e . in a clone of the repository.") from missing
"""


def python_snippet(text: str, config: PlaygroundConfig) -> str:
    """Python that recomputes exactly these numbers with gpt_core, saying at its top how to
    install gpt_core (``pip install -e .`` in a clone of this repository)."""
    fields = ", ".join(f"{name}={value!r}" for name, value in asdict(config).items())
    return (
        SNIPPET_HEADER + "\n"
        f"config = PlaygroundConfig({fields})\n"
        f"result = trace_attention({text!r}, config)\n"
        "trace = result.trace  # every stage: trace.scores, trace.masked_scores, trace.weights, ...\n"
        "print(result.tokens)\n"
        "print(trace.weights[0, 0])  # head 1, (T, T): rows are queries, columns keys\n"
    )


def real_snippet(name: str, text: str, layer: int) -> str:
    """Python that recomputes a real model's numbers of one layer with gpt_core and transformers."""
    return (
        SNIPPET_HEADER.replace("from gpt_core import PlaygroundConfig, trace_attention", "from gpt_core import hf")
        + "\n"
        f"loaded = hf.load({name!r})  # downloads it once into the Hugging Face cache\n"
        f"traced = hf.trace(loaded, {text!r})\n"
        f"trace = traced.layers[{layer - 1}]  # layer {layer}: trace.scores, trace.masked_scores, trace.weights, ...\n"
        "print(traced.labels)\n"
        "print(trace.weights[0, 0])  # head 1, (T, T): rows are queries, columns keys\n"
    )
