"""What a change confined to one chart costs: the overview's stage and the detail's values toggle.

    python benchmarks/parts.py [CHANGES] [--base REV]

Opens the playground at the book's size (benchmarks/roundtrip.py's sentence, h = 8, d = 8)
over Streamlit's websocket protocol, as a browser would, and changes the overview's stage
CHANGES times (default 20), then the detail's values toggle as often, each time measuring
the bytes received and the time from sending the change to ``script_finished``. A widget
inside a fragment (``st.fragment``) reruns that fragment only, as the browser asks for it
(harness/streamlit_client.py). With ``--base REV`` it first measures the same on a server
running that commit's tree (``git archive``), in the same run, so the two rows compare on
one machine's load. Prints JSON and a Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/parts.py`
    sys.path.insert(0, str(ROOT))

from benchmarks.roundtrip import QUERY, SETTINGS  # noqa: E402
from harness.server import start_server, stop_server  # noqa: E402
from harness.streamlit_client import StreamlitClient  # noqa: E402
from string_table import t  # noqa: E402

DEFAULT_CHANGES = 20
WARMUP_CHANGES = 2
STAGES = ("scores", "weights")  # the overview's stage goes back and forth
APP_ENV = SETTINGS["postScriptGC off, TCP_NODELAY (this app)"]


def _changes() -> dict:
    """Each measured change: its widget and the value the browser sends for the i-th time."""
    return {
        "stage": ("pg_stage", lambda i: {"string_array_value": {"data": [t(f"stage_short.{STAGES[i % 2]}", "en")]}}),
        "values toggle": ("pg_cells", lambda i: {"bool_value": i % 2 == 1}),
    }


async def measure(url: str, changes: int) -> dict:
    """Median bytes and round trip of CHANGES changes of each control, after a warm-up."""
    client = StreamlitClient(url, "playground", urlencode(QUERY))
    await client.connect()
    rows = {}
    try:
        for _ in range(2):  # the first screen, then the rest of the page
            opened = await client.open_page()
            assert opened.ok, opened.exceptions
        for name, (key, value) in _changes().items():
            times, sizes, charts = [], [], []
            for i in range(WARMUP_CHANGES + changes):
                result = await client.set_widget(key, **value(i))
                assert result.ok, result.exceptions
                if i >= WARMUP_CHANGES:
                    times.append(result.seconds * 1000)
                    sizes.append(result.bytes)
                    charts.append(result.charts)
            rows[name] = {
                "median_ms": round(statistics.median(times), 1),
                "median_bytes": round(statistics.median(sizes)),
                "charts_sent": round(statistics.median(charts)),
            }
    finally:
        await client.close()
    return rows


def tree_of(rev: str, folder: Path) -> Path:
    """The files of commit ``rev`` in ``folder`` (the app's, without this clone's ignored ones)."""
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def run_tree(cwd: Path, changes: int) -> dict:
    server = start_server("parts", env=APP_ENV, cwd=cwd)
    try:
        return asyncio.run(measure(server.url, changes))
    finally:
        stop_server(server)


def main() -> None:
    args = sys.argv[1:]
    base = args[args.index("--base") + 1] if "--base" in args else None
    numbers = [a for i, a in enumerate(args) if a.isdigit() and (i == 0 or args[i - 1] != "--base")]
    changes = int(numbers[0]) if numbers else DEFAULT_CHANGES
    results = {}
    if base:
        with tempfile.TemporaryDirectory() as folder:
            results[f"before ({base})"] = run_tree(tree_of(base, Path(folder)), changes)
    results["this tree"] = run_tree(ROOT, changes)
    sys.stdout.write(json.dumps(results, indent=2) + "\n\n")
    sys.stdout.write(
        "| code | change | median bytes | median round trip | charts sent |\n| --- | --- | --- | --- | --- |\n"
    )
    for label, rows in results.items():
        for name, row in rows.items():
            sys.stdout.write(
                f"| {label} | {name} | {row['median_bytes'] / 1000:.1f} KB | {row['median_ms']} ms "
                f"| {row['charts_sent']} |\n"
            )


if __name__ == "__main__":
    main()
