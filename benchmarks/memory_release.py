"""Does a server give back the memory of a large training once its sessions are gone?

    python benchmarks/memory_release.py

Starts a real `streamlit run` server with server.disconnectedSessionTTL = 5 s, reads its
RSS idle (after one visit to the Train page has expired), then 2 students train a large
model at once (8 heads x 32 dimensions, 4 blocks, context 64: about 500 MB by the page's
estimate, under its 600 MB bound; the page's 60 s cap ends a run) and close their pages.
Reports the RSS idle, its peak, and at TTL + 10 s and TTL + 30 s after the pages closed, as
JSON. Loopback only; stops by itself.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/memory_release.py`
    sys.path.insert(0, str(ROOT))

from harness.server import start_server, stop_server  # noqa: E402
from harness.streamlit_client import StreamlitClient  # noqa: E402

SESSION_TTL_S = 5
TRAINERS = 2
MODEL = {
    "tr_heads": {"string_value": "8"},
    "tr_head_dim": {"int_value": 32},
    "tr_blocks": {"int_value": 4},
    "tr_context": {"int_value": 64},
    "tr_steps": {"int_value": 200},
}
DONE_TEXT = "Trained "  # tr.done (en)
AFTER_S = (10, 30)  # RSS read this long after the TTL ran out


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def visit(url: str) -> None:
    client = StreamlitClient(url, "train")
    await client.connect()
    try:
        await client.open_page()
    finally:
        await client.close()


async def train(url: str) -> dict:
    client = StreamlitClient(url, "train")
    await client.connect()
    try:
        await client.open_page()
        exceptions = 0
        for key, value in MODEL.items():
            exceptions += len((await client.set_widget(key, **value)).exceptions)
        run = await client.press("tr_start")
        return {
            "seconds": round(run.seconds, 1),
            "finished": any(text.startswith(DONE_TEXT) for text in run.texts),
            "script_exceptions": exceptions + len(run.exceptions),
        }
    finally:
        await client.close()


def main() -> None:
    server = start_server("memory-release", env={"STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": str(SESSION_TTL_S)})
    pid = server.process.pid
    samples: list[float] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(0.25):
            samples.append(rss_mb(pid))

    try:
        asyncio.run(visit(server.url))  # torch imported, the page's caches warm
        time.sleep(SESSION_TTL_S + 5)  # that visit's session expired too
        idle = rss_mb(pid)
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()

        async def trainings() -> list[dict]:
            return await asyncio.gather(*(train(server.url) for _ in range(TRAINERS)))

        runs = asyncio.run(trainings())
        closed = time.monotonic()
        after = {}
        for seconds in AFTER_S:
            time.sleep(max(0.0, closed + SESSION_TTL_S + seconds - time.monotonic()))
            after[f"rss_ttl_plus_{seconds}s_mb"] = round(rss_mb(pid), 1)
        stop.set()
        sampler.join()
    finally:
        stop_server(server)
    report = {
        "session_ttl_s": SESSION_TTL_S,
        "model": {key: next(iter(v.values())) for key, v in MODEL.items()},
        "trainings": runs,
        "rss_idle_mb": round(idle, 1),
        "rss_peak_mb": round(max(samples), 1),
        **after,
    }
    sys.stdout.write(json.dumps(report, indent=2) + "\n")
    sys.exit(0 if all(run["finished"] and not run["script_exceptions"] for run in runs) else 1)


if __name__ == "__main__":
    main()
