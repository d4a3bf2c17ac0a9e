"""What a student waits for after changing a control: the websocket round trip.

    python benchmarks/roundtrip.py [CHANGES]

Starts a real `streamlit run` server on a loopback port, opens the playground at the book's
size (a sentence of about 70 characters, h = 8, d = 8) as a browser would over
Streamlit's websocket protocol, then changes the seed CHANGES times (default 40), each time
measuring from sending the widget change to the server's ``script_finished`` (the run and
its figures included). It does so with Streamlit's defaults, with its post-run garbage
collection off, and with that and TCP_NODELAY on the server's connections (this app's
settings, `ui/runtime.py`), in one run, so the ratios hold on a noisy machine. Prints JSON
and a Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/roundtrip.py`
    sys.path.insert(0, str(ROOT))

from harness.server import start_server, stop_server  # noqa: E402
from harness.streamlit_client import StreamlitClient  # noqa: E402

BOOK_SENTENCE = "The cat sat on the mat because it was tired, and the dog slept by the door all day."[:70]
QUERY = {"text": BOOK_SENTENCE, "heads": "8", "head_dim": "8"}
DEFAULT_CHANGES = 40
WARMUP_CHANGES = 3
SETTINGS = {
    "Streamlit's defaults (postScriptGC on, Nagle on)": {
        "STREAMLIT_RUNNER_POST_SCRIPT_GC": "true",
        "ATTENTION_KEEP_NAGLE": "1",
    },
    "postScriptGC off, Nagle on": {"STREAMLIT_RUNNER_POST_SCRIPT_GC": "false", "ATTENTION_KEEP_NAGLE": "1"},
    "postScriptGC off, TCP_NODELAY (this app)": {"STREAMLIT_RUNNER_POST_SCRIPT_GC": "false"},
}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def measure(url: str, changes: int) -> dict:
    client = StreamlitClient(url, "playground", urlencode(QUERY))
    await client.connect()
    try:
        first = await client.open_page()
        assert first.ok, first.exceptions
        times, sizes = [], []
        for i in range(WARMUP_CHANGES + changes):
            result = await client.set_widget("pg_seed", int_value=1000 + i)
            assert result.ok and result.charts >= 2, (result.exceptions, result.charts)
            if i >= WARMUP_CHANGES:
                times.append(result.seconds * 1000)
                sizes.append(result.bytes)
    finally:
        await client.close()
    return {
        "first_render_ms": round(first.seconds * 1000),
        "median_ms": round(statistics.median(times), 1),
        "p95_ms": round(percentile(times, 0.95), 1),
        "max_ms": round(max(times), 1),
        "bytes_per_change": round(statistics.median(sizes)),
    }


def main() -> None:
    changes = int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CHANGES
    rows = {}
    for label, env in SETTINGS.items():
        server = start_server("roundtrip", env=env)
        try:
            rows[label] = asyncio.run(measure(server.url, changes))
        finally:
            stop_server(server)
    sys.stdout.write(json.dumps(rows, indent=2) + "\n\n")
    sys.stdout.write("| server setting | median | p95 | max | bytes per change |\n| --- | --- | --- | --- | --- |\n")
    for label, row in rows.items():
        sys.stdout.write(
            f"| {label} | {row['median_ms']} ms | {row['p95_ms']} ms | {row['max_ms']} ms "
            f"| {row['bytes_per_change'] / 1000:.0f} KB |\n"
        )


if __name__ == "__main__":
    main()
