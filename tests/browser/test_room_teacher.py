"""The teacher's projected room in a real browser, on one server: the presenter's clicker moves
the step whatever the teacher clicked last (the bar's Figure / Answers / How to join switch
included), and what the switch shows is in the teacher's link and survives a reload."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from harness.browser import APP_READY_TIMEOUT_MS, IDLE, exceptions_shown, new_context, wait_for_rerun
from harness.server import ARTIFACTS
from string_table import t

PROJECTOR = {"width": 1366, "height": 768}
STEP_JS = "() => new URLSearchParams(location.search).get('step')"
VIEW_JS = "() => new URLSearchParams(location.search).get('view')"


def _teacher(browser, base: str):
    context = new_context(browser, viewport=PROJECTOR)
    page = context.new_page()
    page.goto(f"{base}/lesson?present=1&room=new")
    page.wait_for_url(re.compile(r"room=[A-Z0-9]{8}&key="), timeout=APP_READY_TIMEOUT_MS)
    page.get_by_text(t("room.answered", "en", n=0)).wait_for(timeout=APP_READY_TIMEOUT_MS)
    page.wait_for_selector(IDLE, timeout=APP_READY_TIMEOUT_MS)
    return context, page


def _switch(page, view: str):
    """The bar's switch button for ``view`` (Streamlit draws a segmented control as buttons)."""
    bar = page.locator(".st-key-ls_nav_bar")
    name = t(f"room.view.{view}", "en")
    return bar.get_by_role("radio", name=name).or_(bar.get_by_role("button", name=name)).first


def _choose(page, view: str) -> None:
    _switch(page, view).click()  # the focus stays on the switch, as a teacher's click leaves it
    wait_for_rerun(page)


def _press(page, key: str, then: int) -> None:
    page.keyboard.press(key)
    page.wait_for_function(f"() => ({STEP_JS})() === '{then}'", timeout=APP_READY_TIMEOUT_MS)
    page.get_by_role("heading", name=re.compile(rf"^{then}\. ")).wait_for(timeout=APP_READY_TIMEOUT_MS)
    page.wait_for_selector(IDLE, timeout=APP_READY_TIMEOUT_MS)


def test_the_clicker_moves_the_step_whatever_the_teacher_clicked_last(shared_server, playwright_browser):
    context, page = _teacher(playwright_browser, shared_server.url)
    try:
        assert page.evaluate(STEP_JS) == "1"
        _choose(page, "answers")
        _press(page, "PageDown", 2)
        _choose(page, "figure")
        _press(page, "ArrowRight", 3)
        _choose(page, "join")
        _press(page, "PageUp", 2)
        _press(page, "ArrowLeft", 1)
        page.get_by_role("button", name=t("room.reveal", "en")).click()  # the last click: Reveal
        wait_for_rerun(page)
        _press(page, "PageDown", 2)
        assert exceptions_shown(page) == 0
    finally:
        context.close()


def test_the_teachers_view_is_in_the_link_and_survives_a_reload(shared_server, playwright_browser):
    context, page = _teacher(playwright_browser, shared_server.url)
    try:
        assert page.evaluate(VIEW_JS) == "join", "a room just made shows how to join, and says so in the link"
        page.locator("[data-testid='stImage'] img").first.wait_for()
        _choose(page, "answers")
        page.wait_for_function(f"() => ({VIEW_JS})() === 'answers'", timeout=APP_READY_TIMEOUT_MS)
        room = parse_qs(urlsplit(page.url).query)["room"][0]
        page.reload()
        page.get_by_text(t("room.answered", "en", n=0)).wait_for(timeout=APP_READY_TIMEOUT_MS)
        page.wait_for_selector(IDLE, timeout=APP_READY_TIMEOUT_MS)
        query = parse_qs(urlsplit(page.url).query)
        assert query["view"] == ["answers"] and query["room"] == [room] and "key" in query, query
        # Answers in the figure's place (no answers yet: the caption that says so), no QR code.
        page.get_by_text(t("room.no_answers", "en")).wait_for(timeout=APP_READY_TIMEOUT_MS)
        assert page.locator("[data-testid='stImage'] img").count() == 0, "how to join stays hidden"
        # The switch still shows Answers as chosen after a reveal.
        page.get_by_role("button", name=t("room.reveal", "en")).click()
        wait_for_rerun(page)
        page.get_by_text(t("room.no_answers", "en")).wait_for(timeout=APP_READY_TIMEOUT_MS)
        assert page.evaluate(VIEW_JS) == "answers"
        assert exceptions_shown(page) == 0
    finally:
        context.close()


# The projected link: its box, its container's, how many lines it takes, and whether what is
# drawn at its first and last characters is the link itself (nothing covers it).
LINK_JS = """() => {
  const card = document.querySelector('.st-key-rm_link');
  const p = card && card.querySelector('p');
  if (!p) return null;
  const range = document.createRange();
  range.selectNodeContents(p);
  const lines = [...range.getClientRects()].map((r) => Math.round(r.top)).filter((v, i, a) => a.indexOf(v) === i);
  const box = range.getBoundingClientRect(), outer = card.getBoundingClientRect();
  const at = (x) => { const e = document.elementFromPoint(x, box.top + box.height / 2); return !!e && card.contains(e); };
  return {text: p.innerText, lines: lines.length, left: box.left, right: box.right, outerRight: outer.right,
          bottom: box.bottom, shownAtStart: at(box.left + 2), shownAtEnd: at(box.right - 2)};
}"""


def test_the_projected_link_is_whole_on_one_line_and_a_link_for_this_machine_only_is_warned(
    shared_server, playwright_browser
):
    context, page = _teacher(playwright_browser, shared_server.url)  # 127.0.0.1: no phone can open it
    try:
        warning = page.get_by_text(t("room.link_local", "en"))
        warning.wait_for(timeout=APP_READY_TIMEOUT_MS)
        box = warning.bounding_box()
        assert box["height"] > 0 and box["y"] >= 0, "the warning is drawn"
        link = page.evaluate(LINK_JS)
        room = parse_qs(urlsplit(page.url).query)["room"][0]
        assert link["text"].replace("\u2060", "") == f"{shared_server.url}/lesson?room={room}", link
        assert link["lines"] == 1, "never broken, inside a word or anywhere"
        assert link["right"] <= link["outerRight"] + 1, "whole within its card"
        assert link["shownAtStart"] and link["shownAtEnd"], "nothing covers it"
        assert link["bottom"] <= PROJECTOR["height"], "on the projected screen"
        page.screenshot(path=str(ARTIFACTS / "room-teacher-join-local-en-1366.png"))
    finally:
        context.close()


def _student(context, url: str):
    page = context.new_page()
    page.goto(url)
    page.get_by_text(t("room.following", "en")).wait_for(timeout=APP_READY_TIMEOUT_MS)
    page.wait_for_selector(IDLE, timeout=APP_READY_TIMEOUT_MS)
    return page


def _chosen(page) -> list[str]:
    return page.locator("[data-testid='stRadio'] label:has(input:checked)").all_inner_texts()


def test_a_student_is_one_browser_not_a_link(shared_server, playwright_browser):
    context, teacher = _teacher(playwright_browser, shared_server.url)
    phones = [new_context(playwright_browser, viewport={"width": 390, "height": 844}) for _ in range(2)]
    try:
        room = parse_qs(urlsplit(teacher.url).query)["room"][0]
        link = f"{shared_server.url}/lesson?room={room}"
        first = _student(phones[0], link)
        first.locator("[data-testid='stRadio'] label").filter(has_text="6 × 4").click()
        wait_for_rerun(first)
        teacher.get_by_text(t("room.answered", "en", n=1)).wait_for(timeout=APP_READY_TIMEOUT_MS)
        first.reload()  # a reload, then the QR code scanned again in another tab: the same student
        first.get_by_text(t("room.following", "en")).wait_for(timeout=APP_READY_TIMEOUT_MS)
        again = _student(phones[0], link)
        for page in (first, again):
            page.wait_for_function("() => document.querySelector(\"[data-testid='stRadio'] input:checked\")")
            assert _chosen(page) == ["6 × 4"], "their answer, as the same student"
        # Whatever the first browser's address bar says, opened in another browser: another student.
        shared = _student(phones[1], again.url)
        assert _chosen(shared) == [], "another browser answers for no one else"
        shared.locator("[data-testid='stRadio'] label").filter(has_text="4 × 4").click()
        wait_for_rerun(shared)
        teacher.get_by_text(t("room.answered", "en", n=2)).wait_for(timeout=APP_READY_TIMEOUT_MS)
        first.reload()
        first.wait_for_function("() => document.querySelector(\"[data-testid='stRadio'] input:checked\")")
        assert _chosen(first) == ["6 × 4"], "the first student's answer untouched"
        assert "me=" not in again.url, "no student id in the link"
    finally:
        for phone in phones:
            phone.close()
        context.close()


PHONE = {"width": 390, "height": 844}
# Where an element's box ends, in the page's own scrolling (Streamlit scrolls its main part).
BOTTOM_JS = """element => {
  const main = document.querySelector("[data-testid='stMain']");
  return element.getBoundingClientRect().bottom + (main ? main.scrollTop : 0);
}"""


def test_on_a_phone_the_question_and_its_choices_then_the_verdict_are_on_the_first_screen(
    shared_server, playwright_browser
):
    context, teacher = _teacher(playwright_browser, shared_server.url)
    phone = new_context(playwright_browser, viewport=PHONE)
    try:
        room = parse_qs(urlsplit(teacher.url).query)["room"][0]
        page = _student(phone, f"{shared_server.url}/lesson?room={room}")
        choices = page.locator("[data-testid='stRadio'] label:has(input)")
        choices.first.wait_for()
        question = page.locator("[data-testid='stMarkdownContainer']", has_text=t("ls.predict", "en")).first
        for element in (question, *choices.all()):
            bottom = element.evaluate(BOTTOM_JS)
            assert bottom <= PHONE["height"], f"below the first screen: {element} ends at {bottom:.0f}"
        choices.filter(has_text="6 × 4").click()
        wait_for_rerun(page)
        teacher.get_by_role("button", name=t("room.reveal", "en")).click()
        verdict = page.get_by_text(t("room.you_were_wrong", "en", answer="6 × 4"))
        verdict.wait_for(timeout=APP_READY_TIMEOUT_MS)
        page.wait_for_selector(IDLE, timeout=APP_READY_TIMEOUT_MS)
        assert verdict.evaluate(BOTTOM_JS) <= PHONE["height"], "the verdict on the first screen after the reveal"
        page.screenshot(path=str(ARTIFACTS / "room-student-phone-first-screen-390.png"))
    finally:
        phone.close()
        context.close()
