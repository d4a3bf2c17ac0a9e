"""A throwaway Redis for the tests and benchmarks: Debian's ``redis-server`` on a free
loopback port, without persistence (``--save "" --appendonly no``), in a folder of its own,
stopped by its process id at the end.

    with running_redis_server(folder) as server:   # server.url: redis://127.0.0.1:PORT/0
        ...

The tests' fixture calls ``need_redis_server()`` first: without the binary the test skips
with a reason naming the package, or fails when ``REQUIRE_REDIS=1`` (CI), so a missing
install step cannot pass silently. Only the standard library (and pytest, imported when a
test skips or fails).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REDIS_CANDIDATES = ("/usr/bin/redis-server", "/usr/local/bin/redis-server")
REQUIRE_ENV = "REQUIRE_REDIS"
MISSING_REASON = "no redis-server (Debian: apt-get install redis-server)"
START_TIMEOUT_S = 60.0  # a busy 2-core machine
STOP_TIMEOUT_S = 15.0
START_TRIES = 3  # a free port can be taken by another program before the server binds it


@dataclass
class RedisServer:
    url: str
    port: int
    folder: Path
    process: subprocess.Popen


def redis_server_path() -> str | None:
    explicit = os.environ.get("REDIS_SERVER_PATH")
    if explicit and Path(explicit).exists():
        return explicit
    return shutil.which("redis-server") or next((p for p in REDIS_CANDIDATES if Path(p).exists()), None)


def need_redis_server() -> str:
    """redis-server's path; without one, skip the calling test with the reason, or fail it
    when REQUIRE_REDIS=1."""
    path = redis_server_path()
    if path is None:
        import pytest

        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{REQUIRE_ENV}=1 but {MISSING_REASON}")
        pytest.skip(MISSING_REASON)
    return path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _pong(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def start_redis_server(folder: Path | str, binary: str | None = None, port: int | None = None) -> RedisServer:
    """A running redis-server answering PING, its log and working folder in ``folder``
    (``port``: that port, as a restarted server has, rather than a free one)."""
    binary = binary or redis_server_path()
    if binary is None:
        raise RuntimeError(MISSING_REASON)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "redis.log"
    chosen = port
    for _ in range(START_TRIES):
        port = chosen or _free_port()
        command = [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
            "--logfile",
            str(log),
            "--daemonize",
            "no",
        ]
        process = subprocess.Popen(
            command,
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline and process.poll() is None:
            if _pong(port):
                return RedisServer(f"redis://127.0.0.1:{port}/0", port, folder, process)
            time.sleep(0.05)
        _stop(process)
    text = log.read_text(errors="replace")[-2000:] if log.exists() else "(no log)"
    raise RuntimeError(f"redis-server did not answer on 127.0.0.1 in {START_TRIES} tries:\n{text}")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=STOP_TIMEOUT_S)


def stop_redis_server(server: RedisServer) -> None:
    _stop(server.process)


@contextmanager
def running_redis_server(folder: Path | str, binary: str | None = None) -> Iterator[RedisServer]:
    server = start_redis_server(folder, binary)
    try:
        yield server
    finally:
        stop_redis_server(server)
