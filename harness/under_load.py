"""Run a command while other processes keep every core busy: the browser layer as a CI
machine shared with other work runs it.

    .venv/bin/python -m harness.under_load                      # the browser layer
    .venv/bin/python -m harness.under_load tests/browser/test_keyboard.py -p no:randomly

Arguments go to ``python -m pytest`` (the browser layer as CI runs it when none are given). Beside it, one
process per core this process may use (or ``--busy N`` first) spins in a loop at the same
priority; they are stopped, by their own ids, when pytest ends, and its exit status is this
command's. A browser test that passes on a quiet machine and fails here waits for a time
somewhere instead of for the state it checks, or its deadline is too short.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence

SPIN = "while True: pass"
DEFAULT_ARGS = ("-n", "2", "--dist", "loadfile", "tests/browser")  # as the README's test command runs it
BUSY_ENV = "UNDER_LOAD_BUSY_PIDS"  # the spinners' ids, for the command to see (and a test)


def start_busy(count: int) -> list[subprocess.Popen]:
    """``count`` processes that each keep one core busy until stopped."""
    return [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(count)]


def stop_busy(processes: Sequence[subprocess.Popen]) -> None:
    for process in processes:
        process.kill()
    for process in processes:
        process.wait()


def run_under_load(command: Sequence[str], busy: int) -> int:
    """``command``'s exit status, run while ``busy`` spinning processes keep the cores busy."""
    spinners = start_busy(busy)
    try:
        env = {**os.environ, BUSY_ENV: ",".join(str(process.pid) for process in spinners)}
        return subprocess.run(list(command), env=env).returncode
    finally:
        stop_busy(spinners)


def main(argv: Sequence[str]) -> int:
    args = list(argv)
    busy = len(os.sched_getaffinity(0))
    if args[:1] == ["--busy"]:
        busy, args = int(args[1]), args[2:]
    command = [sys.executable, "-m", "pytest", *(args or DEFAULT_ARGS)]
    print(f"under load: {busy} busy processes beside {' '.join(command)}", flush=True)
    return run_under_load(command, busy)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
