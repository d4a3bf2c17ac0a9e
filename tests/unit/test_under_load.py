"""harness.under_load: the command runs while other processes spin on the cores, its exit
status is the command's, and the spinners are gone once it ends."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from harness import under_load
from tests.unit.test_ci_durations import readme_test_command

# Run as the command: each spinner is alive and burning CPU time (utime + stime in
# /proc/<pid>/stat, in clock ticks) while it runs; exits with the status it is given.
CHECK = """
import os, sys, time
pids = [int(p) for p in os.environ["UNDER_LOAD_BUSY_PIDS"].split(",")]
assert len(pids) == int(sys.argv[1]), pids
ticks = os.sysconf("SC_CLK_TCK")
deadline = time.monotonic() + 60
def cpu(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks
while min(cpu(pid) for pid in pids) < 0.2:
    assert time.monotonic() < deadline, "a spinner used no CPU"
    time.sleep(0.05)
print("spinners", ",".join(map(str, pids)))
sys.exit(int(sys.argv[2]))
"""


def _gone(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    return not stat.exists() or stat.read_text().rsplit(")", 1)[1].split()[0] == "Z"


def test_the_command_runs_beside_busy_processes_that_end_with_it(capfd):
    status = under_load.run_under_load([sys.executable, "-c", CHECK, "2", "3"], busy=2)
    assert status == 3, "the command's own exit status"
    line = next(line for line in capfd.readouterr().out.splitlines() if line.startswith("spinners "))
    pids = [int(pid) for pid in line.split()[1].split(",")]
    assert len(pids) == 2 and os.getpid() not in pids
    assert all(_gone(pid) for pid in pids), "every spinner stopped"


def test_without_arguments_it_runs_the_browser_layer_as_ci_does_beside_one_spinner_per_core(monkeypatch):
    ran = {}
    monkeypatch.setattr(under_load, "run_under_load", lambda command, busy: ran.update(command=command, busy=busy) or 0)
    assert under_load.main([]) == 0
    assert ran["command"][1:3] == ["-m", "pytest"]
    browser_run = next(run for run in readme_test_command().split("&&") if "tests/browser" in run)
    assert ran["command"][3:] == shlex.split(browser_run)[3:], "the browser layer as CI runs it"
    assert ran["busy"] == len(os.sched_getaffinity(0))
    under_load.main(["--busy", "3", "tests/browser/test_keyboard.py"])
    assert ran["command"][-1] == "tests/browser/test_keyboard.py" and ran["busy"] == 3
