"""A token question in a room, in real browsers behind nginx with two app processes: the
teacher opens step 10 (the book's random layer: which earlier token will the last token read
most in head 1?), four students choose tokens on phones (390×844, touch), the teacher's chart
names each key token and counts the choices without a touch, and Reveal adds the head's real
weights, compared here with the row worked out with torch from the layer's queries and keys.
Screenshots of a student's phone before and after the reveal are kept."""

from __future__ import annotations

import csv
import io
import math
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import torch

from deploy.cluster import Cluster
from gpt_core import PlaygroundConfig, position_label
from gpt_core.lesson import BOOK_TEXT
from gpt_core.playground import trace_attention
from harness.browser import APP_READY_TIMEOUT_MS, IDLE, exceptions_shown, new_context, wait_for_rerun
from harness.server import ARTIFACTS
from string_table import t

PROJECTOR = {"width": 1366, "height": 768}
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=3, is_mobile=True, has_touch=True)
LIVE_TIMEOUT_MS = 20_000  # the teacher's chart redraws every second; a busy 2-core machine lags
TAP_PX = 44
RECORD_TIMEOUT_MS = 60_000  # the CSV is made on the click, from the room's store
TRACES_JS = """names => {
  const found = {};
  for (const plot of document.querySelectorAll('.js-plotly-plot'))
    for (const trace of plot._fullData || [])
      if (names.includes(trace.name))
        found[trace.name] = {y: Array.from(trace.y), x: Array.from(trace.x), text: Array.from(trace.text || [])};
  return found;
}"""


def real_row() -> list[float]:
    """Head 1's row for the last token of the book's text: softmax(q·k/√8) over its keys."""
    torch.set_num_threads(1)
    trace = trace_attention(BOOK_TEXT, PlaygroundConfig(heads=4, head_dim=8)).trace
    q, k = trace.queries_heads[0, 0], trace.keys_heads[0, 0]
    return torch.softmax(q[-1] @ k.T / math.sqrt(8), dim=-1).tolist()


def _wait_for(page, name: str, condition: str) -> None:
    page.wait_for_function(
        "([name]) => [...document.querySelectorAll('.js-plotly-plot')].some(p => (p._fullData || [])"
        f".some(t => t.name === name && {condition}))",
        arg=[name],
        timeout=LIVE_TIMEOUT_MS,
    )


def _teacher(browser, cluster: Cluster):
    context = new_context(browser, viewport=PROJECTOR)
    page = context.new_page()
    page.goto(f"{cluster.url}/lesson?room=new&step=10")
    page.wait_for_url(re.compile(r"room=[A-Z0-9]{8}&key="))
    page.get_by_role("heading", name=re.compile(r"^10\. ")).wait_for(timeout=APP_READY_TIMEOUT_MS)
    return context, page, parse_qs(urlsplit(page.url).query)["room"][0]


def _student(browser, cluster: Cluster, code: str):
    context = new_context(browser, **PHONE)
    page = context.new_page()
    page.goto(f"{cluster.url}/lesson?room={code}")
    page.get_by_role("heading", name=re.compile(r"^10\. ")).wait_for(timeout=APP_READY_TIMEOUT_MS)
    return context, page


def _tap_style_applied(page) -> None:
    """Waits until the page's tap-target style (a style-only ``st.html``, drawn by a part of
    Streamlit's page that a new browser loads on its first use) has reached the options: a
    phone's first seconds may show the plain radios, never the test's measurement."""
    page.wait_for_function(
        "px => [...document.querySelectorAll(\"[data-testid='stRadio'] label\")]"
        ".some(l => getComputedStyle(l).minHeight === px)",
        arg=f"{TAP_PX}px",
        timeout=LIVE_TIMEOUT_MS,
    )


def _choose(page, label: str) -> None:
    option = page.locator("[data-testid='stRadio'] label").filter(has_text=label)
    _tap_style_applied(page)
    box = option.bounding_box()
    assert box["height"] >= TAP_PX and box["width"] >= TAP_PX, f"{label} is {box} on a phone: too small to tap"
    option.tap()
    wait_for_rerun(page)
    page.get_by_text(t("room.your_answer_in", "en").split(".")[0]).wait_for(timeout=LIVE_TIMEOUT_MS)


def _check_the_record(teacher, picks: list[int], labels: list[str], best: int) -> None:
    """The teacher's CSV (the sidebar's "The class's answers") holds every answer: step 10,
    students numbered 1–4 in the order they joined, each one's token, right where it is the
    strongest key, and the seconds after the step opened."""
    teacher.get_by_text(t("room.record.title", "en"), exact=True).click()
    button = teacher.get_by_role("button", name=t("room.record.download", "en"))
    button.wait_for(timeout=LIVE_TIMEOUT_MS)
    with teacher.expect_download(timeout=RECORD_TIMEOUT_MS) as caught:
        button.click()
    text = Path(caught.value.path()).read_text(encoding="utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["step", "question", "student", "answer", "right", "seconds"]
    mine = [row for row in rows[1:] if row[0] == "10"]
    assert [(row[2], row[3]) for row in mine] == [(str(n + 1), labels[pick]) for n, pick in enumerate(picks)]
    assert [row[4] for row in mine] == ["yes" if pick == best else "no" for pick in picks]
    assert all(0 <= float(row[5]) < 600 for row in mine), "seconds after step 10 opened"


def test_four_phones_choose_tokens_and_the_reveal_adds_the_heads_real_row(cluster, playwright_browser):
    row = real_row()
    labels = [position_label(i, char) for i, char in enumerate(BOOK_TEXT)]
    picks = [0, 3, 3, 5]  # 动, 大, 大, 型
    contexts = []
    try:
        context, teacher, code = _teacher(playwright_browser, cluster)
        contexts.append(context)
        students = []
        for pick in picks:
            context, page = _student(playwright_browser, cluster, code)
            contexts.append(context)
            students.append(page)
            _choose(page, labels[pick])
        students[0].screenshot(path=str(ARTIFACTS / "room-token-phone-before-390.png"), full_page=True)
        klass, weights = t("tqfig.class", "en"), t("tqfig.weights", "en").format(head=1)
        _wait_for(teacher, klass, "t.text && t.text.map(Number).reduce((a, b) => a + b, 0) === 4")
        shown = teacher.evaluate(TRACES_JS, [klass])[klass]
        assert shown["y"] == labels, "one bar per key token, named by position and token"
        assert shown["text"] == ["1", "0", "0", "2", "0", "1"] and shown["x"] == [0.25, 0, 0, 0.5, 0, 0.25]
        teacher.get_by_role("button", name=t("room.reveal", "en")).click()
        wait_for_rerun(teacher)
        _wait_for(teacher, weights, "t.x && t.x.length === 6")
        drawn = teacher.evaluate(TRACES_JS, [klass, weights])
        assert drawn[weights]["y"] == drawn[klass]["y"] == labels, "the real row on the class's token axis"
        assert all(abs(a - b) < 1e-6 for a, b in zip(drawn[weights]["x"], row, strict=True)), (drawn[weights], row)
        best = max(range(len(row)), key=row.__getitem__)
        chose = picks.count(best)
        said = t("room.tq_share", "en", share=f"{chose / 4:.0%}", n=chose, answered=4, keys=labels[best])
        teacher.get_by_text(said).wait_for(timeout=LIVE_TIMEOUT_MS)
        teacher.screenshot(path=str(ARTIFACTS / "room-token-teacher-revealed-1366.png"), full_page=True)
        for page, pick in zip(students, picks, strict=True):
            _wait_for(page, weights, f"t.y && t.y.some(y => y.startsWith({labels[pick]!r} + ' ◀'))")
        students[0].screenshot(path=str(ARTIFACTS / "room-token-phone-revealed-390.png"), full_page=True)
        _check_the_record(teacher, picks, labels, best)
        for page in [teacher, *students]:
            page.wait_for_selector(IDLE)
            assert exceptions_shown(page) == 0
    finally:
        for context in contexts:
            context.close()
