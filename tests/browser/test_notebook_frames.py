"""Views in a real notebook (nbclient and ipykernel): Plotly's script is held once by the
notebook, whatever the number of views, and each view's frame, opened in Chromium as a
notebook front end shows the outputs (one document), draws its charts with it and takes its
content's height (nothing scrolls inside a frame)."""

from __future__ import annotations

import html
import os
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from harness.browser import new_context
from seeing_attention.limits import plotly_js

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
CELL_TIMEOUT_S = 300  # a kernel's start and torch's import, on a busy 2-core machine
CELLS = [
    "import seeing_attention as sa",
    'sa.show("动手学大模型", lang="zh")',
    'sa.show("the cat sat on the mat", tokenizer="word", heads=2)',
    'sa.show("abc", heads=1)',
]
FRAMES_JS = """() => [...document.querySelectorAll('iframe')].map(frame => {
  const doc = frame.contentDocument;
  return {ready: !!(frame.contentWindow.seeingAttention && frame.contentWindow.seeingAttention.ready),
          charts: [...doc.querySelectorAll('.js-plotly-plot')].filter(plot => plot._fullLayout).length,
          frame: frame.getBoundingClientRect().height,
          content: doc.body.getBoundingClientRect().height,
          scrolls: doc.documentElement.scrollHeight > doc.documentElement.clientHeight + 1};
})"""


def _run(tmp_path, monkeypatch) -> nbformat.NotebookNode:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code) for code in CELLS])
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    resources = {"metadata": {"path": str(tmp_path)}}
    NotebookClient(notebook, timeout=CELL_TIMEOUT_S, kernel_name="python3", resources=resources).execute()
    return notebook


def test_plotly_is_held_once_and_every_frame_draws_and_fits_its_content(playwright_browser, tmp_path, monkeypatch):
    notebook = _run(tmp_path, monkeypatch)
    saved = nbformat.writes(notebook)
    script = plotly_js()
    marker = script[-2000:]  # a piece of Plotly's script found nowhere else
    outputs = [o.data["text/html"] for cell in notebook.cells[1:] for o in cell.outputs]
    assert len(outputs) == 3
    copies = sum(output.count(marker) + output.count(html.escape(marker, quote=True)) for output in outputs)
    assert copies == 1, f"Plotly's script, once (not {copies} times: as text, or in a frame's srcdoc)"
    assert marker in outputs[0]
    assert len(saved.encode("utf-8")) < len(script.encode("utf-8")) + 2_000_000, "the notebook holds it once"

    # A front end shows a notebook's outputs in one document, one after another.
    page = tmp_path / "outputs.html"
    body = "".join(f'<div class="output">{output}</div>' for output in outputs)
    page.write_text(f'<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>{body}</body></html>', "utf-8")
    context = new_context(playwright_browser, viewport={"width": 1366, "height": 768}, offline=True)
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "about:")) else r.abort())
    try:
        browser_page = context.new_page()
        errors = []
        browser_page.on("pageerror", lambda error: errors.append(str(error)))
        browser_page.goto(page.as_uri())
        browser_page.wait_for_function(f"({FRAMES_JS})().every(f => f.ready)")
        # Every chart drawn first (a frame's content grows as its charts are drawn, and the frame
        # follows it a frame later), then every frame fitted to its content.
        charts = [4 + 4, 2 + 4, 1 + 4]
        browser_page.wait_for_function(f"({FRAMES_JS})().map(f => f.charts).join() === {','.join(map(str, charts))!r}")
        browser_page.wait_for_function(f"({FRAMES_JS})().every(f => Math.abs(f.frame - f.content) <= 2 && !f.scrolls)")
        frames = browser_page.evaluate(FRAMES_JS)
        assert [frame["charts"] for frame in frames] == charts, frames
        for frame in frames:
            assert frame["frame"] > 768 and not frame["scrolls"], frame
        assert errors == []
    finally:
        context.close()
