"""What a student waits for when looking around on the playground: every view below the
charts, on a 64-token text, over Streamlit's websocket protocol.

    python benchmarks/views.py [CHANGES]

Starts a real `streamlit run` server on a loopback port and, for each view the playground
has (``links.playground.VIEWS``), opens a link to it (64 characters, h = 8, d = 8) and
measures, from sending the change to the server's ``script_finished``:

- switching to the view from the first one (the tab, chosen as a browser sends it);
- moving the chosen cell (another query row) while the view is open, CHANGES times
  (default 20): every view follows the cell;
- on the explorer (every view of a shipped model, h = 4, on a 64-character prompt, all its
  tabs drawn), choosing another head, CHANGES times;
- with compare mode (``cmp=1``, when the playground has it), a seed change with one
  set-up and with two, in one run, so their ratio holds on a noisy machine.

Prints JSON and a Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/views.py`
    sys.path.insert(0, str(ROOT))

from gpt_core import position_label, tokenize  # noqa: E402
from harness.server import start_server, stop_server  # noqa: E402
from harness.streamlit_client import StreamlitClient  # noqa: E402
from links.playground import PARAMS_BY_NAME, VIEWS  # noqa: E402
from string_table import t  # noqa: E402

TEXT = ("The cat sat on the mat because it was tired, and the dog slept by the door all day long.")[:64]
QUERY = {"text": TEXT, "tok": "char", "heads": "8", "head_dim": "8"}
EXPLORER_PROMPT = ("ROMEO:\nBut soft, what light through yonder window breaks? It is the east, and")[:64]
DEFAULT_CHANGES = 20
WARMUP = 2


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def summary(times: list[float]) -> dict:
    return {
        "median_ms": round(statistics.median(times), 1),
        "p95_ms": round(percentile(times, 0.95), 1),
        "max_ms": round(max(times), 1),
    }


async def _opened(url: str, query: dict) -> StreamlitClient:
    client = StreamlitClient(url, "playground", urlencode(query))
    await client.connect()
    first = await client.open_page()
    assert first.ok, first.exceptions
    rest = await client.open_page()  # what the browser asks for after the first screen
    assert rest.ok, rest.exceptions
    return client


async def measure_view(url: str, view: str, changes: int) -> dict:
    labels = [position_label(i, token) for i, token in enumerate(tokenize(TEXT, "char"))]
    client = await _opened(url, QUERY)
    try:
        switched = await client.set_widget("pg_tab", string_value=t(f"pg.tab.{view}", "en"))
        assert switched.ok, switched.exceptions
        times = []
        for i in range(WARMUP + changes):
            result = await client.set_widget("pg_row", string_value=labels[len(labels) - 1 - (i % 8)])
            assert result.ok, result.exceptions
            if i >= WARMUP:
                times.append(result.seconds * 1000)
        return {"switch_ms": round(switched.seconds * 1000, 1), **summary(times), "bytes": result.bytes}
    finally:
        await client.close()


async def measure_seed_changes(url: str, query: dict, changes: int) -> dict:
    client = await _opened(url, query)
    try:
        times = []
        for i in range(WARMUP + changes):
            result = await client.set_widget("pg_seed", int_value=100 + i)
            assert result.ok, result.exceptions
            if i >= WARMUP:
                times.append(result.seconds * 1000)
        return {**summary(times), "charts": result.charts, "bytes": result.bytes}
    finally:
        await client.close()


async def measure_explorer(url: str, changes: int) -> dict:
    client = StreamlitClient(url, "explorer", urlencode({"model": "h4", "prompt": EXPLORER_PROMPT}))
    await client.connect()
    try:
        assert (await client.open_page()).ok
        first = await client.set_widget("ex_head", string_value="head 2")  # the browser asks for the rest
        assert first.ok, first.exceptions
        times = []
        for i in range(WARMUP + changes):
            result = await client.set_widget("ex_head", string_value=f"head {1 + i % 4}")
            assert result.ok, result.exceptions
            if i >= WARMUP:
                times.append(result.seconds * 1000)
        return {**summary(times), "bytes": result.bytes}
    finally:
        await client.close()


async def run(url: str, changes: int) -> dict:
    report: dict = {"views": {}}
    for view in VIEWS:
        report["views"][view] = await measure_view(url, view, changes)
    report["explorer_head_change"] = await measure_explorer(url, changes)
    if "cmp" in PARAMS_BY_NAME:
        one, two = [], []
        for _ in range(3):  # alternating, so a busy moment falls on both
            one.append(await measure_seed_changes(url, QUERY, changes))
            two.append(await measure_seed_changes(url, {**QUERY, "cmp": "1"}, changes))
        report["compare"] = {
            "one_setup": one,
            "two_setups": two,
            "ratio_of_medians": round(
                statistics.median(r["median_ms"] for r in two) / statistics.median(r["median_ms"] for r in one), 2
            ),
        }
    return report


def main() -> None:
    changes = int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CHANGES
    server = start_server("views")
    try:
        report = asyncio.run(run(server.url, changes))
    finally:
        stop_server(server)
    sys.stdout.write(json.dumps(report, indent=2) + "\n\n")
    sys.stdout.write("| view | switch to it | cell change median | p95 | max |\n| --- | --- | --- | --- | --- |\n")
    for view, row in report["views"].items():
        sys.stdout.write(
            f"| {view} | {row['switch_ms']} ms | {row['median_ms']} ms | {row['p95_ms']} ms | {row['max_ms']} ms |\n"
        )
    row = report["explorer_head_change"]
    sys.stdout.write(
        f"| explorer: another head (every tab) | | {row['median_ms']} ms | {row['p95_ms']} ms | {row['max_ms']} ms |\n"
    )
    if "compare" in report:
        sys.stdout.write(
            f"\ncompare mode / one set-up, seed change medians: {report['compare']['ratio_of_medians']}×\n"
        )


if __name__ == "__main__":
    main()
