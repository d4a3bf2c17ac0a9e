"""Start and stop a real `streamlit run` server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"  # servers' logs and the tests' screenshots
SERVER_START_TIMEOUT_S = 90


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    url: str
    process: subprocess.Popen
    log: Path


def start_server(
    log_name: str = "server",
    env: dict[str, str] | None = None,
    port: int | None = None,
    script: str = "app.py",
    cwd: Path = ROOT,
) -> Server:
    """A `streamlit run <script>` (this app's app.py unless told) in ``cwd`` on 127.0.0.1 (a
    free port unless ``port`` is given), once healthy."""
    port = port or _free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log = ARTIFACTS / f"{log_name}-{port}.log"
    handle = log.open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            script,
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
            "--server.fileWatcherType",
            "none",
        ],
        cwd=cwd,
        stdout=handle,
        stderr=subprocess.STDOUT,
        env={**os.environ, **(env or {})},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited early:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    return Server(url, process, log)
        except OSError:
            time.sleep(0.3)
    stop_server(Server(url, process, log))
    raise RuntimeError(f"streamlit did not answer within {SERVER_START_TIMEOUT_S} s")


def stop_server(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()
