"""The server process's settings: TCP_NODELAY on every websocket connection of the server."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from ui import runtime

ROOT = Path(__file__).resolve().parents[2]


def _nodelay(sock: socket.socket) -> bool:
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0


def _listener_like_streamlit() -> socket.socket:
    """A listening socket made as Streamlit makes its own: ``socket.socket(family)``, proto 0."""
    sock = socket.socket(family=socket.AF_INET)
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sock.setblocking(False)
    return sock


async def _accepted_nodelay(listener: socket.socket) -> bool:
    """Whether asyncio's server gives an accepted connection TCP_NODELAY."""
    accepted: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

    def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set_result(_nodelay(writer.get_extra_info("socket")))
        writer.close()

    server = await asyncio.start_server(on_connect, sock=listener)
    try:
        _, writer = await asyncio.open_connection(*listener.getsockname()[:2])
        result = await asyncio.wait_for(accepted, 10)
        writer.close()
        return result
    finally:
        server.close()
        await server.wait_closed()


def _run(coroutine_function, *args):
    """asyncio.run in a thread of its own: another test's Playwright may hold a running loop here."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(coroutine_function(*args))).result()


def test_disable_nagle_sets_nodelay_on_connections_accepted_afterwards(monkeypatch):
    monkeypatch.setattr(asyncio.base_events, "_set_nodelay", runtime.ASYNCIO_SET_NODELAY)
    # The trap itself: with asyncio's own rule a proto-0 listener's connections keep Nagle.
    assert _run(_accepted_nodelay, _listener_like_streamlit()) is False
    runtime.disable_nagle()
    assert _run(_accepted_nodelay, _listener_like_streamlit()) is True


def test_disable_nagle_sets_nodelay_on_open_connections(monkeypatch):
    monkeypatch.setattr(asyncio.base_events, "_set_nodelay", runtime.ASYNCIO_SET_NODELAY)
    listener = socket.socket(family=socket.AF_INET)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    client = socket.create_connection(listener.getsockname())
    served, _ = listener.accept()
    try:
        assert not _nodelay(served)
        runtime.disable_nagle()
        assert _nodelay(served) and _nodelay(client)
    finally:
        for sock in (client, served, listener):
            sock.close()


class _RecordingSocket:
    """A socket stand-in that records every option set on it."""

    def __init__(self, family: int, kind: int) -> None:
        self.family, self.type = family, kind
        self.options: list[tuple[int, int, int]] = []

    def setsockopt(self, level: int, option: int, value: int) -> None:
        self.options.append((level, option, value))


def test_set_nodelay_sets_the_option_on_tcp_sockets_only():
    unix = _RecordingSocket(socket.AF_UNIX, socket.SOCK_STREAM)
    udp = _RecordingSocket(socket.AF_INET, socket.SOCK_DGRAM)
    tcp = _RecordingSocket(socket.AF_INET6, socket.SOCK_STREAM)
    for sock in (unix, udp, tcp):
        runtime.set_nodelay(sock)  # type: ignore[arg-type]
    assert unix.options == [] and udp.options == [], "no TCP option on a socket that is not TCP"
    assert tcp.options == [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]


def test_set_nodelay_on_a_real_tcp_socket_and_a_unix_one():
    left, right = socket.socketpair()  # Unix sockets: no TCP option to set, and no error
    listener = socket.socket(family=socket.AF_INET)
    try:
        runtime.set_nodelay(left)
        runtime.set_nodelay(listener)
        assert _nodelay(listener)
    finally:
        for sock in (left, right, listener):
            sock.close()


def test_set_nodelay_survives_a_socket_closed_meanwhile():
    sock = socket.socket(family=socket.AF_INET)
    sock.close()
    runtime.set_nodelay(sock)  # OSError (bad file descriptor) is expected and ignored


def test_the_core_setting_is_read_as_documented():
    cores = frozenset({2, 5, 7})
    assert runtime._chosen_core("off", cores) is None
    assert runtime._chosen_core("1", cores) == 5 and runtime._chosen_core("4", cores) == 5, "the n-th allowed core"
    assert runtime._chosen_core("auto", cores) in cores
    assert runtime._chosen_core("many", cores) is None, "a wrong setting never stops the server: not pinned"
    assert runtime._chosen_core("0", frozenset({3})) is None, "one core: nothing to pin"
    assert runtime._chosen_core("auto", cores, usable=3) in cores, "a container with the cores to itself"
    assert runtime._chosen_core("auto", cores, usable=2) is None, "a CPU limit on shared cores: no pinning"
    assert runtime._chosen_core("1", cores, usable=2) == 5, "a core named by the host is still used"


PIN_CHECK = """
import os, threading, json
from ui import runtime
def cores(tid=0):
    return sorted(os.sched_getaffinity(tid))
before = cores()
started = threading.Event(); release = threading.Event()
earlier = threading.Thread(target=lambda: (started.set(), release.wait()))
earlier.start(); started.wait()
core = runtime.pin_interpreter("1")
tasks = {int(t): cores(int(t)) for t in os.listdir("/proc/self/task")}
seen = {}
def later():
    seen["new thread"] = cores()
    with runtime.all_cores():
        seen["inside all_cores"] = cores()
    seen["after all_cores"] = cores()
thread = threading.Thread(target=later); thread.start(); thread.join()
release.set(); earlier.join()
print(json.dumps({"before": before, "core": core, "tasks": list(tasks.values()), **seen}))
"""


def test_pinning_puts_every_thread_on_one_core_and_heavy_work_on_all():
    """ui/runtime.py ``pin_interpreter``: the threads there are and the ones started later run
    on one core; a block in ``all_cores()`` runs on every core, then goes back."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    import pytest

    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        pytest.skip("one core: there is nothing to pin")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", PIN_CHECK], cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["before"] == allowed and seen["core"] == allowed[1]
    assert len(seen["tasks"]) >= 2 and all(cores == [allowed[1]] for cores in seen["tasks"])
    assert seen["new thread"] == [allowed[1]]
    assert seen["inside all_cores"] == allowed
    assert seen["after all_cores"] == [allowed[1]]


def _cgroup(tmp_path, v2=None, quota=None, period=None):
    root = tmp_path / "cgroup"
    root.mkdir(parents=True)
    if v2 is not None:
        (root / "cpu.max").write_text(v2 + "\n")
    if quota is not None:
        (root / "cpu").mkdir()
        (root / "cpu" / "cpu.cfs_quota_us").write_text(f"{quota}\n")
        (root / "cpu" / "cpu.cfs_period_us").write_text(f"{period}\n")
    return root


def test_usable_cpus_is_capped_by_a_containers_cpu_limit_rounded_up(tmp_path, monkeypatch):
    """A pod limited to 2 CPUs (or 1.5, which Kubernetes' downward API also reads as 2) on a
    machine with 64 cores: 2, whichever cgroup version the node runs."""
    monkeypatch.setattr(runtime.os, "sched_getaffinity", lambda pid: set(range(64)))
    assert runtime.usable_cpus(_cgroup(tmp_path / "a", v2="200000 100000")) == 2
    assert runtime.usable_cpus(_cgroup(tmp_path / "b", v2="150000 100000")) == 2
    assert runtime.usable_cpus(_cgroup(tmp_path / "c", v2="50000 100000")) == 1
    assert runtime.usable_cpus(_cgroup(tmp_path / "d", quota=400000, period=100000)) == 4
    assert runtime.usable_cpus(_cgroup(tmp_path / "e", v2="max 100000")) == 64, "no limit"
    assert runtime.usable_cpus(_cgroup(tmp_path / "f", quota=-1, period=100000)) == 64, "v1's no limit"
    assert runtime.usable_cpus(tmp_path / "missing") == 64, "no cgroup files: the cores"


def test_usable_cpus_is_the_allowed_cores_where_they_are_fewer_than_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(runtime.os, "sched_getaffinity", lambda pid: {3, 5})
    assert runtime.usable_cpus(_cgroup(tmp_path, v2="800000 100000")) == 2
    monkeypatch.setattr(runtime.os, "sched_getaffinity", lambda pid: set())
    assert runtime.usable_cpus(tmp_path / "missing") == 1, "never 0"


def test_a_count_setting_that_is_not_a_positive_whole_number_keeps_the_default(caplog):
    assert runtime.count_setting("TRAINING_SLOTS", 3, {}) == 3
    assert runtime.count_setting("TRAINING_SLOTS", 3, {"TRAINING_SLOTS": " 5 "}) == 5
    for bad in ("abc", "0", "-2", "1.5"):
        caplog.clear()
        assert runtime.count_setting("TRAINING_SLOTS", 3, {"TRAINING_SLOTS": bad}) == 3
        assert "TRAINING_SLOTS" in caplog.text and repr(bad) in caplog.text


FREEZE_PROBE = """
import gc, os
from ui.runtime import configure_process
before = gc.get_freeze_count()
configure_process()
print(before, gc.get_freeze_count())
"""


@pytest.mark.parametrize(("setting", "frozen"), [(None, True), ("off", False)])
def test_a_configured_process_freezes_its_heap_unless_told_not_to(setting, frozen):
    """A server process leaves the objects alive once it is configured out of the collector's
    full passes (gc.freeze); ATTENTION_GC_FREEZE=off leaves the collector as it was."""
    env = {key: value for key, value in os.environ.items() if key != "ATTENTION_GC_FREEZE"}
    if setting is not None:
        env["ATTENTION_GC_FREEZE"] = setting
    done = subprocess.run(
        [sys.executable, "-c", FREEZE_PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    before, after = map(int, done.stdout.split())
    assert before == 0
    assert (after > 100_000) is frozen, after
