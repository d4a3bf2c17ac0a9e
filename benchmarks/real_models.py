"""What a real model costs on this machine: trace time, a view change's round trip, memory.

    python benchmarks/real_models.py [--folder DIR] [--repeats N]

No download is needed (nor possible here): the models are random weights with the attention
shapes of GPT-2 small, SmolLM2-135M and Qwen2.5-0.5B (harness/tiny_models.REAL_SHAPES; their
vocabularies too), built once into DIR (default test-artifacts/real-shapes). Measured, with
the app's one torch thread:

- trace: a 64-token text through every layer (gpt_core.hf.trace, a new text each time), and
  one layer's stages rebuilt from q and k (what a change of layer costs);
- round trip: a real `streamlit run` server with GPT-2's shape offered (ATTENTION_MODELS),
  a client on Streamlit's websocket protocol opens the playground on it, then changes the
  head, the layer, and the text, each measured to the server's script_finished;
- memory: that server's RSS idle, with GPT-2's shape loaded, then with SmolLM2's shape too
  (one copy per process however many sessions: a second session adds its traces only).
Prints JSON and a Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/real_models.py`
    sys.path.insert(0, str(ROOT))

from harness.server import start_server, stop_server  # noqa: E402
from harness.streamlit_client import StreamlitClient  # noqa: E402
from harness.tiny_models import REAL_SHAPES, build_shaped_model, tiny_tokenizer  # noqa: E402

WORDS = "the cat sat on the mat because it was tired and the dog slept by the door all day long".split()
TOKENS = 64
LAYERS = 12  # GPT-2's


@functools.cache
def _tokenizer():
    return tiny_tokenizer(bos=False)


def sample_text(i: int) -> str:
    """A text of exactly 64 tokens (for these models' tokenizer), different for each i (no
    trace is reused)."""
    words = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(TOKENS))
    encoded = _tokenizer()(words, return_offsets_mapping=True)
    return words[: encoded["offset_mapping"][TOKENS - 1][1]]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def trace_times(folder: Path, repeats: int) -> dict:
    import torch

    from gpt_core import hf
    from gpt_core.reproduce import use_compute_threads

    use_compute_threads()
    rows = {}
    for shape in REAL_SHAPES:
        loaded = hf.load(str(folder / shape))
        hf.trace(loaded, sample_text(0))  # warm
        times, layer_times, tokens = [], [], 0
        for i in range(1, repeats + 1):
            started = time.perf_counter()
            traced = hf.trace(loaded, sample_text(i))
            times.append((time.perf_counter() - started) * 1000)
            tokens = len(traced.pieces)
            started = time.perf_counter()
            traced.layers[len(traced.layers) // 2]
            layer_times.append((time.perf_counter() - started) * 1000)
        d = loaded.description
        rows[shape] = {
            "layers x heads (kv)": f"{d.layers} x {d.heads} ({d.kv_heads})",
            "tokens": tokens,
            "parameters": d.parameters,
            "weights_mb": round(d.bytes / 1e6),
            "download_mb": round(d.download_bytes / 1e6),
            "trace_median_ms": round(statistics.median(times)),
            "trace_max_ms": round(max(times)),
            "layer_rebuild_ms": round(statistics.median(layer_times), 1),
            "threads": torch.get_num_threads(),
        }
        del loaded
    return rows


async def _round_trips(url: str, model: str) -> dict:
    client = StreamlitClient(url, "playground", urlencode({"weights": model, "text": sample_text(0), "head": "1"}))
    await client.connect()
    try:
        first = await client.open_page()
        assert first.ok, first.exceptions
        result = {"first_open_ms": round(first.seconds * 1000)}
        layer = "layer {} of " + str(LAYERS)  # a select box's value is the label it shows
        rest = await client.set_widget("pg_block", string_value=layer.format(1))  # the browser asks for the rest
        assert rest.ok, rest.exceptions
        result["rest_of_page_ms"] = round(rest.seconds * 1000)
        changes = (
            ("head", "pg_head", [f"head {n}" for n in range(2, 7)]),
            ("layer", "pg_block", [layer.format(n) for n in range(2, 7)]),
        )
        for name, widget, values in changes:
            times = []
            for value in values:
                answer = await client.set_widget(widget, string_value=value)
                assert answer.ok, answer.exceptions
                times.append(answer.seconds * 1000)
            result[f"{name}_change_median_ms"] = round(statistics.median(times))
        times = []
        for i in range(1, 4):
            answer = await client.set_widget("pg_text", string_value=sample_text(100 + i))
            assert answer.ok, answer.exceptions
            times.append(answer.seconds * 1000)
        result["new_text_median_ms"] = round(statistics.median(times))
    finally:
        await client.close()
    return result


async def _open(url: str, model: str) -> None:
    client = StreamlitClient(url, "playground", urlencode({"weights": model, "text": sample_text(7)}))
    await client.connect()
    try:
        assert (await client.open_page()).ok
    finally:
        await client.close()


def server_costs(folder: Path) -> dict:
    models = f"{folder / 'gpt2-shape'},{folder / 'smollm2-135m-shape'}"
    server = start_server("real_models", env={"ATTENTION_MODELS": models})
    try:
        time.sleep(2)
        memory = {"idle_mb": round(rss_mb(server.process.pid))}
        trips = asyncio.run(_round_trips(server.url, "gpt2-shape"))
        memory["with_gpt2_mb"] = round(rss_mb(server.process.pid))
        asyncio.run(_open(server.url, "gpt2-shape"))  # a second student on the same model
        memory["with_gpt2_second_session_mb"] = round(rss_mb(server.process.pid))
        asyncio.run(_open(server.url, "smollm2-135m-shape"))
        memory["with_gpt2_and_smollm2_mb"] = round(rss_mb(server.process.pid))
    finally:
        stop_server(server)
    return {"round_trip": trips, "memory": memory}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--folder", type=Path, default=ROOT / "test-artifacts" / "real-shapes")
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args()
    for shape in REAL_SHAPES:
        if not (args.folder / shape / "config.json").exists():
            build_shaped_model(shape, args.folder / shape)
    report = {"trace": trace_times(args.folder, args.repeats), **server_costs(args.folder)}
    print(json.dumps(report, indent=2))
    print("\n| model shape | layers × heads (kv) | tokens | trace | one layer's stages | weights in memory |")
    print("|---|---|---|---|---|---|")
    for shape, row in report["trace"].items():
        print(
            f"| {shape} | {row['layers x heads (kv)']} | {row['tokens']} | {row['trace_median_ms']} ms "
            f"(max {row['trace_max_ms']}) | {row['layer_rebuild_ms']} ms | {row['weights_mb']} MB |"
        )


if __name__ == "__main__":
    main()
