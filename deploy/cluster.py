"""Several app processes behind nginx, on this machine's loopback ports.

    python deploy/cluster.py start [--processes N] [--port 8080] [--first-app-port 8501] [--no-gzip] [--run-dir DIR]
                                   [--room-store sqlite:///PATH | redis://HOST:6379/0]
    python deploy/cluster.py status [--run-dir DIR]
    python deploy/cluster.py stop [--run-dir DIR]

`start` launches N app processes on 127.0.0.1 (ports first-app-port, +1, ...) with one
shared cookie secret, each `python -m ui.warm app.py`: it warms itself (ui/warm.py: the
pages' modules, the lesson's first figures) and then runs `streamlit run app.py` in the same
process, so its `/_stcore/health` answers only once it is warm. `start` waits until each
answers `/_stcore/health`, then
runs Debian's `nginx` (in the foreground of its own session, not as a system service) with
`deploy/seeing-attention.nginx.conf` on 127.0.0.1:PORT, its upstream lines rewritten for
the N processes, and waits for nginx's `/healthz`. Every process sees the same classroom
rooms (classroom/): `ROOM_STORE` is passed to each, by default a SQLite file in the run
folder (`--room-store` or the environment's `ROOM_STORE` choose another, such as Redis). It writes the process ids, the
configuration, the logs and the cookie secret (mode 600, reused by the next start) into the
run folder (default `deploy/run/`, not committed). `stop` ends exactly those processes, by
the ids it wrote, after checking that each id still belongs to the same program.

Only the standard library: the tests and benchmarks import `start_cluster` and
`stop_cluster` from here.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SITE_CONFIG = ROOT / "deploy" / "seeing-attention.nginx.conf"
DEFAULT_RUN_DIR = ROOT / "deploy" / "run"
PIDS_FILE = "cluster.json"
ROOM_STORE_ENV = "ROOM_STORE"  # classroom/store.py
ROOMS_FILE = "rooms.sqlite3"
CPU_ENV = "ATTENTION_CPU"  # ui/runtime.py: the core an app process's interpreter runs on
APP_PROGRAM = "ui.warm"  # an app process's module (its command line names it; `stop` checks it)
COLD_PROGRAM = "streamlit"  # a process started without the warm-up
START_TIMEOUT_S = 90
STOP_TIMEOUT_S = 15
UPSTREAM_BLOCK = re.compile(r"(# BEGIN app processes[^\n]*\n)(.*?)(\s*# END app processes)", re.S)
LISTEN_LINE = re.compile(r"listen \d+;")
MAIN_CONFIG = """\
# Written by deploy/cluster.py; nginx runs in the foreground, stopped by its process id.
daemon off;
worker_processes 1;
error_log {run}/nginx-error.log warn;
pid {run}/nginx.pid;
events {{ worker_connections 4096; }}
http {{
    # Which process served each request, and for which route cookie (the tests read it).
    log_format routed '$remote_addr [$time_local] "$request" $status $bytes_sent '
                      'route=$sa_route upstream=$upstream_addr';
    access_log {run}/nginx-access.log routed;
    client_body_temp_path {run}/tmp/body;
    proxy_temp_path {run}/tmp/proxy;
    fastcgi_temp_path {run}/tmp/fastcgi;
    uwsgi_temp_path {run}/tmp/uwsgi;
    scgi_temp_path {run}/tmp/scgi;
    include {run}/site.conf;
}}
"""


@dataclass
class Cluster:
    url: str  # nginx, the address students open
    run_dir: str
    nginx_pid: int
    app_pids: list[int]
    app_ports: list[int]
    gzip: bool = True
    app_urls: list[str] = field(default_factory=list)
    app_program: str = APP_PROGRAM  # what each app process's command line names (`stop` checks it)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)


def site_config(app_ports: list[int], port: int, gzip: bool = True) -> str:
    """deploy/seeing-attention.nginx.conf for these ports (upstream lines, listen, gzip)."""
    text = SITE_CONFIG.read_text(encoding="utf-8")
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=2 fail_timeout=10s;\n" for p in app_ports)
    text, count = UPSTREAM_BLOCK.subn(lambda m: m.group(1) + servers.rstrip("\n") + m.group(3), text)
    if count != 1:
        raise ValueError(f"{SITE_CONFIG.name} has no single BEGIN/END app processes block")
    text = LISTEN_LINE.sub(f"listen 127.0.0.1:{port};", text, count=1)
    if not gzip:
        text = text.replace("gzip on;", "gzip off;", 1)
    return text


def room_store_for(run_dir: Path, chosen: str | None = None, env: dict[str, str] | None = None) -> str:
    """The rooms' store every process is given: the one chosen, else the one the processes'
    or this environment says, else ``rooms.sqlite3`` in the run folder (one machine's
    processes share a SQLite file)."""
    return (
        chosen
        or (env or {}).get(ROOM_STORE_ENV)
        or os.environ.get(ROOM_STORE_ENV)
        or f"sqlite:///{run_dir / ROOMS_FILE}"
    )


def cookie_secret(run_dir: Path) -> str:
    """The shared secret: the environment's, else the one kept in the run folder, else new."""
    if os.environ.get("STREAMLIT_SERVER_COOKIE_SECRET"):
        return os.environ["STREAMLIT_SERVER_COOKIE_SECRET"]
    path = run_dir / "cookie_secret"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def _wait_healthy(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{url}: the process exited early, see {log}:\n{log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer within {START_TIMEOUT_S} s (see {log})")


def app_command(port: int, warm: bool = True) -> list[str]:
    """One app process: the app warmed first (ui/warm.py: its modules and the lesson's first
    figures), then `streamlit run app.py` in the same process, on 127.0.0.1:``port``; its
    health check answers only once it is warm. ``warm=False``: a plain `streamlit run`
    (benchmarks/room.py's cold start measures both)."""
    where = ["--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true"]
    return [sys.executable, "-m", *((APP_PROGRAM, "app.py") if warm else (COLD_PROGRAM, "run", "app.py")), *where]


def _start_app(
    port: int, run_dir: Path, secret: str, env: dict[str, str] | None, index: int = 0, warm: bool = True
) -> subprocess.Popen:
    """App process ``index``: its interpreter on core ``index`` (ui/runtime.py
    ``pin_interpreter``), unless the environment already says where (or "off")."""
    log = run_dir / f"app-{port}.log"
    command = app_command(port, warm)
    environment = {**os.environ, **(env or {}), "STREAMLIT_SERVER_COOKIE_SECRET": secret}
    if environment.get(CPU_ENV, "auto") == "auto":
        environment[CPU_ENV] = str(index)
    with log.open("w") as handle:
        return subprocess.Popen(
            command, cwd=ROOT, stdout=handle, stderr=subprocess.STDOUT, env=environment, start_new_session=True
        )


def start_cluster(
    processes: int = 2,
    port: int = 0,
    first_app_port: int = 0,
    gzip: bool = True,
    run_dir: Path | str = DEFAULT_RUN_DIR,
    env: dict[str, str] | None = None,
    room_store: str | None = None,
    warm: bool = True,
) -> Cluster:
    """N app processes and nginx in front of them, all healthy. Port 0: a free port.
    ``room_store``: where every process keeps the classroom rooms (``ROOM_STORE``); by default
    ``env``'s or this environment's, else a SQLite file in the run folder. ``warm=False``:
    plain `streamlit run` processes, healthy before they are warm (only to measure that)."""
    binary = nginx_binary()
    if binary is None:
        raise RuntimeError("nginx not found (Debian: apt-get install nginx)")
    run_dir = Path(run_dir).resolve()
    (run_dir / "tmp").mkdir(parents=True, exist_ok=True)
    run_dir.chmod(0o755)  # nginx's workers (not root) read nothing here; the master writes
    if (run_dir / PIDS_FILE).exists():
        raise RuntimeError(f"{run_dir / PIDS_FILE} exists: stop that cluster first (deploy/cluster.py stop)")
    secret = cookie_secret(run_dir)
    env = {**(env or {}), ROOM_STORE_ENV: room_store_for(run_dir, room_store, env)}
    ports = [first_app_port + i if first_app_port else free_port() for i in range(processes)]
    port = port or free_port()
    apps = [_start_app(p, run_dir, secret, env, index, warm) for index, p in enumerate(ports)]
    cluster = Cluster(
        f"http://127.0.0.1:{port}",
        str(run_dir),
        0,
        [a.pid for a in apps],
        ports,
        gzip,
        [f"http://127.0.0.1:{p}" for p in ports],
        APP_PROGRAM if warm else COLD_PROGRAM,
    )
    _write_pids(cluster)  # written before waiting, so `stop` finds them even if a start fails
    try:
        for app, p in zip(apps, ports, strict=True):
            _wait_healthy(f"http://127.0.0.1:{p}/_stcore/health", app, run_dir / f"app-{p}.log")
        (run_dir / "site.conf").write_text(site_config(ports, port, gzip))
        (run_dir / "nginx.conf").write_text(MAIN_CONFIG.format(run=run_dir))
        log = run_dir / "nginx-stderr.log"
        with log.open("w") as handle:
            nginx = subprocess.Popen(
                [binary, "-p", str(run_dir), "-c", str(run_dir / "nginx.conf")],
                stdout=handle,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        cluster.nginx_pid = nginx.pid
        _write_pids(cluster)
        _wait_healthy(f"{cluster.url}/healthz", nginx, log)
    except BaseException:
        stop_cluster(cluster)
        raise
    return cluster


def _write_pids(cluster: Cluster) -> None:
    (Path(cluster.run_dir) / PIDS_FILE).write_text(json.dumps(asdict(cluster), indent=2))


def read_cluster(run_dir: Path | str = DEFAULT_RUN_DIR) -> Cluster | None:
    path = Path(run_dir).resolve() / PIDS_FILE
    return Cluster(**json.loads(path.read_text())) if path.exists() else None


def _is(pid: int, program: str) -> bool:
    """Whether process ``pid`` is still running ``program`` (a reused id is left alone)."""
    try:
        return program in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return False


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def _end(pid: int, program: str) -> None:
    if not pid or not _is(pid, program):
        return
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT_S
    # Until it is gone (or a zombie), not only until its command line reads empty: an
    # exiting process loses its command line before it stops running.
    while time.monotonic() < deadline and _alive(pid):
        _reap(pid)
        time.sleep(0.1)
    if _is(pid, program):
        os.kill(pid, signal.SIGKILL)
    _reap(pid)


def _reap(pid: int) -> None:
    try:  # our own child (started in this process): collect it so it leaves no zombie
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def stop_cluster(cluster: Cluster) -> None:
    """End nginx, then the app processes, by the ids the start recorded."""
    _end(cluster.nginx_pid, "nginx")
    for pid in cluster.app_pids:
        _end(pid, cluster.app_program)
    (Path(cluster.run_dir) / PIDS_FILE).unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["start", "stop", "status"])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--first-app-port", type=int, default=8501)
    parser.add_argument("--no-gzip", action="store_true")
    parser.add_argument("--run-dir", default=str(DEFAULT_RUN_DIR))
    parser.add_argument(
        "--room-store",
        default=None,
        help="where the processes keep classroom rooms (default: rooms.sqlite3 in the run folder)",
    )
    args = parser.parse_args(argv)
    if args.action == "start":
        cluster = start_cluster(
            args.processes, args.port, args.first_app_port, not args.no_gzip, args.run_dir, room_store=args.room_store
        )
        sys.stdout.write(f"{cluster.url} -> {', '.join(cluster.app_urls)} (ids in {args.run_dir}/{PIDS_FILE})\n")
        return 0
    cluster = read_cluster(args.run_dir)
    if cluster is None:
        sys.stdout.write("no cluster started from this run folder\n")
        return 0 if args.action == "stop" else 1
    if args.action == "status":
        alive = {
            pid: _is(pid, "nginx" if pid == cluster.nginx_pid else cluster.app_program)
            for pid in [cluster.nginx_pid, *cluster.app_pids]
        }
        sys.stdout.write(json.dumps({**asdict(cluster), "alive": alive}, indent=2) + "\n")
        return 0 if all(alive.values()) else 1
    stop_cluster(cluster)
    sys.stdout.write(f"stopped nginx {cluster.nginx_pid} and apps {cluster.app_pids}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
