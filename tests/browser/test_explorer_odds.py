"""The explorer's next-token odds in a real Chromium: top-k set in its box leaves exactly k
coloured bars, and the link carries it."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlparse

from harness.browser import exceptions_shown, wait_for_app, wait_for_rerun
from harness.charts import read_traces, wait_for_trace

PROMPT = "ROMEO:\nBut soft, what"
KEPT, CUT = "kept, renormalised", "before the cut"


def _coloured(page) -> int:
    return sum(value is not None for value in read_traces(page)[KEPT]["x"])


def test_top_k_of_3_leaves_3_coloured_bars(shared_server, browser_page):
    page = browser_page
    page.goto(f"{shared_server.url}/explorer?{urlencode({'model': 'h4', 'prompt': PROMPT})}")
    wait_for_app(page)
    page.get_by_role("tab", name="Next-token odds").click()
    wait_for_trace(page, KEPT)
    assert _coloured(page) == 20, "nothing cut: every bar shown is kept"
    box = page.locator(".st-key-ex_top_k input")
    box.fill("3")
    box.press("Enter")
    wait_for_rerun(page)
    page.wait_for_function("() => location.search.includes('top_k=3')")
    page.wait_for_function(
        """name => Array.from(document.querySelectorAll('.js-plotly-plot')).some(plot => (plot._fullData || [])
             .some(trace => trace.name === name && Array.from(trace.x).filter(v => v !== null && v !== undefined).length === 3))""",
        arg=KEPT,
    )
    traces = read_traces(page)
    assert _coloured(page) == 3 and len(traces[CUT]["x"]) == 20
    assert abs(sum(v for v in traces[KEPT]["x"] if v is not None) - 1) < 1e-6
    assert parse_qs(urlparse(page.url).query)["top_k"] == ["3"]
    assert exceptions_shown(page) == 0 and not page.console_errors
