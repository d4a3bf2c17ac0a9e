"""A class answering together: 100 students in one room behind nginx with 2 app processes.

    python benchmarks/room.py [--students 100] [--processes 2] [--window 10] [--step 10] [--no-kill]
    python benchmarks/room.py cold [--students 100] [--processes 2] [--arrive 20] [--plain]

Loopback only, bounded in count and time. It starts nginx and the app processes
(deploy/cluster.py, the rooms in a SQLite file of the run folder, as every process shares
it), makes a room, and speaks Streamlit's websocket protocol as browsers do
(harness/streamlit_client.py), the fragments' timers included (a browser's frontend drives
``st.fragment(run_every=…)``: so does each client here):

- the teacher's page (``?room=CODE&key=KEY``) reruns its live count every second;
- each student opens ``?room=CODE``, its id in the cookie a browser sends (arrivals spread
  over ``--arrive`` seconds), follows the teacher (its fragment every 1.5 s), and answers
  step ``--step`` (the room is moved there first; default 10, the token question) once, at a
  random moment of a ``--window`` of 10 s, with one of the step's first six options (option
  indices 0-5: on a token question, token positions): the time from sending the answer to
  its run's end is its round trip;
- once the teacher's screen counts every answer, the teacher presses Reveal: the run that
  draws the reveal (the bars with the right answer marked) is timed.

Reported: the answers' round trips (median, p95, max), how long after the last answer the
teacher's screen counted all of them and drew the reveal, whether the store holds every
answer exactly once, and then (unless ``--no-kill``) what a process's death (SIGKILL) does:
every answer counted before it is still counted, and its students reconnect (a new
websocket through nginx, the same ``me``) and see their answer again.

``cold``: a class at the cluster's start. The cluster is started (its processes warm
themselves before their health check answers, ui/warm.py; ``--plain``: plain `streamlit run`
processes, as before the warm-up, to compare), a room is made in the store (no page has been
opened: no teacher's page, no earlier visit), and from the moment ``start_cluster`` returns
(every process and nginx healthy: when a teacher could first project the QR code) the
students open the student link, arrivals spread at random over ``--arrive`` seconds. Each
student's first render is from opening its websocket through nginx to the end of its page's
first run; each then follows the teacher as a phone does. Reported: the time to ready, the
first renders' median, p95 and max, and the errors.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/room.py`
    sys.path.insert(0, str(ROOT))

from classroom.model import LESSON_STEPS, Tally  # noqa: E402
from classroom.sqlite_store import SQLiteStore  # noqa: E402
from deploy.cluster import ROOMS_FILE, start_cluster, stop_cluster  # noqa: E402
from harness.server import ARTIFACTS  # noqa: E402
from harness.streamlit_client import StreamlitClient  # noqa: E402
from ui.room.student_id import COOKIE  # noqa: E402

PAGE = "lesson"
DEFAULT_STEP = 10  # the token question: its options are token positions
PICKS = 6  # students answer with option indices 0-5 (fewer where the step has fewer options)
REVEAL_KEY = "rm_reveal"  # ui/room/teacher.py
ANSWERED = re.compile(r"\*\*(\d+) answered\*\*")
SEED = 20261204
# string_table/room.py: room.your_answer_in, and once revealed room.you_were_right / _wrong
ANSWER_SHOWN = ("Your answer is in", "You answered")


@dataclass
class Student:
    n: int
    me: str
    client: StreamlitClient | None = None
    answer: int = 0
    sent_at: float = 0.0
    round_trip: float | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    errors: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # of the last page opened


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


async def drive_fragments(
    client: StreamlitClient,
    lock: asyncio.Lock,
    stop: asyncio.Event,
    seen: list | None = None,
    errors: list | None = None,
) -> None:
    """Rerun the page's timed fragments as a browser's frontend does, until ``stop``."""
    due: dict[str, float] = {}
    while not stop.is_set():
        now = time.monotonic()
        for fragment, interval in list(client.auto_reruns.items()):
            due.setdefault(fragment, now + interval)
            if now >= due[fragment]:
                due[fragment] = now + interval
                async with lock:
                    try:
                        result = await client.run_fragment(fragment)
                    except Exception as error:  # noqa: BLE001 - a dropped connection ends the timer
                        if errors is not None:
                            errors.append(repr(error))
                        return
                if seen is not None:
                    seen.append((time.monotonic(), result.texts))
                if errors is not None and not result.ok:
                    errors.append(f"fragment run: {result.exceptions or result.status}")
        await asyncio.sleep(0.05)


def answer_key(step: int) -> str:
    return f"rm_answer_{step}"  # ui/room/student.py


async def open_student(url: str, code: str, student: Student, step: int) -> float:
    student.client = StreamlitClient(url, PAGE, f"room={code}", cookies={COOKIE: student.me})
    await student.client.connect()
    result = await student.client.open_page()
    student.texts = result.texts
    if not result.ok:
        student.errors.append(f"open: {result.exceptions or result.status}")
    if answer_key(step) not in student.client.widget_ids:
        student.errors.append("no answer widget on the page")
    return result.seconds


async def answer(student: Student, delay: float, step: int) -> None:
    """Picks option ``student.answer`` (wrapped to the options the page shows; a radio's value
    travels as the option's formatted text)."""
    await asyncio.sleep(delay)
    options = student.client.widget_options.get(answer_key(step)) or [""]
    student.answer %= len(options)
    async with student.lock:
        student.sent_at = time.monotonic()
        result = await student.client.set_widget(answer_key(step), string_value=options[student.answer])
        student.round_trip = time.monotonic() - student.sent_at
    if not result.ok:
        student.errors.append(f"answer: {result.exceptions or result.status}")


def teacher_counted(seen: list, total: int) -> float | None:
    """When the teacher's screen first showed ``total`` answered."""
    for at, texts in seen:
        for text in texts:
            match = ANSWERED.search(text.replace("\\", ""))
            if match and int(match.group(1)) >= total:
                return at
    return None


def check_store(store: SQLiteStore, code: str, students: list[Student], step: int) -> dict:
    tally = store.tally(code, step)
    expected = Tally(len(students), {})
    for s in students:
        expected.by_answer[(s.answer,)] = expected.by_answer.get((s.answer,), 0) + 1
    each = sum(store.answer_of(code, step, s.me) == (s.answer,) for s in students)
    return {
        "answered": tally.answered,
        "students": store.students(code),
        "tally_equals_answers": tally == expected,
        "each_answer_stored": each,
    }


async def kill_one(cluster, code: str, store: SQLiteStore, students: list[Student], url: str, step: int) -> dict:
    """SIGKILL one app process; its students reconnect through nginx and find their answer."""
    before = check_store(store, code, students, step)
    victim = cluster.app_pids[0]
    os.kill(victim, signal.SIGKILL)
    await asyncio.sleep(0.5)
    dropped = []
    for s in students:
        try:
            async with asyncio.timeout(5):
                async with s.lock:
                    await s.client.run_fragment(next(iter(s.client.auto_reruns), ""))
        except Exception:  # noqa: BLE001 - its process is gone
            dropped.append(s)
    reconnect = []
    for s in dropped:
        await s.client.close()
        started = time.monotonic()
        await open_student(url, code, s, step)
        reconnect.append(time.monotonic() - started)
    shown_again = sum(any(shown in text for text in s.texts for shown in ANSWER_SHOWN) for s in dropped)
    after = check_store(store, code, students, step)
    return {
        "killed_pid": victim,
        "students_on_it": len(dropped),
        "reconnect_median_s": statistics.median(reconnect) if reconnect else None,
        "reconnect_max_s": max(reconnect) if reconnect else None,
        "before": before,
        "after": after,
        "no_answer_lost": after["each_answer_stored"] == before["each_answer_stored"] == len(students),
        "shown_again": shown_again,
    }


async def counted_then_revealed(teacher, lock: asyncio.Lock, seen: list, total: int, last_answer: float) -> dict:
    """Waits (30 s at most) for the teacher's screen to count ``total`` answers, then presses
    Reveal and times the run that draws it: both from the last answer's end."""
    deadline = time.monotonic() + 30
    while teacher_counted(seen, total) is None and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    counted_at = teacher_counted(seen, total)
    async with lock:
        pressed = time.monotonic()
        revealed = await teacher.press(REVEAL_KEY)
        drawn_at = time.monotonic()
    return {
        "teacher_counted_all_after_last_answer_s": None if counted_at is None else max(0.0, counted_at - last_answer),
        "reveal_run_s": drawn_at - pressed,
        "reveal_drawn_after_last_answer_s": drawn_at - last_answer,
        "reveal_ok": revealed.ok and revealed.charts >= 1,  # the bars, redrawn with the right answer marked
    }


async def run(args) -> dict:
    rng = random.Random(SEED)
    run_dir = Path(tempfile.mkdtemp(prefix="room-bench-"))
    cluster = start_cluster(processes=args.processes, run_dir=run_dir)
    store = SQLiteStore(run_dir / ROOMS_FILE)
    try:
        code, key = store.create()
        store.move(code, key, args.step)  # the teacher's page and the students' open on the step
        stop = asyncio.Event()
        teacher = StreamlitClient(cluster.url, PAGE, f"room={code}&key={key}")
        await teacher.connect()
        assert (await teacher.open_page()).ok, "the teacher's page"
        teacher_lock, seen, teacher_errors = asyncio.Lock(), [], []
        tasks = [asyncio.create_task(drive_fragments(teacher, teacher_lock, stop, seen, teacher_errors))]
        students = [Student(n, f"b{n:011d}", answer=rng.randrange(PICKS)) for n in range(args.students)]
        arrivals = sorted(rng.uniform(0, args.arrive) for _ in students)

        async def arrive(student: Student, at: float) -> float:
            await asyncio.sleep(at)
            return await open_student(cluster.url, code, student, args.step)

        opens = await asyncio.gather(*(arrive(s, at) for s, at in zip(students, arrivals, strict=True)))
        tasks += [asyncio.create_task(drive_fragments(s.client, s.lock, stop, errors=s.errors)) for s in students]
        window_start = time.monotonic()
        await asyncio.gather(*(answer(s, rng.uniform(0, args.window), args.step) for s in students))
        last_answer = max(s.sent_at + s.round_trip for s in students)
        shown = await counted_then_revealed(teacher, teacher_lock, seen, len(students), last_answer)
        trips = [s.round_trip for s in students if s.round_trip is not None]
        result = {
            "students": len(students),
            "processes": args.processes,
            "step": args.step,
            "window_s": args.window,
            "open_median_s": statistics.median(opens),
            "open_p95_s": percentile(opens, 0.95),
            "answers_in_s": last_answer - window_start,
            "answer_median_s": statistics.median(trips),
            "answer_p95_s": percentile(trips, 0.95),
            "answer_max_s": max(trips),
            **shown,
            "store": check_store(store, code, students, args.step),
            "errors": sorted({e for s in students for e in s.errors} | set(teacher_errors))[:10],
        }
        if args.kill:
            result["kill"] = await kill_one(cluster, code, store, students, cluster.url, args.step)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        for s in students:
            if s.client is not None:
                await s.client.close()
        await teacher.close()
        return result
    finally:
        store.close()
        stop_cluster(cluster)


async def first_render(url: str, code: str, student: Student) -> float:
    """From opening the websocket to the end of the page's first run."""
    started = time.perf_counter()
    await open_student(url, code, student, 1)
    return time.perf_counter() - started


async def cold(args) -> dict:
    """The cold start: students open the link from the moment the cluster is ready."""
    rng = random.Random(SEED)
    run_dir = Path(tempfile.mkdtemp(prefix="room-cold-"))
    started = time.monotonic()
    cluster = start_cluster(processes=args.processes, run_dir=run_dir, warm=not args.plain)
    ready = time.monotonic() - started
    store = SQLiteStore(run_dir / ROOMS_FILE)
    stop, tasks = asyncio.Event(), []
    students = [Student(n, f"c{n:011d}") for n in range(args.students)]
    try:
        code, _ = store.create()
        arrivals = sorted(rng.uniform(0, args.arrive) for _ in students)
        opened = time.monotonic()

        async def arrive(student: Student, at: float) -> float:
            await asyncio.sleep(max(0.0, at - (time.monotonic() - opened)))
            seconds = await first_render(cluster.url, code, student)
            follow = drive_fragments(student.client, student.lock, stop, errors=student.errors)
            tasks.append(asyncio.create_task(follow))
            return seconds

        renders = await asyncio.gather(*(arrive(s, at) for s, at in zip(students, arrivals, strict=True)))
        return {
            "mode": "cold",
            "warm_up": not args.plain,
            "students": len(students),
            "processes": args.processes,
            "arrive_s": args.arrive,
            "cluster_ready_s": ready,
            "first_render_median_s": statistics.median(renders),
            "first_render_p95_s": percentile(renders, 0.95),
            "first_render_max_s": max(renders),
            "first_ten_median_s": statistics.median(renders[:10]),  # arrivals are sorted: the first to arrive
            "errors": sorted({e for s in students for e in s.errors})[:10],
        }
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        for s in students:
            if s.client is not None:
                await s.client.close()
        store.close()
        stop_cluster(cluster)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", nargs="?", choices=("class", "cold"), default="class")
    parser.add_argument("--plain", action="store_true", help="cold: processes without the warm-up, to compare")
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--window", type=float, default=10.0, help="the answers come within this many seconds")
    parser.add_argument(
        "--arrive", type=float, default=20.0, help="the students open the link within this many seconds"
    )
    parser.add_argument(
        "--step", type=int, default=DEFAULT_STEP, help="the step the class answers (default 10: the token question)"
    )
    parser.add_argument("--no-kill", dest="kill", action="store_false")
    args = parser.parse_args()
    if not 1 <= args.step <= LESSON_STEPS:
        parser.error(f"--step must be a step of the lesson, 1 to {LESSON_STEPS} (got {args.step})")
    result = asyncio.run(cold(args) if args.mode == "cold" else run(args))
    ARTIFACTS.mkdir(exist_ok=True)
    name = f"room-cold-{'plain' if args.plain else 'warm'}" if args.mode == "cold" else "room"
    (ARTIFACTS / f"{name}-benchmark.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
