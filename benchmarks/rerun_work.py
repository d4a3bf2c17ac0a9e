"""The server's work in a rerun whose inputs did not change, before and after a commit.

    python benchmarks/rerun_work.py [CHANGES] [--before COMMIT]

Starts two real `streamlit run` servers with `ui/step_timing.py`'s log on
(``ATTENTION_STEP_TIMES``): this tree, and COMMIT's tree (default: HEAD~1) exported into a
temporary folder and run with the same Python. On each it opens the playground at the book's
size (the 70-character sentence, h = 8, d = 8, as `benchmarks/roundtrip.py`) as a browser
would over Streamlit's websocket, asks for the rest of the page, then CHANGES times (default
30, after a warm-up), alternating between the servers so that both see the same load:
(a) reruns the page with nothing changed, and (b) moves the query row to a row not chosen
before. Prints JSON and a Markdown table of each step's median milliseconds per rerun
(trace, figures, description, serialization, the rest of the round trip) and the round
trip, for docs/benchmarks.md.

``measure_reruns(url, steps_log, changes)`` is the part another benchmark can call with a
server it started itself.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/rerun_work.py`
    sys.path.insert(0, str(ROOT))

from gpt_core import position_label  # noqa: E402
from gpt_core.tokens import tokenize  # noqa: E402
from harness.server import start_server, stop_server  # noqa: E402
from harness.streamlit_client import StreamlitClient  # noqa: E402
from ui.step_timing import ENV, read_steps  # noqa: E402

BOOK_SENTENCE = "The cat sat on the mat because it was tired, and the dog slept by the door all day."[:70]
QUERY = {"text": BOOK_SENTENCE, "heads": "8", "head_dim": "8"}
SERVER_ENV = {"STREAMLIT_RUNNER_POST_SCRIPT_GC": "false"}  # this app's settings (.streamlit/config.toml)
DEFAULT_CHANGES = 30
WARMUP = 3
KINDS = ("unchanged", "row")  # a rerun with nothing changed; a query row not chosen before
STEPS = ("trace", "figures", "description", "serialization")
REST = "rest"
ROUND_TRIP = "round trip"


class Session:
    """One browser's session on one server, with the server's step log."""

    def __init__(self, url: str, steps_log: str) -> None:
        self.client = StreamlitClient(url, "playground", urlencode(QUERY))
        self.steps_log = Path(steps_log)
        labels = [position_label(i, token) for i, token in enumerate(tokenize(BOOK_SENTENCE, "char"))]
        self.rows = labels[::-1][1:]  # the last row is the default: each change a row not chosen yet
        self.steps: dict[str, list[dict[str, float]]] = {kind: [] for kind in KINDS}

    async def open(self) -> None:
        await self.client.connect()
        for _ in range(2):  # the first screen, then the rest the browser asks for
            opened = await self.client.open_page()
            assert opened.ok, opened.exceptions

    async def once(self, kind: str, change: int, kept: bool) -> None:
        """One rerun of ``kind``; its steps and round trip kept unless a warm-up."""
        self.steps_log.write_text("")  # the run before has finished: its steps are logged
        if kind == "unchanged":
            result = await self.client.open_page()  # the same widget states sent again: a plain rerun
        else:
            result = await self.client.set_widget("pg_row", string_value=self.rows[change % len(self.rows)])
        assert result.ok and result.charts >= 2, (result.exceptions, result.charts)
        if kept:
            steps = read_steps(str(self.steps_log))
            self.steps[kind].append({**steps, ROUND_TRIP: result.seconds * 1000})

    def medians(self) -> dict[str, dict[str, float]]:
        return {kind: step_medians(self.steps[kind]) for kind in KINDS}


def step_medians(changes: list[dict[str, float]]) -> dict[str, float]:
    """Each step's median milliseconds per rerun, the rest of the round trip, the round trip."""
    medians = {step: round(statistics.median(change.get(step, 0.0) for change in changes), 2) for step in STEPS}
    rest = [change[ROUND_TRIP] - sum(change.get(step, 0.0) for step in STEPS) for change in changes]
    medians[REST] = round(statistics.median(rest), 1)
    medians[ROUND_TRIP] = round(statistics.median(change[ROUND_TRIP] for change in changes), 1)
    return medians


async def _alternate(sessions: list[Session], changes: int) -> None:
    for session in sessions:
        await session.open()
    try:
        for change in range(WARMUP + changes):
            for kind in KINDS:
                for session in sessions:
                    await session.once(kind, change, kept=change >= WARMUP)
    finally:
        for session in sessions:
            await session.client.close()


def measure_reruns(url: str, steps_log: str, changes: int = DEFAULT_CHANGES) -> dict[str, dict[str, float]]:
    """On a server started with ``ATTENTION_STEP_TIMES=steps_log``: per kind of rerun, each
    step's median milliseconds."""
    session = Session(url, steps_log)
    asyncio.run(_alternate([session], changes))
    return session.medians()


def exported(commit: str, folder: Path) -> Path:
    """``commit``'s tree, written into ``folder`` (git archive)."""
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def compare(before: str, changes: int) -> dict:
    """The same reruns on ``before``'s tree and on this one, alternating."""
    with tempfile.TemporaryDirectory() as logs, tempfile.TemporaryDirectory() as tree:
        trees = {f"before ({before})": exported(before, Path(tree)), "after (this tree)": ROOT}
        servers, sessions = [], []
        try:
            for i, cwd in enumerate(trees.values()):
                log = str(Path(logs) / f"steps-{i}.tsv")
                servers.append(start_server("rerun_work", env={**SERVER_ENV, ENV: log}, cwd=cwd))
                sessions.append(Session(servers[-1].url, log))
            asyncio.run(_alternate(sessions, changes))
        finally:
            for server in servers:
                stop_server(server)
        return {label: session.medians() for label, session in zip(trees, sessions, strict=True)}


def table(results: dict) -> str:
    """The Markdown table: a row per step, a column per tree and kind of rerun."""
    columns = [(label, kind) for label in results for kind in KINDS]
    names = {"unchanged": "nothing changed", "row": "query row"}
    head = "| step | " + " | ".join(f"{names[kind]}, {label}" for label, kind in columns) + " |\n"
    lines = [head, "| --- |" + " --- |" * len(columns) + "\n"]
    for step in (*STEPS, REST, ROUND_TRIP):
        cells = " | ".join(f"{results[label][kind][step]} ms" for label, kind in columns)
        lines.append(f"| {step} | {cells} |\n")
    return "".join(lines)


def main() -> None:
    arguments = sys.argv[1:]
    before = "HEAD~1"
    if "--before" in arguments:
        at = arguments.index("--before")
        before = arguments[at + 1]
        del arguments[at : at + 2]
    changes = int(arguments[0]) if arguments else DEFAULT_CHANGES
    results = compare(before, changes)
    sys.stdout.write(json.dumps(results, indent=2) + "\n\n" + table(results))


if __name__ == "__main__":
    main()
