"""The app behind nginx with two processes (deploy/): what a student does, through the proxy.

One browser context, one route cookie: a deep link, its chart and numbers, a change of the
text, a page change, an upload that trains; every request of the session (the websocket
and the upload included) reached one and the same process, and the static files came
compressed.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from urllib.parse import urlencode

from deploy.cluster import Cluster
from gpt_core import PlaygroundConfig, trace_attention
from harness.browser import VIEWPORT, exceptions_shown, new_context, wait_for_app, wait_for_rerun
from harness.charts import assert_displays, read_traces, wait_for_charts
from harness.server import ARTIFACTS
from string_table import t

LINK = {"text": "to be or not", "heads": "3", "head_dim": "4", "seed": "11"}
TRAINING_TIMEOUT_MS = 90_000
LOG_WAIT_S = 60  # nginx writes a websocket's line at its close: sized for a busy 2-core machine
GZIP_MIN_LENGTH = 1024  # deploy/seeing-attention.nginx.conf: gzip_min_length
LOG_LINE = re.compile(
    r'"(?P<method>\S+) (?P<path>\S+) [^"]*" (?P<status>\d+) \d+ route=(?P<route>\S+) upstream=(?P<up>\S+)'
)


def _weights_shown(page, head: int) -> dict:
    name = f"softmax weights · head {head}"
    page.wait_for_function(
        "name => Array.from(document.querySelectorAll('.js-plotly-plot')).some(p => (p._fullData || []).some(t => t.name === name))",
        arg=name,
    )
    return read_traces(page)[name]


def _wait_for_text_in_chart(page, length: int) -> None:
    page.wait_for_function(
        """n => Array.from(document.querySelectorAll('.js-plotly-plot'))
             .flatMap(p => (p._fullData || []).filter(t => t.name === 'softmax weights · head 1'))
             .some(t => t.x && t.x.length === n)""",
        arg=length,
    )


def _served(cluster: Cluster, route: str) -> list[dict[str, str]]:
    """nginx's log lines for one route cookie, once the websocket's line is written (at its close)."""
    deadline = time.monotonic() + LOG_WAIT_S
    while True:
        log = Path(cluster.run_dir, "nginx-access.log").read_text().splitlines()
        lines = [m.groupdict() for m in map(LOG_LINE.search, log) if m and m["route"] == route]
        if any(line["path"].startswith("/_stcore/stream") for line in lines) or time.monotonic() > deadline:
            return lines
        time.sleep(0.2)


def _train_on_an_upload(page, tmp_path) -> None:
    """On the Train page: upload a text of one's own, set context 16 and 10 steps (they must
    stay as typed), start, and wait until the page says the 10 steps are trained."""
    page.get_by_text(t("tr.corpus.own"), exact=True).click()
    wait_for_rerun(page)
    corpus = tmp_path / "hamlet.txt"
    corpus.write_text("To be, or not to be, that is the question.\n" * 40, encoding="utf-8")
    page.locator(".st-key-tr_upload input[type='file']").set_input_files(str(corpus))
    page.get_by_text("hamlet.txt").first.wait_for()
    wait_for_rerun(page)
    for name, value in (("context", 16), ("steps", 10)):
        field = page.get_by_role("spinbutton", name=name).first
        field.fill(str(value))
        field.press("Enter")
        wait_for_rerun(page)
    values = {name: page.get_by_role("spinbutton", name=name).first.input_value() for name in ("context", "steps")}
    assert values == {"context": "16", "steps": "10"}, f"the typed settings did not stay: {values}"
    page.get_by_role("button", name=t("tr.start")).click()
    try:
        page.get_by_text("Trained 10 steps").wait_for(timeout=TRAINING_TIMEOUT_MS)
    except Exception:
        page.screenshot(path=str(ARTIFACTS / "nginx-train-upload-failed.png"))
        shown = page.locator("[data-testid='stAlert'], [data-testid='stException']").all_inner_texts()
        raise AssertionError(
            f"no 'Trained 10 steps' within {TRAINING_TIMEOUT_MS} ms; the page shows: {shown}"
        ) from None


def test_a_session_through_nginx_stays_on_one_process(cluster, playwright_browser, tmp_path):
    context = new_context(playwright_browser, viewport=VIEWPORT)
    page = context.new_page()
    encodings: dict[str, tuple[str, int]] = {}  # url -> (Content-Encoding, Content-Length when not chunked)
    page.on(
        "response",
        lambda r: encodings.setdefault(
            r.url, (r.headers.get("content-encoding", ""), int(r.headers.get("content-length", "-1")))
        ),
    )
    try:
        # A deep link: the chart holds the numbers gpt_core computes for it.
        page.goto(f"{cluster.url}/playground?{urlencode(LINK)}")
        wait_for_charts(page)
        expected = trace_attention("to be or not", PlaygroundConfig(heads=3, head_dim=4, seed=11)).trace
        assert_displays(_weights_shown(page, 1), expected.weights[0, 0].numpy())
        # A widget change: new text, new numbers.
        box = page.get_by_role("textbox", name=t("pg.text"))
        box.fill("hello")
        box.press("Control+Enter")
        _wait_for_text_in_chart(page, 5)
        again = trace_attention("hello", PlaygroundConfig(heads=3, head_dim=4, seed=11)).trace
        assert_displays(_weights_shown(page, 1), again.weights[0, 0].numpy())
        # A page change, by the app's own link in the sidebar.
        page.locator("[data-testid='stSidebar']").get_by_text(t("page.train"), exact=True).click()
        page.wait_for_url(re.compile(r"/train"))
        wait_for_app(page)
        # An upload, then a training on it (the upload must reach the session's process).
        _train_on_an_upload(page, tmp_path)
        assert exceptions_shown(page) == 0
        page.screenshot(path=str(ARTIFACTS / "nginx-train-upload.png"))
        route = next(c["value"] for c in context.cookies() if c["name"] == "sa_route")
    finally:
        context.close()

    mine = _served(cluster, route)
    processes = {line["up"] for line in mine if line["path"].startswith("/_stcore/")}
    assert len(processes) == 1, f"the websocket and the uploads of one session reach one process: {processes}"
    assert any(line["path"].startswith("/_stcore/stream") for line in mine)
    assert any(line["path"].startswith("/_stcore/upload_file") and line["method"] in ("PUT", "POST") for line in mine)
    scripts = [url for url in encodings if url.endswith(".js")]
    plain = [url for url in scripts if encodings[url][0] != "gzip" and not 0 <= encodings[url][1] < GZIP_MIN_LENGTH]
    assert scripts and not plain, f"nginx compresses the JavaScript (files over {GZIP_MIN_LENGTH} bytes): {plain}"


def test_nginx_health_check_answers_and_each_process_is_healthy(cluster):
    import urllib.request

    for url in [f"{cluster.url}/healthz", *(f"{app}/_stcore/health" for app in cluster.app_urls)]:
        with urllib.request.urlopen(url, timeout=10) as reply:
            assert reply.status == 200 and reply.read().strip() == b"ok", url


def test_nginx_passes_the_longest_link_the_app_writes(cluster):
    """A link with as much text as the app puts into one (LINK_TEXT_CHARS, every character
    CJK: about 36 KB) reaches the app through the proxy, not nginx's 414."""
    import urllib.request

    from links.rules import LINK_TEXT_CHARS

    link = f"{cluster.url}/playground?{urlencode({**LINK, 'text': '动' * LINK_TEXT_CHARS, 'tok': 'char'})}"
    assert len(link) > 32_000
    with urllib.request.urlopen(link, timeout=30) as reply:
        assert reply.status == 200


def test_the_browsers_websocket_through_nginx_is_compressed(cluster, playwright_browser):
    """Chromium asks for permessage-deflate; nginx passes the offer on and the app's answer
    back (.streamlit/config.toml: server.enableWebsocketCompression), so a class's charts
    travel deflated. Read from the handshake the browser itself saw (Chrome's DevTools
    protocol), with the page drawn from what came through it."""
    context = new_context(playwright_browser, viewport=VIEWPORT)
    page = context.new_page()
    handshakes: list[dict] = []
    devtools = context.new_cdp_session(page)
    devtools.on("Network.webSocketHandshakeResponseReceived", lambda event: handshakes.append(event["response"]))
    devtools.send("Network.enable")
    try:
        page.goto(f"{cluster.url}/playground?{urlencode(LINK)}")
        wait_for_charts(page)
        expected = trace_attention("to be or not", PlaygroundConfig(heads=3, head_dim=4, seed=11)).trace
        assert_displays(_weights_shown(page, 1), expected.weights[0, 0].numpy())  # drawn from what came through
    finally:
        context.close()
    (handshake,) = [h for h in handshakes if h.get("status") == 101]
    headers = {name.lower(): value for name, value in handshake["headers"].items()}
    assert "permessage-deflate" in headers.get("sec-websocket-extensions", ""), headers
