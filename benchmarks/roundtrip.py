"""What a student waits for after changing a control: the websocket round trip.

    python benchmarks/roundtrip.py [CHANGES] [--against REV]

Starts a real `streamlit run` server on a loopback port, opens the playground at the book's
size (a sentence of about 70 characters, h = 8, d = 8) as a browser would over
Streamlit's websocket protocol, then changes the seed CHANGES times (default 40), each time
measuring from sending the widget change to the server's ``script_finished`` (the run and
its figures included). It does so with Streamlit's defaults, with its post-run garbage
collection off, and with that and TCP_NODELAY on the server's connections (this app's
settings, `ui/runtime.py`), in one run, so the ratios hold on a noisy machine. Prints JSON
and a Markdown table for docs/benchmarks.md, then what the last change's bytes are made of
(each figure's data arrays, other data, layout and rest; the other elements; see
`benchmarks/wire_bytes.py`), and, from a fourth server with `ui/step_timing.py`'s log on,
where a change's server time goes (trace, figures, description, serialization, the rest;
and, happening meanwhile on the event loop, the send's deflate and socket writes).

Each row gives a change's bytes twice: the messages as Streamlit serialized them, and what
the socket delivered (the websocket frames, compressed where the server compresses; the
client offers compression as browsers do). With ``--against REV`` (a commit, e.g. ``HEAD~3``)
the same changes also run against that commit's code, checked out in a temporary worktree:
a server of this code and one of that code, up at once, each change made on one and then on
the other (the order reversed every other round), so the two rows see the same machine at
the same moments.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/roundtrip.py`
    sys.path.insert(0, str(ROOT))

from benchmarks.against import checked_out, option  # noqa: E402
from benchmarks.wire_bytes import attribute, breakdown_rows  # noqa: E402
from harness.server import start_server, stop_server  # noqa: E402
from harness.streamlit_client import RunResult, StreamlitClient  # noqa: E402
from ui.runtime import CPU_ENV  # noqa: E402
from ui.step_timing import ENV, LOOP_STEPS, SEND, read_steps  # noqa: E402

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
APP_SETTING = "postScriptGC off, TCP_NODELAY (this app)"
TIMED_LABEL = "this app, steps timed"  # a fourth server: its file writes stay out of the rows above
REST_STEP = "rest (other page code, Streamlit, the client)"
SEND_ROW = "send (the event loop's CPU, within the rows above)"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def _opened(url: str) -> tuple[StreamlitClient, RunResult]:
    """A client on the playground at the book's size, its first screen and the rest drawn
    (the browser asks for the rest once the first screen is up)."""
    client = StreamlitClient(url, "playground", urlencode(QUERY))
    client.keep_frames = True
    await client.connect()
    first = await client.open_page()
    assert first.ok, first.exceptions
    rest = await client.open_page()
    assert rest.ok, rest.exceptions
    return client, first


async def _seed_change(client: StreamlitClient, number: int) -> RunResult:
    result = await client.set_widget("pg_seed", int_value=1000 + number)
    assert result.ok and result.charts >= 2, (result.exceptions, result.charts)
    return result


def _summary(first: RunResult, results: list[RunResult], steps: list[dict[str, float]] | None = None) -> dict:
    times = [result.seconds * 1000 for result in results]
    return {
        "first_render_ms": round(first.seconds * 1000),
        "median_ms": round(statistics.median(times), 1),
        "p95_ms": round(percentile(times, 0.95), 1),
        "max_ms": round(max(times), 1),
        "bytes_per_change": round(statistics.median(result.bytes for result in results)),
        "wire_bytes_per_change": round(statistics.median(result.wire_bytes for result in results)),
        "bytes_of_last_change": attribute(results[-1].frames),
        "server_ms_by_step": step_medians(steps, times) if steps else {},
    }


async def measure(url: str, changes: int, steps_log: str | None = None) -> dict:
    """The round trips of CHANGES seed changes after a warm-up; with ``steps_log`` (the
    server's ATTENTION_STEP_TIMES file), also each change's server time by step."""
    client, first = await _opened(url)
    results, steps = [], []
    try:
        for i in range(WARMUP_CHANGES + changes):
            if steps_log:
                Path(steps_log).write_text("")  # the run before has finished: its steps are logged
            result = await _seed_change(client, i)
            if i >= WARMUP_CHANGES:
                results.append(result)
                steps.append(read_steps(steps_log) if steps_log else {})
    finally:
        await client.close()
    return _summary(first, results, steps if steps_log else None)


async def measure_side_by_side(urls: dict[str, str], changes: int) -> dict[str, dict]:
    """The same seed changes on several servers, taken in turn (one change on each, the
    order reversed every other round), so that each sees the machine as the others do."""
    opened = {label: await _opened(url) for label, url in urls.items()}
    results: dict[str, list[RunResult]] = {label: [] for label in urls}
    labels = list(urls)
    try:
        for i in range(WARMUP_CHANGES + changes):
            for label in labels if i % 2 == 0 else labels[::-1]:
                result = await _seed_change(opened[label][0], i)
                if i >= WARMUP_CHANGES:
                    results[label].append(result)
    finally:
        for client, _ in opened.values():
            await client.close()
    return {label: _summary(opened[label][1], results[label]) for label in labels}


def step_medians(steps: list[dict[str, float]], times: list[float]) -> dict[str, float]:
    """Each step's median milliseconds per change, the median of what the run's steps leave
    of the round trip (the page's other code, Streamlit's run and the client), and the send's
    CPU on the event loop, which happens meanwhile: part of the other rows, not added to them
    (ui/step_timing.py ``LOOP_STEPS``)."""
    names = sorted({name for change in steps for name in change} - LOOP_STEPS)
    medians = {name: round(statistics.median(change.get(name, 0.0) for change in steps), 1) for name in names}
    rest = [
        time - sum(ms for name, ms in change.items() if name not in LOOP_STEPS)
        for change, time in zip(steps, times, strict=True)
    ]
    medians[REST_STEP] = round(statistics.median(rest), 1)
    if any(SEND in change for change in steps):
        medians[SEND_ROW] = round(statistics.median(change.get(SEND, 0.0) for change in steps), 1)
    medians["round trip"] = round(statistics.median(times), 1)
    return medians


def run_setting(env: dict[str, str], changes: int, steps_log: str | None = None, cwd: Path = ROOT) -> dict:
    server = start_server("roundtrip", env={**env, ENV: steps_log} if steps_log else env, cwd=cwd)
    try:
        return asyncio.run(measure(server.url, changes, steps_log))
    finally:
        stop_server(server)


def run_against(revision: str, changes: int) -> dict[str, dict]:
    """This app's setting on this code and on ``revision``'s (from a temporary worktree of
    it), both servers up at once, each on its own core, and changed in turn
    (``measure_side_by_side``)."""
    env = SETTINGS[APP_SETTING]
    with checked_out(revision) as tree:
        servers = {  # each on a core of its own (ui/runtime.py pins a server's threads to one)
            f"{APP_SETTING}, this code, side by side": start_server("roundtrip", env={**env, CPU_ENV: "0"}),
            f"{APP_SETTING}, at {revision}, side by side": start_server(
                "roundtrip", env={**env, CPU_ENV: "1"}, cwd=tree
            ),
        }
        try:
            return asyncio.run(measure_side_by_side({label: server.url for label, server in servers.items()}, changes))
        finally:
            for server in servers.values():
                stop_server(server)


def main() -> None:
    args = sys.argv[1:]
    against = option(args)
    numbers = [arg for arg in args if arg.isdigit()]
    changes = int(numbers[0]) if numbers else DEFAULT_CHANGES
    rows = {label: run_setting(env, changes) for label, env in SETTINGS.items()}
    if against:
        rows.update(run_against(against, changes))
    with tempfile.TemporaryDirectory() as folder:
        timed = run_setting(SETTINGS[APP_SETTING], changes, str(Path(folder) / "steps.tsv"))
    sys.stdout.write(json.dumps({**rows, TIMED_LABEL: timed}, indent=2) + "\n\n")
    sys.stdout.write(
        "| server setting | median | p95 | max | messages per change | on the wire per change |\n"
        "| --- | --- | --- | --- | --- | --- |\n"
    )
    for label, row in rows.items():
        sys.stdout.write(
            f"| {label} | {row['median_ms']} ms | {row['p95_ms']} ms | {row['max_ms']} ms "
            f"| {row['bytes_per_change'] / 1000:.1f} KB | {row['wire_bytes_per_change'] / 1000:.1f} KB |\n"
        )
    write_breakdown(rows[APP_SETTING]["bytes_of_last_change"])
    write_steps(timed["server_ms_by_step"])


def write_steps(medians: dict[str, float]) -> None:
    """The Markdown table of a change's server time by step (medians over the changes)."""
    sys.stdout.write(f"\n| step ({TIMED_LABEL}) | median per change |\n| --- | --- |\n")
    for name, ms in medians.items():
        sys.stdout.write(f"| {name} | {ms} ms |\n")


def write_breakdown(attributed: dict) -> None:
    """The Markdown table of one change's bytes by part, each with its share of the total."""
    total = attributed["total"]
    sys.stdout.write("\n| part of a seed change | bytes | share |\n| --- | --- | --- |\n")
    for name, count in breakdown_rows(attributed):
        sys.stdout.write(f"| {name} | {count / 1000:.1f} KB | {100 * count / total:.1f} % |\n")


if __name__ == "__main__":
    main()
