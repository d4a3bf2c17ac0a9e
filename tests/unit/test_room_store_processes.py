"""Rooms' stores under many processes, for both stores: processes answering at once lose no
answer and count none twice, the student and change limits hold when they race, and a
client killed mid-stream loses no answer it was told was stored."""

from __future__ import annotations

import collections
import dataclasses
import json
import os
import random
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

from classroom.model import Limits, Tally

from .room_stores import (
    ROOT,
    WORKER_TIMEOUT_S,
    Stores,
    sid,
)

# -- many processes ----------------------------------------------------------------------------
# A worker opens the store, says "ready", waits for "go" (all start together), then runs its
# operations and prints each one's outcome; a "stream" worker answers until it is killed,
# printing each answer once answer() has returned.
WORKER = r"""
import json, sys
from classroom.model import Limits, RoomError
from classroom.store import open_store
spec, task = sys.argv[1], json.loads(sys.argv[2])
store = open_store(spec, Limits(**task["limits"]))
code = task["code"]
print("ready", flush=True)
sys.stdin.readline()
if task["kind"] == "stream":
    for n in range(task["first"], task["first"] + task["count"]):
        student, step, answer = f"s{n:011d}", 1 + n % 3, [n % 7, 10 + n % 5]
        store.answer(code, step, student, answer)
        print(student, step, ",".join(map(str, answer)), flush=True)
else:
    outcomes = []
    for op in task["ops"]:
        try:
            if op[0] == "join":
                store.join(code, op[1])
            else:
                store.answer(code, op[2], op[1], op[3])
            outcomes.append("ok")
        except RoomError as error:
            outcomes.append(error.reason)
    print(json.dumps(outcomes), flush=True)
store.close()
"""


class Worker:
    def __init__(self, stores: Stores, code: str, limits: Limits, task: dict, log: Path) -> None:
        task = {**task, "code": code, "limits": dataclasses.asdict(limits)}
        self.log = log
        with log.open("w") as errors:
            self.process = subprocess.Popen(
                [sys.executable, "-c", WORKER, stores.spec, json.dumps(task)],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errors,
            )
        self.buffer = b""

    def line(self, timeout_s: float = WORKER_TIMEOUT_S) -> str | None:
        """The next whole line the worker printed, or None once it has ended."""
        deadline = time.monotonic() + timeout_s
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                assert left > 0, f"no line from the worker in {timeout_s} s: {self.log.read_text()[-2000:]}"
                if selector.select(left):
                    chunk = os.read(self.process.stdout.fileno(), 65536)
                    if not chunk:
                        return None  # the end; an unfinished last line is not a line
                    self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()

    def go(self) -> None:
        self.process.stdin.write(b"go\n")
        self.process.stdin.flush()

    def end(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=WORKER_TIMEOUT_S)
        for pipe in (self.process.stdin, self.process.stdout):
            pipe.close()


def run_together(stores: Stores, code: str, limits: Limits, op_lists: list[list], folder: Path) -> list[list[str]]:
    """Each op list in its own process, all started at once: each op's outcome."""
    workers = [
        Worker(stores, code, limits, {"kind": "ops", "ops": ops}, folder / f"worker-{i}.log")
        for i, ops in enumerate(op_lists)
    ]
    try:
        for worker in workers:
            assert worker.line() == "ready", worker.log.read_text()[-2000:]
        for worker in workers:
            worker.go()
        outcomes = []
        for worker in workers:
            line = worker.line()
            assert line is not None, worker.log.read_text()[-2000:]
            outcomes.append(json.loads(line))
            assert worker.process.wait(timeout=WORKER_TIMEOUT_S) == 0, worker.log.read_text()[-2000:]
        return outcomes
    finally:
        for worker in workers:
            worker.end()


PROCESSES = 4
STUDENTS_EACH = 50


def test_processes_answering_at_once_lose_no_answer_and_count_none_twice(stores, tmp_path):
    """4 processes × 50 students: each joins, answers step 1, changes it twice, answers
    step 2; rounds interleave so every process writes throughout."""
    limits = Limits(changes_per_step=5)
    code, _ = stores.open(limits).create()
    rng = random.Random(7)
    op_lists, final = [], {}
    for p in range(PROCESSES):
        students = [sid(p * 1000 + i) for i in range(STUDENTS_EACH)]
        rounds: list[list] = [[["join", s] for s in students]]
        for step, tries in ((1, 3), (2, 1)):
            for _ in range(tries):
                ops = []
                for s in students:
                    answer = rng.sample(range(5), rng.randrange(1, 3))
                    ops.append(["answer", s, step, answer])
                    final[(step, s)] = tuple(sorted(answer))
                rounds.append(ops)
        op_lists.append([op for ops in rounds for op in ops])
    outcomes = run_together(stores, code, limits, op_lists, tmp_path)
    assert all(outcome == "ok" for worker in outcomes for outcome in worker)
    store = stores.open(limits)
    assert store.students(code) == PROCESSES * STUDENTS_EACH
    for step in (1, 2):
        expected = collections.Counter(a for (s, _), a in final.items() if s == step)
        assert store.tally(code, step) == Tally(PROCESSES * STUDENTS_EACH, dict(expected))
    assert all(store.answer_of(code, step, s) == answer for (step, s), answer in final.items())


def test_the_student_limit_holds_when_processes_race_to_join(stores, tmp_path):
    limits = Limits(students=30)
    code, _ = stores.open(limits).create()
    op_lists = [[["answer", sid(p * 100 + i), 1, [p]] for i in range(20)] for p in range(PROCESSES)]
    outcomes = run_together(stores, code, limits, op_lists, tmp_path)
    flat = collections.Counter(outcome for worker in outcomes for outcome in worker)
    assert flat == {"ok": 30, "full": PROCESSES * 20 - 30}
    store = stores.open(limits)
    assert store.students(code) == 30
    admitted = collections.Counter(p for p, worker in enumerate(outcomes) for outcome in worker if outcome == "ok")
    assert store.tally(code, 1) == Tally(30, {(p,): n for p, n in admitted.items()})


def test_the_change_limit_holds_when_processes_race_to_change_one_answer(stores, tmp_path):
    limits = Limits(changes_per_step=10)
    store = stores.open(limits)
    code, _ = store.create()
    store.answer(code, 1, sid(1), [0])
    # Every try is a different answer, so each accepted one is a change.
    op_lists = [[["answer", sid(1), 1, [p + 1, 10 + k]] for k in range(20)] for p in range(PROCESSES)]
    outcomes = run_together(stores, code, limits, op_lists, tmp_path)
    flat = collections.Counter(outcome for worker in outcomes for outcome in worker)
    assert flat == {"ok": 10, "too_many_changes": PROCESSES * 20 - 10}
    accepted = {(p + 1, 10 + k) for p, worker in enumerate(outcomes) for k, o in enumerate(worker) if o == "ok"}
    stored = store.answer_of(code, 1, sid(1))
    assert stored in accepted
    assert store.tally(code, 1) == Tally(1, {stored: 1}) and store.students(code) == 1


def test_a_killed_client_loses_no_answer_it_was_told_was_stored(stores, tmp_path):
    """A process answering as fast as it can is killed (SIGKILL) mid-stream: every answer
    whose answer() had returned (the worker printed it) is in the store. Redis runs without
    persistence here: the kill is of a client, the server stays up."""
    limits = Limits(students=1_000_000)
    code, _ = stores.open(limits).create()
    worker = Worker(stores, code, limits, {"kind": "stream", "first": 0, "count": 1_000_000}, tmp_path / "stream.log")
    printed = []
    try:
        assert worker.line() == "ready", worker.log.read_text()[-2000:]
        worker.go()
        while len(printed) < 300:
            line = worker.line()
            assert line is not None, worker.log.read_text()[-2000:]
            printed.append(line)
        os.kill(worker.process.pid, signal.SIGKILL)
        assert worker.process.wait(timeout=WORKER_TIMEOUT_S) == -signal.SIGKILL
        while (line := worker.line()) is not None:  # what it printed before it died
            printed.append(line)
    finally:
        worker.end()
    assert 300 <= len(printed) < 1_000_000, "killed mid-stream"
    store = stores.open(limits)  # opened after the kill (SQLite: the file as the killed writer left it)
    for line in printed:
        student, step, answer = line.split()
        assert store.answer_of(code, int(step), student) == tuple(int(i) for i in answer.split(",")), line
    assert store.students(code) >= len(printed)
    assert sum(store.tally(code, step).answered for step in (1, 2, 3)) >= len(printed)
