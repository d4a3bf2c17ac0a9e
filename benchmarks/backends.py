"""A change on the playground for each source of attention, on two versions of the app at once.

    python benchmarks/backends.py [--before REV] [--rounds N] [--folder DIR]

Starts two real `streamlit run` servers: one from a checkout of REV (default: the commit
before the pages spoke one source interface) and one from this tree, both offering a model
with GPT-2 small's attention shape (random weights, built once into DIR as
benchmarks/real_models.py does). A client on Streamlit's websocket protocol opens the
playground on each and times, to the server's ``script_finished``:

- random weights (h = 8, d = 8, 64 characters): another head, another text;
- the shipped 4-head model (2 blocks): another head, another block, another text;
- GPT-2's shape (12 layers × 12 heads, 64 tokens): another head, another layer, another text.

The two servers take turns, round by round, so a busy moment of a shared machine falls on
both; the ratio after / before of the medians is what to read. Prints JSON and a table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/backends.py`
    sys.path.insert(0, str(ROOT))

from benchmarks.real_models import sample_text  # noqa: E402
from harness.server import start_server, stop_server  # noqa: E402
from harness.streamlit_client import StreamlitClient  # noqa: E402
from harness.tiny_models import build_shaped_model  # noqa: E402

BEFORE = "8701fb6"  # the last commit whose pages chose among three backends themselves
SHAPE = "gpt2-shape"
CHAR_TEXT = "The cat sat on the mat because it was tired, and the dog slept by the door all day long."[:64]
PLAY_TEXT = "ROMEO:\nBut soft, what light through yonder window breaks? It is the east, and"[:64]
CHANGES = 4  # of each kind, per round and server


def _setups() -> dict[str, dict]:
    """Per source: its link, and the changes to time as (widget, values); a text change
    gets a new text each time (never one computed before)."""
    blocks = "block {} of 2"
    layers = "layer {} of 12"
    return {
        "random weights": {
            "query": {"text": CHAR_TEXT, "heads": "8", "head_dim": "8"},
            "head": [f"head {n}" for n in range(2, 2 + CHANGES)],
            "text": lambda i: f"{CHAR_TEXT[:-4]}{i:04d}",
        },
        "shipped h = 4": {
            "query": {"weights": "h4", "text": PLAY_TEXT, "block": "1"},
            "head": [f"head {n}" for n in (2, 3, 4, 1)],
            "block": [blocks.format(n) for n in (2, 1, 2, 1)],
            "text": lambda i: f"{PLAY_TEXT[:-4]}{i:04d}",
        },
        "GPT-2 shape": {
            "query": {"weights": SHAPE, "text": sample_text(0), "block": "1"},
            "head": [f"head {n}" for n in range(2, 2 + CHANGES)],
            "block": [layers.format(n) for n in range(2, 2 + CHANGES)],
            "text": lambda i: f"{i} {sample_text(i)}",
        },  # a number first: never a text seen before
    }


async def _one_round(url: str, setup: dict, round_index: int) -> dict[str, list[float]]:
    client = StreamlitClient(url, "playground", urlencode(setup["query"]))
    await client.connect()
    times: dict[str, list[float]] = {}
    try:
        for _ in range(2):  # the first screen, then the rest the browser asks for
            opened = await client.open_page()
            assert opened.ok, opened.exceptions
        for kind, widget in (("head", "pg_head"), ("block", "pg_block")):
            for value in setup.get(kind, []):
                answer = await client.set_widget(widget, string_value=value)
                assert answer.ok, answer.exceptions
                times.setdefault(kind, []).append(answer.seconds * 1000)
        for i in range(CHANGES):
            answer = await client.set_widget("pg_text", string_value=setup["text"](round_index * 100 + i))
            assert answer.ok, answer.exceptions
            times.setdefault("text", []).append(answer.seconds * 1000)
    finally:
        await client.close()
    return times


def _checkout(rev: str, into: Path) -> Path:
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(into), rev], check=True, capture_output=True
    )
    return into


def measure(before: Path, folder: Path, rounds: int) -> dict:
    env = {"ATTENTION_MODELS": str(folder / SHAPE)}
    servers = {
        "before": start_server("backends_before", env=env, cwd=before),
        "after": start_server("backends_after", env=env),
    }
    samples: dict = {}
    try:
        for round_index in range(rounds):
            for name, setup in _setups().items():
                for version, server in servers.items():  # alternating within each round
                    times = asyncio.run(_one_round(server.url, setup, round_index))
                    for kind, values in times.items():
                        samples.setdefault(name, {}).setdefault(kind, {}).setdefault(version, []).extend(values)
    finally:
        for server in servers.values():
            stop_server(server)
    report = {}
    for name, kinds in samples.items():
        for kind, versions in kinds.items():
            medians = {version: round(statistics.median(values)) for version, values in versions.items()}
            report.setdefault(name, {})[kind] = {**medians, "ratio": round(medians["after"] / medians["before"], 2)}
    return report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", default=BEFORE)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=ROOT / "test-artifacts" / "real-shapes")
    args = parser.parse_args()
    if not (args.folder / SHAPE / "config.json").exists():
        build_shaped_model(SHAPE, args.folder / SHAPE)
    scratch = Path(tempfile.mkdtemp(prefix="backends-before-"))
    checkout = _checkout(args.before, scratch / "app")
    try:
        report = measure(checkout, args.folder, args.rounds)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(checkout)], check=False)
        shutil.rmtree(scratch, ignore_errors=True)
    print(json.dumps({"before": args.before, "rounds": args.rounds, "report": report}, indent=2))
    print(f"\n| source | change | before ({args.before}) | after | after / before |\n|---|---|---|---|---|")
    for name, kinds in report.items():
        for kind, row in kinds.items():
            print(f"| {name} | another {kind} | {row['before']} ms | {row['after']} ms | {row['ratio']} |")


if __name__ == "__main__":
    main()
