"""What a student waits for in the explorer, over Streamlit's websocket protocol, against
the playground's own interaction in the same run (a ratio holds on a noisy machine).

    python benchmarks/explorer.py [CHANGES]

Starts a real `streamlit run` server, then:
- opens the explorer with the shipped h = 4 model and a 64-character prompt, as a student's
  first request (the prompt's trace is computed then: no training);
- changes the chosen head and block CHANGES times (default 30), each from sending the
  change to the server's ``script_finished`` (the whole page, tabs and figures included,
  the trace reused);
- in a second session, changes the playground's seed as many times (the book-size
  sentence, h = 8, d = 8, as benchmarks/roundtrip.py).
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
if str(ROOT) not in sys.path:  # run as `python benchmarks/explorer.py`
    sys.path.insert(0, str(ROOT))

from benchmarks.roundtrip import measure as playground  # noqa: E402
from benchmarks.roundtrip import percentile  # noqa: E402
from harness.server import start_server, stop_server  # noqa: E402
from harness.streamlit_client import StreamlitClient  # noqa: E402

PROMPT_64 = "ROMEO:\nBut soft, what light through yonder window breaks? It is the"[:64]
EXPLORER_QUERY = {"model": "h4", "prompt": PROMPT_64, "block": "1", "head": "1"}
DEFAULT_CHANGES = 30
WARMUP_CHANGES = 3


def _summary(times: list[float], sizes: list[int]) -> dict:
    return {
        "median_ms": round(statistics.median(times), 1),
        "p95_ms": round(percentile(times, 0.95), 1),
        "bytes_per_change": round(statistics.median(sizes)),
    }


async def explorer(url: str, changes: int) -> dict:
    client = StreamlitClient(url, "explorer", urlencode(EXPLORER_QUERY))
    await client.connect()
    try:
        first = await client.open_page()
        assert first.ok and first.charts >= 1, (first.exceptions, first.charts)
        rest = await client.set_widget("ex_head", string_value="head 2")  # the first full page
        assert rest.ok, rest.exceptions
        times, sizes = [], []
        for i in range(WARMUP_CHANGES + changes):
            head, block = i % 4 + 1, i // 4 % 2 + 1
            key, value = ("ex_head", f"head {head}") if i % 2 else ("ex_block", f"block {block}")
            result = await client.set_widget(key, string_value=value)
            assert result.ok and result.charts >= 2, (result.exceptions, result.charts)
            if i >= WARMUP_CHANGES:
                times.append(result.seconds * 1000)
                sizes.append(result.bytes)
    finally:
        await client.close()
    return {"first_request_ms": round(first.seconds * 1000), **_summary(times, sizes)}


def main() -> None:
    changes = int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CHANGES
    server = start_server("explorer-bench")
    try:
        explorer_row = asyncio.run(explorer(server.url, changes))
        playground_row = asyncio.run(playground(server.url, changes))  # benchmarks/roundtrip.py's seed changes
    finally:
        stop_server(server)
    playground_row["first_request_ms"] = playground_row.pop("first_render_ms")
    rows = {
        "explorer: change head or block (shipped h = 4, 64-character prompt)": explorer_row,
        "playground: change the seed (70 characters, h = 8, d = 8)": playground_row,
    }
    sys.stdout.write(json.dumps(rows, indent=2) + "\n\n")
    sys.stdout.write(
        "| interaction | first request | median | p95 | bytes per change |\n| --- | --- | --- | --- | --- |\n"
    )
    for label, row in rows.items():
        sys.stdout.write(
            f"| {label} | {row['first_request_ms']} ms | {row['median_ms']} ms | {row['p95_ms']} ms "
            f"| {row['bytes_per_change'] / 1000:.0f} KB |\n"
        )


if __name__ == "__main__":
    main()
