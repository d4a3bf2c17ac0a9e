"""Start and stop a real `streamlit run` server, and find Debian's Chromium.

Used by the browser tests and by the scripts that take screenshots and measure the page.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_START_TIMEOUT_S = 90
VIEWPORT = {"width": 1400, "height": 1000}


def chromium_path() -> str | None:
    explicit = os.environ.get("CHROMIUM_PATH")
    if explicit and Path(explicit).exists():
        return explicit
    for candidate in CHROMIUM_CANDIDATES:
        if Path(candidate).exists():
            return candidate
    return shutil.which("chromium")


def need_browser() -> str:
    """Chromium's path; without one, skip the calling test with the reason, or fail it
    when REQUIRE_BROWSER=1 (CI), so a missing install step can't pass silently."""
    import pytest

    path = chromium_path()
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        path = None
    if path is None:
        reason = "no Chromium (apt-get install chromium) or no playwright package"
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    return path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    url: str
    process: subprocess.Popen
    log: Path


def start_server(log_name: str = "server", env: dict[str, str] | None = None) -> Server:
    port = _free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log = ARTIFACTS / f"{log_name}-{port}.log"
    handle = log.open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
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
        cwd=ROOT,
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
