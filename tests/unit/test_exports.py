"""Downloads reproduce the numbers: CSV, NPZ and the Python snippet."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np

from gpt_core import PlaygroundConfig, trace_attention
from ui.playground.exports import matrix_csv, python_snippet, trace_npz


def test_csv_holds_the_matrix_with_token_headers_and_minus_infinity():
    result = trace_attention("=ab", PlaygroundConfig(heads=1, head_dim=2))
    matrix = result.trace.masked_scores[0, 0].numpy()
    rows = list(csv.reader(io.StringIO(matrix_csv(matrix, result.labels))))
    assert rows[0] == ["query \\ key", "0:=", "1:a", "2:b"], "position first: no cell starts with ="
    values = np.array([[float(cell) for cell in row[1:]] for row in rows[1:]], dtype=np.float32)
    np.testing.assert_array_equal(values, matrix)
    assert math.isinf(values[0, 1]) and values[0, 1] < 0


def test_npz_has_every_traced_tensor_the_tokens_and_the_config():
    config = PlaygroundConfig(heads=2, head_dim=3, seed=4)
    result = trace_attention("动手学大模型", config)
    archive = np.load(io.BytesIO(trace_npz(result)))
    for name, tensor in result.trace.tensors().items():
        np.testing.assert_array_equal(archive[name], tensor.numpy())
    assert archive["tokens"].tolist() == list("动手学大模型")
    assert json.loads(str(archive["config_json"]))["seed"] == 4


def test_python_snippet_reproduces_the_numbers():
    config = PlaygroundConfig(heads=2, head_dim=3, seed=9, tokenizer="word", scale=False, qkv_bias=True)
    text = "it's \"quoted\" \\ and\nnew'line"
    namespace: dict = {}
    exec(python_snippet(text, config).replace("print(", "(lambda *a: None)("), namespace)
    expected = trace_attention(text, config).trace.weights
    assert np.array_equal(namespace["trace"].weights.numpy(), expected.numpy())
