"""ui/warm.py: a server process warms itself (the pages' modules, the lesson's first
traces and figure) before Streamlit starts, so its health check cannot say it is ready
while it is still cold; deploy/cluster.py starts its processes that way."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

from deploy.cluster import app_command
from ui.warm import streamlit_argv

ROOT = Path(__file__).resolve().parents[2]
START_DEADLINE_S = 180  # a busy 2-core machine: torch's import alone takes seconds
POLL_S = 0.05
FINISHED = re.compile(r"warm: ready after [\d.]+ s, finished at ([\d.]+) \((.*)\)")


def test_the_launcher_passes_streamlits_options_through_and_runs_the_app_by_default():
    assert streamlit_argv([]) == ["streamlit", "run", "app.py"]
    assert streamlit_argv(["--server.port", "8502"]) == ["streamlit", "run", "app.py", "--server.port", "8502"]
    assert streamlit_argv(["other.py", "--server.port", "1"]) == ["streamlit", "run", "other.py", "--server.port", "1"]


def test_every_process_of_a_cluster_starts_through_the_launcher():
    command = app_command(8599)
    assert command[1:4] == ["-m", "ui.warm", "app.py"], command
    assert command[command.index("--server.port") + 1] == "8599"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


def test_health_answers_only_once_the_process_is_warm(tmp_path):
    port = _free_port()
    log = tmp_path / "server.log"
    url = f"http://127.0.0.1:{port}/_stcore/health"
    env = {**os.environ, "ATTENTION_CPU": "off"}
    with log.open("w") as handle:
        # the cluster's own command line for a process (deploy/cluster.py)
        process = subprocess.Popen(app_command(port), cwd=ROOT, stdout=handle, stderr=subprocess.STDOUT, env=env)
    refused_at, ready_at = [], None
    try:
        deadline = time.monotonic() + START_DEADLINE_S
        while time.monotonic() < deadline and process.poll() is None:
            asked = time.time()
            if _healthy(url):
                ready_at = asked
                break
            refused_at.append(asked)
            time.sleep(POLL_S)
        assert ready_at is not None, f"no health answer within {START_DEADLINE_S} s:\n{log.read_text()[-2000:]}"
        found = FINISHED.search(log.read_text())
        assert found, log.read_text()[-2000:]
        warm_done = float(found[1])
        assert refused_at and refused_at[0] < warm_done, "the health check was asked while the process warmed"
        assert ready_at > warm_done, "the first health answer came after the warm-up"
        assert "lesson trace h=1 d=4" in found[2] and "lesson step 1 figure (zh)" in found[2]
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_image_and_the_installed_command_start_through_the_launcher(monkeypatch):
    cmd = re.search(r"^CMD (\[.*\])$", (ROOT / "Dockerfile").read_text(encoding="utf-8"), re.M)
    assert cmd and json.loads(cmd[1]) == ["python", "-m", "ui.warm", "app.py"]
    from seeing_attention import cli

    started = []
    monkeypatch.setattr(cli.os, "chdir", lambda path: None)
    monkeypatch.setattr(cli.os, "execv", lambda program, argv: started.append(argv))
    cli.main(["app", "--server.port", "8502"])
    (argv,) = started
    assert argv[1:3] == ["-m", "ui.warm"] and argv[3].endswith("app.py") and argv[4:] == ["--server.port", "8502"]
