"""Downloads reproduce the numbers: CSV, NPZ and the Python snippet."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from gpt_core import PlaygroundConfig, trace_attention
from gpt_core.reproduction import random_code as python_snippet
from ui.playground.exports import matrix_csv, trace_npz

ROOT = Path(__file__).resolve().parents[2]


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


SNIPPET_FILE = "reproduce_attention.py"  # the download's file name (ui/playground/views.py)
INSTALL_TIMEOUT_S = 300
RUN_TIMEOUT_S = 120
# Runs the downloaded file unchanged, then saves every tensor of the trace it computed.
SAVE_TRACE = f"""
import runpy, numpy
namespace = runpy.run_path({SNIPPET_FILE!r})
numpy.savez("trace.npz", **{{name: t.numpy() for name, t in namespace["trace"].tensors().items()}})
"""


@pytest.fixture(scope="module")
def installed_python(tmp_path_factory) -> Path:
    """A venv's python with this repository installed as the snippet's header says
    (``pip install -e .``); it sees this environment's packages (torch) through a .pth file."""
    root = tmp_path_factory.mktemp("install")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    target = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(target) / "outer.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "-e", str(ROOT)],
        check=True,
        timeout=INSTALL_TIMEOUT_S,
        cwd=root,
    )
    return python


def _downloaded(tmp_path: Path, text: str, config: PlaygroundConfig) -> Path:
    downloads = tmp_path / "Downloads"
    downloads.mkdir()
    (downloads / SNIPPET_FILE).write_text(python_snippet(text, config), encoding="utf-8")
    assert not downloads.resolve().is_relative_to(ROOT)
    return downloads


def test_downloaded_snippet_runs_outside_the_repo_once_gpt_core_is_installed(tmp_path, installed_python):
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}  # the installed copy only
    text = 'the "cat"\nsat'
    config = PlaygroundConfig(
        heads=3, head_dim=2, input_dim=5, seed=12, tokenizer="word", dropout=0.3, training=True, qkv_bias=True
    )
    downloads = _downloaded(tmp_path, text, config)
    expected = trace_attention(text, config)
    run = subprocess.run(
        [str(installed_python), SNIPPET_FILE],
        capture_output=True,
        text=True,
        cwd=downloads,
        env=env,
        timeout=RUN_TIMEOUT_S,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == repr(expected.tokens)
    subprocess.run([str(installed_python), "-c", SAVE_TRACE], check=True, cwd=downloads, env=env, timeout=RUN_TIMEOUT_S)
    saved = np.load(downloads / "trace.npz")
    tensors = expected.trace.tensors()
    assert set(saved.files) == set(tensors)
    for name, tensor in tensors.items():
        np.testing.assert_array_equal(saved[name], tensor.numpy(), err_msg=name)


def test_downloaded_snippet_without_gpt_core_says_how_to_install_it(tmp_path):
    downloads = _downloaded(tmp_path, "abc", PlaygroundConfig())
    snippet = (downloads / SNIPPET_FILE).read_text(encoding="utf-8")
    header = snippet[: snippet.index("import")]
    assert "pip install -e ." in header and "pip install ." in header
    # -I -S: no site-packages and no PYTHONPATH, so gpt_core cannot be found.
    run = subprocess.run(
        [sys.executable, "-I", "-S", SNIPPET_FILE], capture_output=True, text=True, cwd=downloads, timeout=RUN_TIMEOUT_S
    )
    assert run.returncode != 0
    assert "gpt_core" in run.stderr and "pip install -e ." in run.stderr, run.stderr
    assert "Traceback" not in run.stderr, "a plain message, not a traceback"
