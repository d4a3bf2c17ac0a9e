"""Faults and isolation in a real browser: a server restart under open pages, and two
students (two browser contexts) who never see each other's text or model."""

from __future__ import annotations

import time
from urllib.parse import urlencode

from gpt_core import PlaygroundConfig, trace_attention
from harness.browser import VIEWPORT, exceptions_shown, new_context, open_expanders, wait_for_app, wait_for_rerun
from harness.charts import assert_displays, read_traces, wait_for_charts, wait_for_trace
from harness.server import start_server, stop_server
from string_table import t

WEIGHTS = "softmax weights · head 1"
CONNECTED = "[data-testid='stApp'][data-test-connection-state='CONNECTED']"
DISCONNECTED = "[data-testid='stApp']:not([data-test-connection-state='CONNECTED'])"
RECONNECT_TIMEOUT_MS = 60_000
TRAINING_TIMEOUT_MS = 90_000


WEIGHTS_DEADLINE_S = 60.0  # a rerun may still be drawing, on a busy machine


def _weights_shown(page, text: str, **config) -> bool:
    """Whether the detail view shows the weights of (text, config), head 1, as the browser
    prints them (``assert_displays``: the chart is sent at the precision it prints).

    Exactly those: the server and this process compute with the same torch thread count
    (gpt_core.reproduce.COMPUTE_THREADS, set for every test by tests/conftest.py), which is
    the app's promise that a link gives identical numbers."""
    shown = read_traces(page).get(WEIGHTS)
    if shown is None or len(shown["x"]) != len(text):
        return False
    expected = trace_attention(text, PlaygroundConfig(**config)).trace.weights[0, 0].numpy()
    try:
        assert_displays(shown, expected)
    except AssertionError:
        return False
    return True


def _wait_for_weights(page, text: str, **config) -> None:
    """Until the charts show (text, config), within a deadline."""
    deadline = time.monotonic() + WEIGHTS_DEADLINE_S
    while time.monotonic() < deadline:
        if _weights_shown(page, text, **config):
            return
        page.wait_for_timeout(250)
    raise AssertionError(f"the page does not show the weights of {text!r} {config} after {WEIGHTS_DEADLINE_S:.0f} s")


def _type_text(page, text: str) -> None:
    box = page.get_by_role("textbox", name="Sequence")
    box.fill(text)
    box.press("Control+Enter")
    wait_for_rerun(page)


def _set_seed(page, seed: int) -> None:
    open_expanders(page)  # the seed waits in "More settings"
    field = page.get_by_role("spinbutton", name="seed").first
    field.fill(str(seed))
    field.press("Enter")
    wait_for_rerun(page)


def test_pages_reconnect_after_a_server_restart_and_show_the_same_view(chromium_executable, playwright_browser):
    server = start_server("restart")
    port = int(server.url.rsplit(":", 1)[1])
    linked = {"text": "to be or not", "heads": "3", "head_dim": "4", "seed": "11"}
    contexts = [new_context(playwright_browser, viewport=VIEWPORT) for _ in range(2)]
    try:
        from_link, typed = (context.new_page() for context in contexts)
        from_link.goto(f"{server.url}/playground?{urlencode(linked)}")
        wait_for_charts(from_link)
        _wait_for_weights(from_link, "to be or not", heads=3, head_dim=4, seed=11)
        typed.goto(f"{server.url}/playground")
        wait_for_charts(typed)
        _type_text(typed, "hello there")
        _set_seed(typed, 5)
        _wait_for_weights(typed, "hello there", seed=5)

        stop_server(server)
        for page in (from_link, typed):
            page.wait_for_selector(DISCONNECTED, timeout=RECONNECT_TIMEOUT_MS)
        server = start_server("restart-again", port=port)
        for page in (from_link, typed):
            page.wait_for_selector(CONNECTED, timeout=RECONNECT_TIMEOUT_MS)
            wait_for_app(page)
        _wait_for_weights(from_link, "to be or not", heads=3, head_dim=4, seed=11)
        _wait_for_weights(typed, "hello there", seed=5)
        # The new server answers these pages: a change computes there and is drawn.
        _set_seed(typed, 6)
        _wait_for_weights(typed, "hello there", seed=6)
        _set_seed(from_link, 12)
        _wait_for_weights(from_link, "to be or not", heads=3, head_dim=4, seed=12)
        for page in (from_link, typed):
            assert exceptions_shown(page) == 0
    finally:
        for context in contexts:
            context.close()
        stop_server(server)


def _train(page, steps: int) -> None:
    """Go to the Train page by its link (the same session) and start a training."""
    page.get_by_role("link", name="Train").first.click()
    wait_for_app(page)
    page.get_by_text("copying", exact=True).click()
    wait_for_rerun(page)
    for name, value in (("context", 16), ("steps", steps)):
        field = page.get_by_role("spinbutton", name=name).first
        field.fill(str(value))
        field.press("Enter")
        wait_for_rerun(page)
    page.get_by_role("button", name="Train").click()


def test_two_students_never_see_each_others_text_or_model(shared_server, playwright_browser):
    first, second = (new_context(playwright_browser, viewport=VIEWPORT) for _ in range(2))
    try:
        a, b = first.new_page(), second.new_page()
        for page, text in ((a, "abc abc"), (b, "wxyz")):
            page.goto(f"{shared_server.url}/playground")
            wait_for_charts(page)
            _type_text(page, text)
        _set_seed(b, 3)  # b keeps working while a looks
        _set_seed(a, 4)
        _wait_for_weights(a, "abc abc", seed=4)
        _wait_for_weights(b, "wxyz", seed=3)

        # Two trainings of different lengths; the server has one slot, so they also queue.
        _train(a, steps=20)
        _train(b, steps=30)
        a.get_by_text("Trained 20 steps").wait_for(timeout=TRAINING_TIMEOUT_MS)
        b.get_by_text("Trained 30 steps").wait_for(timeout=TRAINING_TIMEOUT_MS)
        for page, steps, other in ((a, 20, 30), (b, 30, 20)):
            page.get_by_role("link", name="Playground").first.click()
            wait_for_charts(page)
            page.get_by_role("link", name="Train").first.click()
            wait_for_app(page)
            page.get_by_text(f"Trained {steps} steps:").wait_for()
            assert page.get_by_text(f"Trained {other} steps:").count() == 0
            assert exceptions_shown(page) == 0
        # Each playground still has its own text after the other's run.
        for page, text, seed in ((a, "abc abc", 4), (b, "wxyz", 3)):
            page.get_by_role("link", name="Playground").first.click()
            wait_for_charts(page)
            _wait_for_weights(page, text, seed=seed)
    finally:
        first.close()
        second.close()


def _choose_head(page, head: int) -> None:
    """The explorer's head box (a select box): open it and pick ``head``."""
    page.locator(".st-key-ex_head").click()
    page.get_by_role("option", name=f"head {head}", exact=True).click()


# Counts the page's losses of its server (a reconnect through nginx can be too quick to catch
# the disconnected state with a selector).
SEE_DISCONNECTS_JS = """
window.__disconnects = 0;
new MutationObserver(() => {
  const app = document.querySelector("[data-testid='stApp']");
  const state = app && app.getAttribute("data-test-connection-state");
  if (window.__connection === "CONNECTED" && state !== "CONNECTED") window.__disconnects += 1;
  window.__connection = state;
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-test-connection-state"]});
"""


def _process_of(cluster, route: str) -> int:
    """The app process (its index) that nginx sends the route cookie ``route`` to, from the
    access log (its lines for the page's files are written at once)."""
    import re
    from pathlib import Path

    line = re.compile(r"route=(?P<route>\S+) upstream=127\.0\.0\.1:(?P<port>\d+)")
    for match in map(line.search, Path(cluster.run_dir, "nginx-access.log").read_text().splitlines()):
        if match and match["route"] == route:
            return cluster.app_ports.index(int(match["port"]))
    raise AssertionError(f"no request of route {route} in nginx's log")


def test_a_process_killed_under_the_train_page_and_the_explorer(chromium_executable, playwright_browser, tmp_path):
    """Behind nginx with two processes, the process of a student's session is killed
    (kill -9). The other process takes the session's next run: the Train page keeps its
    settings and the change, and says that the trained model is gone and how to upload a
    downloaded one (the note goes once there is a model again); the explorer takes the
    student's first change."""
    import os
    import signal

    from deploy.cluster import nginx_binary, start_cluster, stop_cluster

    assert nginx_binary() is not None, "no nginx (apt-get install nginx)"
    cluster = start_cluster(processes=2, run_dir=tmp_path)
    context = new_context(playwright_browser, viewport=VIEWPORT)
    context.add_init_script(SEE_DISCONNECTS_JS)
    restarted = t("tr.restarted", "en")
    try:
        train, explorer = context.new_page(), context.new_page()  # one browser: one route cookie
        train.goto(f"{cluster.url}/train?corpus=copy&context=16&steps=20")
        wait_for_app(train)
        train.get_by_role("button", name=t("tr.start", "en")).click()
        train.get_by_text("Trained 20 steps").wait_for(timeout=TRAINING_TIMEOUT_MS)
        explorer.goto(f"{cluster.url}/explorer?model=h4&block=1&head=2")
        wait_for_app(explorer)
        wait_for_trace(explorer, "softmax weights · head 2")

        route = next(cookie["value"] for cookie in context.cookies() if cookie["name"] == "sa_route")
        os.kill(cluster.app_pids[_process_of(cluster, route)], signal.SIGKILL)
        for page in (train, explorer):  # nginx closes the websocket; the page reconnects, to the other process
            page.wait_for_function("() => window.__disconnects > 0", timeout=RECONNECT_TIMEOUT_MS)
            page.wait_for_selector(CONNECTED, timeout=RECONNECT_TIMEOUT_MS)

        steps = train.get_by_role("spinbutton", name="steps").first
        steps.fill("30")  # the student's next change: the other process's first run of the page
        steps.press("Enter")
        train.get_by_text(restarted).wait_for(timeout=RECONNECT_TIMEOUT_MS)
        wait_for_app(train)
        assert train.get_by_text("Trained 20 steps").count() == 0, "the model is gone, and the page says so"
        assert train.get_by_role("spinbutton", name="steps").first.input_value() == "30", "the change kept"
        assert train.get_by_role("spinbutton", name="context").first.input_value() == "16", "the settings kept"
        train.get_by_role("button", name=t("tr.start", "en")).click()
        train.get_by_text("Trained 30 steps").wait_for(timeout=TRAINING_TIMEOUT_MS)
        assert train.get_by_text(restarted).count() == 0, "a model again: the note has said its piece"

        _choose_head(explorer, 3)
        explorer.wait_for_function(
            "() => new URLSearchParams(location.search).get('head') === '3'", timeout=RECONNECT_TIMEOUT_MS
        )
        wait_for_trace(explorer, "softmax weights · head 3")
        for page in (train, explorer):
            assert exceptions_shown(page) == 0
    finally:
        context.close()
        stop_cluster(cluster)
