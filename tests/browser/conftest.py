"""Real-browser fixtures: Debian's Chromium driven by Playwright against `streamlit run`.

Browser tests skip with a reason when no Chromium is found, unless REQUIRE_BROWSER=1,
where they fail instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from deploy.cluster import Cluster, nginx_binary, start_cluster, stop_cluster
from harness.browser import VIEWPORT, launch_chromium, need_browser, new_context
from harness.server import Server, start_server, stop_server


@pytest.fixture(scope="session")
def chromium_executable() -> str:
    return need_browser()


@pytest.fixture(scope="session")
def playwright_browser(chromium_executable):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright, chromium_executable)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def shared_server(chromium_executable) -> Iterator[Server]:
    """One server for the tests that don't need a fresh one."""
    # One training slot: the tests then prove that a stopped or abandoned run frees it.
    server = start_server("shared", env={"TRAINING_SLOTS": "1"})
    yield server
    stop_server(server)


@pytest.fixture(scope="module")
def cluster(chromium_executable, tmp_path_factory, request) -> Iterator[Cluster]:
    """nginx before two app processes (deploy/cluster.py), one per test module; every process
    is gone once it is stopped."""
    if not nginx_binary():
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail("REQUIRE_BROWSER=1 but no nginx (apt-get install nginx)")
        pytest.skip("no nginx (apt-get install nginx)")
    running = start_cluster(processes=2, run_dir=tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1]))
    yield running
    stop_cluster(running)
    for pid in [running.nginx_pid, *running.app_pids]:
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()


@pytest.fixture
def fresh_server(chromium_executable) -> Iterator[Server]:
    """A server nobody has asked anything yet: the first request is the test's."""
    server = start_server("fresh")
    yield server
    stop_server(server)


@pytest.fixture
def browser_page(playwright_browser):
    context = new_context(playwright_browser, viewport=VIEWPORT)
    page = context.new_page()
    page.console_errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    yield page
    context.close()
