"""A class on one link: simulated students over Streamlit's websocket protocol.

    python benchmarks/classroom.py [classroom|burst|training|soak|explorer|smoke] [--students N]
                                   [--nginx 1,2] [--real FOLDER] [--runs N] [--against REV]

Loopback only, bounded in count and time, stops by itself. It starts a real `streamlit run`
server and reports first-render and interaction latency (median, p95, max), errors, script
exceptions, bytes, and the server's memory (RSS idle, peak, after):

- classroom: N students (default 40) open the same playground link within a few seconds,
  then each changes the seed 10 times with a random pause (exponential, mean 3 s);
- burst: 20 students change a control back to back, 5 times each;
- training: 10 students start a training on the Train page (default model, 300 steps) while
  30 others visualize as in the classroom; the visualizers' latency is reported apart, and
  for the trainings whether they waited visibly for a slot and whether all finished;
- soak: waves of students that make 500+ interactions in all and then leave; after the
  sessions expire (server.disconnectedSessionTTL set short) the RSS is read again;
- explorer: 100 students open the explorer within 2 s, each with a prompt of their own (a
  new trace and new figures each: heavy first opens), and ask for the rest of the page as a
  browser does; meanwhile 3 other students change the playground's seed every second or so.
  Reported: the explorer's first chart (first render), the rest of its page, and the
  playground students' changes apart ("probe");
- smoke: 5 students, 3 changes each (a quick check that the client and server agree).

``--runs N`` runs each scenario N times (each on a fresh server), to see how a result varies.

``--against REV`` first runs the same scenarios on that commit's code (its own benchmark, from a
temporary worktree), then on this one's: the reports say which code each is ("code").

With ``--real FOLDER`` the server offers that real model (ATTENTION_MODELS) and the link
chooses it: each student's first screen is followed by the rest of the page (as a browser
asks for it), and each change chooses another head (a real model has no seed).

With ``--nginx 1,2`` each scenario runs through nginx with 1, then 2 app processes (deploy/cluster.py,
sticky sessions): the memory reported is then the sum over the processes.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/classroom.py`
    sys.path.insert(0, str(ROOT))

from benchmarks.against import checked_out, option, without_option  # noqa: E402
from deploy.cluster import start_cluster, stop_cluster  # noqa: E402
from harness.server import ARTIFACTS, start_server, stop_server  # noqa: E402
from harness.streamlit_client import StreamlitClient  # noqa: E402

LINK = {
    "text": "The cat sat on the mat because it was tired, and the dog slept by the door.",
    "heads": "8",
    "head_dim": "8",
}
SCENARIOS = {
    "classroom": dict(students=40, arrival_s=5.0, changes=10, mean_pause_s=3.0),
    "burst": dict(students=20, arrival_s=0.0, changes=5, mean_pause_s=0.0),
    "smoke": dict(students=5, arrival_s=1.0, changes=3, mean_pause_s=0.2),
}
TRAINERS = 10
TRAINING_VISUALIZERS = 30
TRAINING_ARRIVAL_S = 5.0
WAITING_TEXT = "Waiting for a free training slot"  # string_table/train.py, tr.waiting (en)
DONE_TEXT = "Trained "  # tr.done (en)
SOAK_WAVES = 5
SOAK_STUDENTS = 20
SOAK_CHANGES = 5  # 5 waves x 20 students x (1 open + 5 changes) = 600 interactions
SESSION_TTL_S = 5  # server.disconnectedSessionTTL for the soak: closed sessions are dropped soon
SETTLE_S = 15.0  # after the soak, time for sessions to expire and memory to be returned
SCENARIO_TIMEOUT_S = 600.0
EXPLORER_STUDENTS = 100
EXPLORER_ARRIVAL_S = 2.0
EXPLORER_PROMPT = "ROMEO:\nBut soft, what light through yonder window breaks? It is the east"
PROBES = 3  # playground students changing the seed while the explorer opens
PROBE_PAUSE_S = 1.0  # their mean pause between changes
RANDOM_SEED = 0
REAL: dict[str, str] = {}  # --real: "folder" -> the real model's folder, "name" -> its name in a link
REAL_HEADS, REAL_LAYERS = 12, 12  # GPT-2's (and its shape's)


@dataclass
class Tally:
    first_render: list[float] = field(default_factory=list)
    interaction: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    exceptions: int = 0
    bytes: int = 0  # the messages', as Streamlit serialized them
    wire_bytes: int = 0  # what the sockets delivered (compressed where the server compresses)
    trainings: list[dict] = field(default_factory=list)  # training scenario: one per trainer
    rest: list[float] = field(default_factory=list)  # explorer scenario: the rest of the page
    probe: list[float] = field(default_factory=list)  # explorer scenario: the playground students' changes


@dataclass
class Target:
    """Where the students connect: one server, or nginx in front of several."""

    url: str
    pids: list[int]  # the app processes, whose memory is reported
    app_urls: list[str]  # each process directly, to warm every one of them
    stop: object  # () -> None


def start_target(name: str, env: dict[str, str], processes: int | None) -> Target:
    if processes is None:
        server = start_server(f"classroom-{name}", env=env)
        return Target(server.url, [server.process.pid], [server.url], lambda: stop_server(server))
    cluster = start_cluster(processes, run_dir=ARTIFACTS / f"cluster-{name}-{processes}", env=env)
    return Target(cluster.url, cluster.app_pids, cluster.app_urls, lambda: stop_cluster(cluster))


def rss_mb(target: Target) -> float:
    total = 0.0
    for pid in target.pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) / 1024
    return total


def link() -> dict[str, str]:
    return {"text": LINK["text"], "weights": REAL["name"]} if REAL else LINK


async def change(client: StreamlitClient, rng: random.Random):
    """One student's change: another seed, or with a real model another head."""
    if REAL:
        return await client.set_widget("pg_head", string_value=f"head {rng.randrange(1, REAL_HEADS + 1)}")
    return await client.set_widget("pg_seed", int_value=rng.randrange(10_000))


async def student(url: str, delay: float, changes: int, mean_pause: float, rng: random.Random, tally: Tally) -> None:
    await asyncio.sleep(delay)
    client = StreamlitClient(url, "playground", urlencode(link()))
    try:
        await client.connect()
        first = await client.open_page()
        seconds = first.seconds
        if REAL:  # the rest of the page, asked for by the browser once the first screen is drawn
            rest = await client.set_widget("pg_block", string_value=f"layer 1 of {REAL_LAYERS}")
            seconds += rest.seconds
        else:  # its own run, as the browser asks for it: a later change reruns only the set-up
            rest = await client.open_page()
        tally.exceptions += len(rest.exceptions)
        tally.first_render.append(seconds)
        tally.exceptions += len(first.exceptions)
        tally.bytes += first.bytes
        tally.wire_bytes += first.wire_bytes
        for _ in range(changes):
            if mean_pause:
                await asyncio.sleep(rng.expovariate(1 / mean_pause))
            result = await change(client, rng)
            tally.interaction.append(result.seconds)
            tally.exceptions += len(result.exceptions)
            tally.bytes += result.bytes
            tally.wire_bytes += result.wire_bytes
    except Exception as error:  # a load test counts failures instead of stopping at the first
        tally.errors.append(f"{type(error).__name__}: {error}")
    finally:
        await client.close()


async def trainer(url: str, delay: float, tally: Tally) -> None:
    """Open the Train page and start a training with the page's defaults; wait for its end."""
    await asyncio.sleep(delay)
    client = StreamlitClient(url, "train")
    try:
        await client.connect()
        first = await client.open_page()
        tally.exceptions += len(first.exceptions)
        run = await client.press("tr_start")
        tally.exceptions += len(run.exceptions)
        tally.bytes += first.bytes + run.bytes
        tally.trainings.append(
            {
                "seconds": run.seconds,
                "waited_visibly": any(WAITING_TEXT in text for text in run.texts),
                "finished": any(text.startswith(DONE_TEXT) for text in run.texts),
            }
        )
    except Exception as error:
        tally.errors.append(f"{type(error).__name__}: {error}")
    finally:
        await client.close()


async def run_training_class(url: str, rng: random.Random, tally: Tally) -> None:
    """Trainers and visualizers arrive together within TRAINING_ARRIVAL_S."""
    visualizers = [
        student(url, rng.uniform(0, TRAINING_ARRIVAL_S), 10, 3.0, random.Random(rng.random()), tally)
        for _ in range(TRAINING_VISUALIZERS)
    ]
    trainers = [trainer(url, rng.uniform(0, TRAINING_ARRIVAL_S), tally) for _ in range(TRAINERS)]
    async with asyncio.timeout(SCENARIO_TIMEOUT_S):
        await asyncio.gather(*visualizers, *trainers)


async def explorer_student(url: str, delay: float, index: int, tally: Tally) -> None:
    """Open the explorer with a prompt no other student has (heavy), then the rest of it."""
    await asyncio.sleep(delay)
    prompt = f"{index:03d} {EXPLORER_PROMPT}"
    client = StreamlitClient(url, "explorer", urlencode({"model": "h4", "prompt": prompt}))
    try:
        await client.connect()
        first = await client.open_page()
        if not first.charts:
            tally.errors.append("explorer: no chart on the first screen")
        tally.first_render.append(first.seconds)
        rest = await client.open_page()  # the browser asks for the rest once the first screen is drawn
        tally.rest.append(rest.seconds)
        tally.exceptions += len(first.exceptions) + len(rest.exceptions)
        tally.bytes += first.bytes + rest.bytes
    except Exception as error:
        tally.errors.append(f"{type(error).__name__}: {error}")
    finally:
        await client.close()


async def probe(url: str, done: asyncio.Event, rng: random.Random, tally: Tally) -> None:
    """A playground student changing the seed until ``done``: light reruns during the storm."""
    client = StreamlitClient(url, "playground", urlencode(link()))
    try:
        await client.connect()
        await client.open_page()
        await client.open_page()
        while not done.is_set():
            await asyncio.sleep(rng.expovariate(1 / PROBE_PAUSE_S))
            result = await change(client, rng)
            tally.probe.append(result.seconds)
            tally.exceptions += len(result.exceptions)
    except Exception as error:
        tally.errors.append(f"probe {type(error).__name__}: {error}")
    finally:
        await client.close()


async def run_explorer_storm(url: str, rng: random.Random, tally: Tally, count: int) -> None:
    done = asyncio.Event()
    probes = [asyncio.create_task(probe(url, done, random.Random(rng.random()), tally)) for _ in range(PROBES)]
    await asyncio.sleep(2.0)  # the probes' pages are open and they are changing seeds
    students = [explorer_student(url, rng.uniform(0, EXPLORER_ARRIVAL_S), i, tally) for i in range(count)]
    async with asyncio.timeout(SCENARIO_TIMEOUT_S):
        await asyncio.gather(*students)
    done.set()
    await asyncio.gather(*probes)


async def run_class(
    url: str, students: int, arrival_s: float, changes: int, mean_pause_s: float, rng: random.Random, tally: Tally
) -> None:
    tasks = [
        student(url, rng.uniform(0, arrival_s), changes, mean_pause_s, random.Random(rng.random()), tally)
        for _ in range(students)
    ]
    async with asyncio.timeout(SCENARIO_TIMEOUT_S):
        await asyncio.gather(*tasks)


def summary(values: list[float]) -> dict:
    if not values:
        return {}
    ordered = sorted(values)
    return {
        "median_s": round(statistics.median(ordered), 3),
        "p95_s": round(ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))], 3),
        "max_s": round(ordered[-1], 3),
        "count": len(ordered),
    }


async def sample_memory(server: Target, peak: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        peak.append(rss_mb(server))
        await asyncio.sleep(0.5)


async def measured(server: Target, work) -> dict:
    peak: list[float] = []
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_memory(server, peak, stop))
    start = time.perf_counter()
    tally = await work()
    stop.set()
    await sampler
    return {
        "wall_s": round(time.perf_counter() - start, 1),
        "first_render": summary(tally.first_render),
        "interaction": summary(tally.interaction),
        "errors": len(tally.errors),
        "error_examples": tally.errors[:3],
        "script_exceptions": tally.exceptions,
        "megabytes_sent": round(tally.bytes / 1e6, 1),
        "megabytes_on_the_wire": round(tally.wire_bytes / 1e6, 1),
        "rss_peak_mb": round(max(peak), 1),
        **(_training_report(tally.trainings) if tally.trainings else {}),
        **({"rest_of_page": summary(tally.rest)} if tally.rest else {}),
        **({"probe_interaction": summary(tally.probe)} if tally.probe else {}),
    }


def _training_report(trainings: list[dict]) -> dict:
    return {
        "trainings": summary([run["seconds"] for run in trainings]),
        "trainings_finished": sum(run["finished"] for run in trainings),
        "trainings_waited_visibly": sum(run["waited_visibly"] for run in trainings),
    }


def run_scenario(name: str, students: int | None, processes: int | None = None) -> dict:
    env = {"STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": str(SESSION_TTL_S)} if name == "soak" else {}
    if REAL:
        env["ATTENTION_MODELS"] = REAL["folder"]
    server = start_target(name, env, processes)
    try:
        for url in server.app_urls:  # torch imported, caches warm, in every process
            asyncio.run(_warm(StreamlitClient(url, "playground", urlencode(link()))))
        time.sleep(1.0)
        idle = rss_mb(server)
        rng = random.Random(RANDOM_SEED)

        async def work() -> Tally:
            tally = Tally()
            if name == "training":
                await run_training_class(server.url, rng, tally)
            elif name == "explorer":
                await run_explorer_storm(server.url, rng, tally, students or EXPLORER_STUDENTS)
            elif name == "soak":
                for _ in range(SOAK_WAVES):
                    await run_class(server.url, SOAK_STUDENTS, 2.0, SOAK_CHANGES, 0.1, rng, tally)
            else:
                settings = dict(SCENARIOS[name])
                if students:
                    settings["students"] = students
                await run_class(server.url, rng=rng, tally=tally, **settings)
            return tally

        report = asyncio.run(measured(server, work))
        behind = {"processes_behind_nginx": processes} if processes else {}
        real = {"real_model": REAL["name"]} if REAL else {}
        report = {"scenario": name, **behind, **real, "rss_idle_mb": round(idle, 1), **report}
        if name == "soak":
            time.sleep(SESSION_TTL_S + SETTLE_S)
            report["rss_after_sessions_expired_mb"] = round(rss_mb(server), 1)
            report["interactions"] = report["first_render"]["count"] + report["interaction"]["count"]
        return report
    finally:
        server.stop()


async def _warm(client: StreamlitClient) -> None:
    await client.connect()
    try:
        await client.open_page()
    finally:
        await client.close()


def _reports_at(revision: str, args: list[str]) -> list[dict]:
    """The reports of ``revision``'s own classroom benchmark, run with ``args``."""
    with checked_out(revision) as tree:
        done = subprocess.run(
            [sys.executable, "benchmarks/classroom.py", *args], cwd=tree, capture_output=True, text=True, check=False
        )
    reports = json.loads(done.stdout)
    return [{"code": revision, **report} for report in reports]


def main() -> None:
    args = sys.argv[1:]
    students = int(args[args.index("--students") + 1]) if "--students" in args else None
    names = [arg for arg in args if arg in (*SCENARIOS, "soak", "training", "explorer")] or ["classroom", "burst"]
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 1
    # --nginx 1,2: each scenario through nginx with 1 and then 2 app processes, in one run
    counts = [int(n) for n in args[args.index("--nginx") + 1].split(",")] if "--nginx" in args else [None]
    if "--real" in args:
        folder = Path(args[args.index("--real") + 1]).resolve()
        REAL.update(folder=str(folder), name=folder.name)
    earlier = _reports_at(option(args), without_option(args)) if option(args) else []
    reports = [run_scenario(name, students, processes) for name in names for processes in counts for _ in range(runs)]
    reports = earlier + [{"code": "this", **report} for report in reports]
    sys.stdout.write(json.dumps(reports, indent=2, ensure_ascii=False) + "\n")
    failed = any(
        report["errors"] or report["script_exceptions"] or report.get("trainings_finished", TRAINERS) < TRAINERS
        for report in reports
    )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
