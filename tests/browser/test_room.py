"""A class's room in real browsers, behind nginx with two app processes (deploy/): the
teacher opens ``/lesson?present=1&room=new`` on a projector's screen; three students join
from the student link (one on a phone), one through nginx and one on each process, so the
room must be shared by both. Their answers reach the teacher's screen without a touch, the
distribution shows them, Reveal and Next reach every student. Screenshots of the teacher
(1366×768 and 1920×1080, English and Chinese) and of a student's phone (390×844) are kept."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from deploy.cluster import Cluster
from harness.browser import APP_READY_TIMEOUT_MS, IDLE, exceptions_shown, new_context, wait_for_rerun
from harness.server import ARTIFACTS
from string_table import t

from .test_lesson_fit import EXTENT_JS

PROJECTOR = {"width": 1366, "height": 768}
WIDE = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
LIVE_TIMEOUT_MS = 15_000  # the teacher's count redraws every second; a busy 2-core machine lags
STEP1_OPTIONS = ["6 × 6", "6 × 4", "4 × 4"]


def _page(browser, viewport, url: str):
    context = new_context(browser, viewport=viewport)
    page = context.new_page()
    page.goto(url)  # presentation mode has no page title to wait for: callers wait for their text
    return context, page


def _teacher(browser, cluster: Cluster, lang: str, viewport=PROJECTOR):
    context, page = _page(browser, viewport, f"{cluster.url}/lesson?present=1&room=new&lang={lang}")
    page.wait_for_url(re.compile(r"room=[A-Z0-9]{8}&key="))
    page.get_by_text(t("room.answered", lang, n=0)).wait_for(timeout=APP_READY_TIMEOUT_MS)
    return context, page, parse_qs(urlsplit(page.url).query)["room"][0]


ANSWERS_JS = """name => {
  for (const plot of document.querySelectorAll('.js-plotly-plot'))
    for (const trace of plot._fullData || [])
      if (trace.name === name) return [Array.from(trace.y), Array.from(trace.x)];
  return null;
}"""


def _answer(students, answers) -> None:
    """Each student chooses their option; the page says the answer is in."""
    for page, answer in zip(students, answers, strict=True):
        page.locator("[data-testid='stRadio'] label").filter(has_text=answer).click()
        wait_for_rerun(page)
        page.get_by_text(t("room.your_answer_in", "en").split(".")[0]).wait_for()


def _fits(page) -> None:
    """Nothing of the step under the bar at the screen's bottom, nothing below the screen."""
    extent = page.evaluate(EXTENT_JS)
    assert extent["bottom"] <= extent["barTop"] + 1, f"the step fits the screen: {extent['below']}"
    assert extent["barBottom"] <= extent["height"], "the bar on screen"


def _answers_shown(page, lang: str) -> dict[str, int]:
    """The answers' bars as Plotly drew them: option -> count."""
    labels, counts = page.evaluate(ANSWERS_JS, t("rmfig.title", lang))
    return dict(zip(labels, counts, strict=True))


def _students_join(browser, cluster: Cluster, code: str, contexts: list) -> list:
    """Three students join room ``code`` from the student link: through nginx (on a phone),
    then on each process directly; each page says it follows the teacher. Their contexts are
    added to ``contexts`` (closed by the caller)."""
    student_bases = [cluster.url, *cluster.app_urls]  # through nginx, then each process directly
    students = []
    for index, base in enumerate(student_bases):
        context, page = _page(browser, PHONE if index == 0 else PROJECTOR, f"{base}/lesson?room={code}")
        contexts.append(context)
        page.get_by_text(t("room.following", "en")).wait_for(timeout=APP_READY_TIMEOUT_MS)
        students.append(page)
    return students


def _wait_for_answer_bars(teacher, condition: str) -> None:
    """Until Plotly has drawn the answers' bars (English) with ``condition`` true of their
    trace ``t``, a JavaScript expression."""
    teacher.wait_for_function(
        "name => [...document.querySelectorAll('.js-plotly-plot')].some(p => (p._fullData || [])"
        f".some(t => t.name === name && {condition}))",
        arg=t("rmfig.title", "en"),
        timeout=LIVE_TIMEOUT_MS,
    )


def test_students_on_both_processes_reach_the_teacher_and_follow_reveal_and_next(cluster, playwright_browser):
    browser = playwright_browser
    contexts = []
    try:
        context, teacher, code = _teacher(browser, cluster, "en")
        contexts.append(context)
        students = _students_join(browser, cluster, code, contexts)
        answers = [STEP1_OPTIONS[0], STEP1_OPTIONS[0], STEP1_OPTIONS[1]]
        _answer(students, answers)
        # The teacher touches nothing: the count and the bars come by themselves.
        teacher.get_by_text(t("room.answered", "en", n=3)).wait_for(timeout=LIVE_TIMEOUT_MS)
        teacher.get_by_role("radio", name=t("room.view.answers", "en")).or_(
            teacher.get_by_role("button", name=t("room.view.answers", "en"))
        ).first.click()
        wait_for_rerun(teacher)
        _wait_for_answer_bars(teacher, "t.x && t.x.reduce((a, b) => a + b, 0) === 3")
        assert _answers_shown(teacher, "en") == {"6 × 6": 2, "6 × 4": 1, "4 × 4": 0}, "unmarked before the reveal"
        teacher.screenshot(path=str(ARTIFACTS / "room-teacher-answers-en-1366.png"))
        _fits(teacher)
        students[0].screenshot(path=str(ARTIFACTS / "room-student-phone-before-390.png"), full_page=True)

        teacher.get_by_role("button", name=t("room.reveal", "en")).click()
        wait_for_rerun(teacher)
        _wait_for_answer_bars(teacher, "t.y && t.y.some(y => y.endsWith('✓'))")
        assert _answers_shown(teacher, "en") == {"6 × 6 ✓": 2, "6 × 4": 1, "4 × 4": 0}
        for page, answer in zip(students, answers, strict=True):
            said = "room.you_were_right" if answer == STEP1_OPTIONS[0] else "room.you_were_wrong"
            page.get_by_text(t(said, "en", answer=answer)).wait_for(timeout=LIVE_TIMEOUT_MS)
        students[0].screenshot(path=str(ARTIFACTS / "room-student-phone-revealed-390.png"), full_page=True)
        teacher.screenshot(path=str(ARTIFACTS / "room-teacher-revealed-en-1366.png"))
        _fits(teacher)

        teacher.locator(".st-key-ls_nav_bar").get_by_role("button", name=t("ls.next", "en")).click()
        for page in students:
            page.get_by_role("heading", name=re.compile(r"^2\. ")).wait_for(timeout=LIVE_TIMEOUT_MS)
        # The presenter's clicker (→, or Page Down) moves them too.
        teacher.wait_for_selector(IDLE)
        teacher.evaluate("() => document.activeElement && document.activeElement.blur()")  # keys to the page
        teacher.keyboard.press("ArrowRight")
        for page in students:
            page.get_by_role("heading", name=re.compile(r"^3\. ")).wait_for(timeout=LIVE_TIMEOUT_MS)
        for page in [teacher, *students]:
            page.wait_for_selector(IDLE)
            assert exceptions_shown(page) == 0
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_teachers_join_screen_reads_at_1366_and_1920(cluster, playwright_browser, lang):
    for viewport in (PROJECTOR, WIDE):
        context, page, code = _teacher(playwright_browser, cluster, lang, viewport)
        try:
            page.get_by_role("heading", name=f"{code[:4]}-{code[4:]}").wait_for()
            qr = page.locator("[data-testid='stImage'] img").first
            qr.wait_for()
            box = qr.bounding_box()
            assert box["width"] >= 240 and box["y"] + box["height"] <= viewport["height"], box
            page.screenshot(path=str(ARTIFACTS / f"room-teacher-join-{lang}-{viewport['width']}.png"))
            extent = page.evaluate(EXTENT_JS)
            assert extent["bottom"] <= extent["barTop"] + 1, f"fits one screen: {extent['below']}"
            bar = page.locator(".st-key-ls_nav_bar")
            assert bar.get_by_text(f"{code[:4]}-{code[4:]}").count(), "the code in the bar, for latecomers"
            assert bar.get_by_text(t("room.answered", lang, n=0)).count()
            assert exceptions_shown(page) == 0
        finally:
            context.close()
