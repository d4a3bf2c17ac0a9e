"""A real server's interpreter on one core (ui/runtime.py ``pin_interpreter``), and each
process behind nginx on its own (deploy/cluster.py): the setting the classroom benchmark's
numbers were measured with."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from deploy.cluster import start_cluster, stop_cluster
from harness.server import start_server, stop_server
from harness.streamlit_client import StreamlitClient

ALLOWED = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
pytestmark = pytest.mark.skipif(len(ALLOWED) < 2, reason="one core: there is nothing to pin")


def thread_cores(pid: int) -> list[str]:
    """Each live thread's allowed cores, as Linux lists them ("1", "0-1"). A thread that
    ends between the listing and the read (a finished worker) is not counted."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            status = (task / "status").read_text()
        except (FileNotFoundError, ProcessLookupError):
            continue
        for line in status.splitlines():
            if line.startswith("Cpus_allowed_list:"):
                found.append(line.split(":", 1)[1].strip())
    return found


def open_playground(url: str) -> None:
    async def run() -> None:
        client = StreamlitClient(url, "playground", "seed=3")
        await client.connect()
        try:
            assert (await client.open_page()).ok
        finally:
            await client.close()

    with ThreadPoolExecutor(1) as pool:  # Playwright's session loop holds this thread's event loop
        pool.submit(asyncio.run, run()).result()


def test_a_server_runs_its_threads_on_the_core_it_is_given():
    server = start_server("pinned", env={"ATTENTION_CPU": "1"})
    try:
        open_playground(server.url)  # the first page sets the process up
        cores = thread_cores(server.process.pid)
        assert len(cores) > 3 and set(cores) == {str(ALLOWED[1])}, cores
    finally:
        stop_server(server)


def test_each_process_behind_nginx_has_a_core_of_its_own(tmp_path):
    cluster = start_cluster(processes=2, run_dir=tmp_path / "cluster", env={"ATTENTION_CPU": "auto"})
    try:
        for url in cluster.app_urls:
            open_playground(url)
        cores = [set(thread_cores(pid)) for pid in cluster.app_pids]
        assert cores == [{str(ALLOWED[0])}, {str(ALLOWED[1])}], cores
    finally:
        stop_cluster(cluster)
