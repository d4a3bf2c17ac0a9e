"""The example notebook (docs/notebooks/seeing_attention.ipynb) runs in a real Jupyter kernel
(nbclient and ipykernel), and its outputs carry what a notebook front end renders: the page in
a frame of its own as text/html (Jupyter, JupyterLab, VS Code and Colab all render it), a short
text/plain, the numbers, and the offline file."""

from __future__ import annotations

import html
import os
import re
import shutil
import sys
from pathlib import Path

import nbformat
import numpy as np
from nbclient import NotebookClient

from seeing_attention.limits import most_tokens

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "docs" / "notebooks" / "seeing_attention.ipynb"
CELL_TIMEOUT_S = 300  # a kernel's start and torch's import, on a busy 2-core machine


def test_the_example_notebook_runs_and_renders_the_page(tmp_path, monkeypatch):
    shutil.copy(NOTEBOOK, tmp_path / NOTEBOOK.name)
    notebook = nbformat.read(tmp_path / NOTEBOOK.name, as_version=4)
    # The kernel is this interpreter ("python" on the PATH, as ipykernel's kernel spec says),
    # and it imports the package from the checkout (tests/unit/test_packaging.py installs it).
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    NotebookClient(
        notebook, timeout=CELL_TIMEOUT_S, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()

    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(o.output_type != "error" for cell in code for o in cell.outputs)
    (shown,) = code[0].outputs
    assert shown.output_type == "execute_result"
    frame = shown.data["text/html"]
    assert frame.startswith('<script type="text/plain" id="seeing-attention-plotly">') and len(frame) > 1_000_000
    page = html.unescape(frame.split('<iframe srcdoc="', 1)[1].split('" style=', 1)[0])
    assert page.startswith("<!DOCTYPE html>") and "多头因果注意力：动手学大模型" in page
    assert shown.data["text/plain"] == "<seeing_attention.View: 4 heads × 6 tokens of '动手学大模型', seed 0>"

    printed = "".join(o.get("text", "") for o in code[1].outputs)
    assert "['动', '手', '学', '大', '模', '型']" in printed
    sums = printed.strip().splitlines()[-1]
    assert np.allclose([float(v) for v in sums.strip("[] ").replace("[", " ").replace("]", " ").split()], 1.0)
    assert "(B, h, T, T)" in "".join(o.get("text", "") for o in code[2].outputs)
    saved = tmp_path / "attention.html"
    data = re.compile(r'<script type="application/json" id="sa-data">(.*?)</script>', re.S)
    assert data.findall(saved.read_text(encoding="utf-8")) == data.findall(page), "the file holds the frame's page"


def test_errors_of_ours_are_shown_as_their_message_and_others_keep_their_traceback(tmp_path, monkeypatch):
    """A notebook is where a learner types a wrong path or a setting out of range: what the
    package raises shows as its one sentence, in the view's language, and not as a traceback
    of the package's code; an error of the learner's own code keeps its traceback."""
    cells = [
        "import seeing_attention as sa",
        'sa.show(model="./no-such-model-folder", lang="zh")',
        'sa.show("abc", max_tokens=0)',
        'sa.show("abc", layer=[0], model="./nor-this-one")',
        'int("seven")',
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code) for code in cells])
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    resources = {"metadata": {"path": str(tmp_path)}}
    client = NotebookClient(notebook, timeout=CELL_TIMEOUT_S, kernel_name="python3", resources=resources)
    client.allow_errors = True
    client.execute()
    (folder,), (limit,), (english,), (own,) = [cell.outputs for cell in notebook.cells[1:]]
    assert len(folder.traceback) == 1
    assert folder.traceback[0].startswith("InputError: 这台电脑上没有文件夹 ./no-such-model-folder")
    assert limit.traceback == [f"InputError: max_tokens must be between 1 and {most_tokens(4)} (got 0)."]
    assert len(english.traceback) == 1 and "There is no folder ./nor-this-one" in english.traceback[0]
    assert own.ename == "ValueError" and len(own.traceback) > 1 and "int(" in "".join(own.traceback)
