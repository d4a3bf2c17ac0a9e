"""What a long text costs a student: the bytes each page sends and how long it takes, at
T = 64, 256 and 512 tokens in a model of GPT-2 small's shape (12 layers × 12 heads, width
768; random weights, built locally since nothing downloads here).

    python benchmarks/long_texts.py [--folder DIR] [--tokens 64 256 512]

A real `streamlit run` server offers the model (ATTENTION_MODELS); a client speaking
Streamlit's websocket protocol (harness/streamlit_client.py) opens the playground and the
explorer on a text of exactly T tokens, as a browser's first visit does: the first screen,
then the rest of the page (the run the browser asks for once the first chart is drawn).
For each: the bytes on the wire, the seconds to the server's script_finished, the charts,
and the server's memory after it. Prints JSON and the Markdown table docs/benchmarks.md carries.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/long_texts.py`
    sys.path.insert(0, str(ROOT))

from benchmarks.real_models import rss_mb  # noqa: E402  # the server's resident memory
from harness.server import start_server, stop_server  # noqa: E402
from harness.streamlit_client import StreamlitClient  # noqa: E402
from harness.tiny_models import build_shaped_model, tiny_tokenizer  # noqa: E402
from links.explorer import VIEWS as EXPLORER_TABS  # noqa: E402
from links.playground import VIEWS as PLAYGROUND_TABS  # noqa: E402

SHAPE = "gpt2-shape"
PLAYGROUND_VIEWS = PLAYGROUND_TABS
EXPLORER_VIEWS = tuple(view for view in EXPLORER_TABS if view != "training")  # a real model has no snapshots
PARAGRAPH = (
    "First Citizen: Before we proceed any further, hear me speak. All: Speak, speak. First Citizen: You are all "
    "resolved rather to die than to famish? All: Resolved. resolved. First Citizen: First, you know Caius Marcius "
    "is chief enemy to the people. "
)


@functools.cache
def _tokenizer():
    return tiny_tokenizer(bos=False)


def text_of(tokens: int, variant: int = 0) -> str:
    """A text of exactly ``tokens`` tokens for the model's tokenizer (``variant`` makes it new)."""
    words = (f"{variant} " + PARAGRAPH * (1 + tokens // 20)).strip()
    encoded = _tokenizer()(words, return_offsets_mapping=True)
    if len(encoded["input_ids"]) < tokens:
        raise ValueError(f"the paragraph gives only {len(encoded['input_ids'])} tokens")
    return words[: encoded["offset_mapping"][tokens - 1][1]]


async def _visit(url: str, page: str, query: dict[str, str]) -> dict:
    """A first visit: the first screen, then the rest of the page."""
    client = StreamlitClient(url, page, urlencode(query))
    await client.connect()
    try:
        first = await client.open_page()
        assert first.ok, first.exceptions
        rest = await client._rerun()  # what the page's first-screen component asks for next
        assert rest.ok, rest.exceptions
    finally:
        await client.close()
    return {
        "first_screen_mb": round(first.bytes / 1e6, 2),
        "first_screen_s": round(first.seconds, 2),
        "whole_page_mb": round((first.bytes + rest.bytes) / 1e6, 2),
        "whole_page_s": round(first.seconds + rest.seconds, 2),
        "charts": first.charts + rest.charts,
        "tallest_chart_px": max([*first.chart_heights, *rest.chart_heights, 0]),
    }


async def _sessions(url: str, count: int, tokens: int) -> None:
    """``count`` students, each with a text of its own, on both pages, all connected at once
    until every page is drawn (the caller reads the server's memory then)."""
    clients = []
    try:
        for i in range(count):
            text = text_of(tokens, 1000 + i)
            for page, query in (
                ("playground", {"weights": SHAPE, "text": text}),
                ("explorer", {"model": SHAPE, "prompt": text}),
            ):
                client = StreamlitClient(url, page, urlencode(query))
                await client.connect()
                clients.append(client)
                assert (await client.open_page()).ok and (await client._rerun()).ok
    finally:
        for client in clients:
            await client.close()


def measure_sessions(folder: Path, count: int, tokens: int) -> dict:
    """The server's memory with ``count`` sessions of different long texts (a fresh server)."""
    server = start_server("long_text_sessions", env={"ATTENTION_MODELS": str(folder / SHAPE)})
    try:
        time.sleep(2)
        idle = rss_mb(server.process.pid)
        asyncio.run(_sessions(server.url, 1, tokens))
        one = rss_mb(server.process.pid)
        asyncio.run(_sessions(server.url, count, tokens))
        return {
            "sessions": count,
            "tokens": tokens,
            "idle_mb": round(idle),
            "after_one_mb": round(one),
            f"after_{count}_more_mb": round(rss_mb(server.process.pid)),
        }
    finally:
        stop_server(server)


def measure(folder: Path, token_counts: list[int], tabs: bool = False) -> dict:
    model = str(folder / SHAPE)
    server = start_server("long_texts", env={"ATTENTION_MODELS": model})
    report: dict = {}
    try:
        time.sleep(2)
        report["idle_mb"] = round(rss_mb(server.process.pid))
        for i, tokens in enumerate(token_counts):
            text = text_of(tokens, i)
            playground = asyncio.run(_visit(server.url, "playground", {"weights": SHAPE, "text": text}))
            explorer = asyncio.run(_visit(server.url, "explorer", {"model": SHAPE, "prompt": text}))
            report[str(tokens)] = {
                "playground": playground,
                "explorer": explorer,
                "server_mb": round(rss_mb(server.process.pid)),
            }
        if tabs:  # every tab of both pages, at the longest text: what opening it sends
            text, report["tabs"] = text_of(max(token_counts), 99), {}
            for page, views, query in (
                ("playground", PLAYGROUND_VIEWS, {"weights": SHAPE, "text": text}),
                ("explorer", EXPLORER_VIEWS, {"model": SHAPE, "prompt": text}),
            ):
                for view in views:
                    seen = asyncio.run(_visit(server.url, page, {**query, "view": view}))
                    report["tabs"][f"{page}:{view}"] = {
                        "mb": seen["whole_page_mb"],
                        "tallest_px": seen["tallest_chart_px"],
                    }
    finally:
        stop_server(server)
    return report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--folder", type=Path, default=ROOT / "test-artifacts" / "real-shapes")
    parser.add_argument("--tokens", type=int, nargs="+", default=[64, 256, 512])
    parser.add_argument("--tabs", action="store_true", help="also every tab of both pages at the longest text")
    parser.add_argument("--sessions", type=int, default=0, help="also N sessions of different long texts at once")
    args = parser.parse_args()
    if not (args.folder / SHAPE / "config.json").exists():
        build_shaped_model(SHAPE, args.folder / SHAPE)
    report = measure(args.folder, args.tokens, args.tabs)
    if args.sessions:
        report["memory"] = measure_sessions(args.folder, args.sessions, max(args.tokens))
    print(json.dumps(report, indent=2))
    print("\n| T | playground: first screen | whole page | explorer: first screen | whole page | server memory |")
    print("|---|---|---|---|---|---|")
    for tokens in args.tokens:
        row = report[str(tokens)]
        cells = []
        for page in ("playground", "explorer"):
            seen = row[page]
            cells += [
                f"{seen['first_screen_mb']} MB, {seen['first_screen_s']} s",
                f"{seen['whole_page_mb']} MB, {seen['whole_page_s']} s",
            ]
        print(f"| {tokens} | {' | '.join(cells)} | {row['server_mb']} MB |")


if __name__ == "__main__":
    main()
