"""The page that works offline from one file: its size, the time to write it, the time to open it.

    python benchmarks/export.py [--repeats N]

Two cases, each N times (default 3), alternating so both share the machine's noise:
- the book's example: `seeing-attention export` with its defaults (动手学大模型, 4 heads of 8,
  random weights from seed 0);
- GPT-2's shape at 64 tokens, every one of its 12 layers: a model with GPT-2 small's attention
  shapes (12 layers × 12 heads, 768 wide; random weights, this repository's small tokenizer,
  harness/tiny_models.py: no pretrained weights here) saved in a folder,
  `seeing-attention export --model FOLDER --layer all`.
"Write" is the command's whole run as a user waits for it (a new Python process: imports,
the model's load, the trace, the file). "Open" is a new Chromium page from file://, every
other request refused, until the page's script has drawn every chart (`seeingAttention.ready`).
Prints a Markdown table for docs/benchmarks.md and the README.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/export.py`: the harness lives at the root
    sys.path.insert(0, str(ROOT))

from harness.browser import launch_chromium, need_browser  # noqa: E402

TOKENS = 64


def _text_of(folder: Path, tokens: int) -> str:
    """A text the model's tokenizer reads as exactly ``tokens`` tokens."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder)
    words = ("the cat sat on the mat and the dog ran to the park while the birds sang in the trees " * 20).split()
    for n in range(1, len(words)):
        text = " ".join(words[:n])
        if len(tokenizer(text)["input_ids"]) >= tokens:
            return text
    raise RuntimeError("the text is too short")


def _write(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - started


def _open(browser, path: Path) -> float:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, offline=True)
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort())
    page = context.new_page()
    started = time.perf_counter()
    page.goto(path.as_uri())
    page.wait_for_function("window.seeingAttention && window.seeingAttention.ready", timeout=120_000)
    seconds = time.perf_counter() - started
    context.close()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from harness.tiny_models import build_shaped_model

    work = Path(tempfile.mkdtemp(prefix="export-bench-"))
    try:
        folder = build_shaped_model("gpt2-shape", work / "gpt2-shape")
        text = _text_of(folder, TOKENS)
        command = [sys.executable, "-m", "seeing_attention", "export"]
        cases = {
            "the book's example (6 tokens, 4 heads, 1 layer)": command + ["-o", str(work / "book.html")],
            f"GPT-2's shape ({TOKENS} tokens, 12 heads, all 12 layers)": command
            + ["--model", str(folder), "--layer", "all", "--text", text, "-o", str(work / "gpt2.html")],
        }
        files = {name: Path(cmd[-1]) for name, cmd in cases.items()}
        writes = {name: [] for name in cases}
        opens = {name: [] for name in cases}
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright, need_browser())
            for _ in range(args.repeats):
                for name, cmd in cases.items():
                    writes[name].append(_write(cmd, ROOT))
                    opens[name].append(_open(browser, files[name]))
            browser.close()
        print("| page | file | write (median) | open in Chromium (median) |")
        print("| --- | --- | --- | --- |")
        for name in cases:
            size = files[name].stat().st_size / 1e6
            print(
                f"| {name} | {size:.2f} MB | {statistics.median(writes[name]):.1f} s | "
                f"{statistics.median(opens[name]):.2f} s |"
            )
        print(
            f"\n{args.repeats} runs each, alternating; write: the whole command, a new process; open: to every "
            "chart drawn, offline."
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
