"""The guided lesson in Chromium: teachers' deep links on a freshly started server, in each
language and in presentation mode, at projector size (screenshots kept)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from harness.browser import exceptions_shown, new_context, wait_for_app, wait_for_styles
from harness.charts import CHART_SELECTOR
from harness.server import ARTIFACTS
from string_table import t
from tests.helpers import assert_the_app_shell

PROJECTOR = {"width": 1366, "height": 768}
SIDEBAR_VISIBLE_PX = 50  # more of the sidebar than its edge is on screen
# The sidebar once its opening or closing is over: no animation or transition runs in it and
# its box is where the last reading (a poll earlier) found it.
SIDEBAR_SETTLED_JS = """() => {
  const sidebar = document.querySelector("[data-testid='stSidebar']");
  const box = sidebar ? sidebar.getBoundingClientRect() : null;
  const now = box ? `${box.x} ${box.width}` : "none";
  const same = now === window.__sidebarBox && !(sidebar && sidebar.getAnimations({subtree: true}).length);
  window.__sidebarBox = now;
  return same;
}"""
SIDEBAR_POLL_MS = 100


@pytest.mark.parametrize(("lang", "present"), [("en", False), ("zh", True)])
def test_a_teachers_deep_link_opens_exactly_that_step_on_a_fresh_server(
    fresh_server, playwright_browser, lang, present
):
    context = new_context(playwright_browser, viewport=PROJECTOR)
    page = context.new_page()
    try:
        query = f"lang={lang}&step=3" + ("&present=1" if present else "")
        page.goto(f"{fresh_server.url}/lesson?{query}")
        page.get_by_text(t("ls.3.title", lang)).first.wait_for(timeout=60_000)  # no page title when presenting
        page.wait_for_selector(CHART_SELECTOR, timeout=60_000)
        page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']")
        page.get_by_role("button", name=t("ls.next", lang)).first.wait_for()
        assert exceptions_shown(page) == 0
        assert parse_qs(urlparse(page.url).query)["step"] == ["3"]
        page.wait_for_function(SIDEBAR_SETTLED_JS, polling=SIDEBAR_POLL_MS)
        box = page.locator("[data-testid='stSidebar']").bounding_box()
        sidebar_open = box is not None and box["x"] + box["width"] > SIDEBAR_VISIBLE_PX
        assert sidebar_open != present, "presentation mode keeps the sidebar out of the way"
        if not present:
            assert_the_app_shell(page, "lesson", lang)
        if present:
            size = page.evaluate("() => getComputedStyle(document.documentElement).fontSize")
            assert size == "21px"
        name = f"lesson-step3-{lang}{'-present' if present else ''}-1366.png"
        page.screenshot(path=str(ARTIFACTS / name))
        page.get_by_role("button", name=t("ls.next", lang)).first.click()
        page.get_by_text(t("ls.4.title", lang)).first.wait_for()
        page.wait_for_function("() => new URLSearchParams(location.search).get('step') === '4'")
        assert parse_qs(urlparse(page.url).query).get("lang") == [lang] or lang == "en"
    finally:
        context.close()


def test_without_a_language_in_the_link_the_browsers_preferred_language_is_used(shared_server, playwright_browser):
    context = new_context(playwright_browser, viewport=PROJECTOR, locale="zh-CN")
    page = context.new_page()
    try:
        page.goto(f"{shared_server.url}/lesson")
        wait_for_app(page)
        page.get_by_text(t("ls.1.title", "zh")).first.wait_for()
        page.locator("[data-testid='stSidebar']").get_by_text(t("page.playground", "zh"), exact=True).click()
        page.wait_for_function("() => location.pathname.endsWith('/playground')")
        wait_for_app(page)
        assert t("page.playground", "zh") in page.locator("h1").first.inner_text()
        assert parse_qs(urlparse(page.url).query).get("lang") == ["zh"], "a copied link keeps the language"
    finally:
        context.close()


# Every step the page's link has shown, in order (each write of the link, pushed or replaced).
STEPS_SEEN_JS = """
window.__steps = [];
const stepSeen = () => {
  const shown = new URLSearchParams(location.search).get("step");
  if (shown && window.__steps[window.__steps.length - 1] !== shown) window.__steps.push(shown);
};
for (const name of ["pushState", "replaceState"]) {
  const write = history[name].bind(history);
  history[name] = (...args) => { const result = write(...args); stepSeen(); return result; };
}
stepSeen();
"""


def test_a_presenters_keys_move_between_steps_and_the_buttons_are_at_the_bottom_too(shared_server, playwright_browser):
    """Page Down / Page Up (what a clicker sends) and the arrow keys move between steps; keys
    typed into a control stay the control's; previous/next are also at the step's end."""
    context = new_context(playwright_browser, viewport=PROJECTOR)
    context.add_init_script(STEPS_SEEN_JS)
    page = context.new_page()
    step = "() => new URLSearchParams(location.search).get('step')"
    idle = "[data-testid='stApp'][data-test-script-state='notRunning']"

    def press_on_page(key: str, then: int) -> None:
        page.get_by_text(t(f"ls.{then - (1 if key in ('PageDown', 'ArrowRight') else -1)}.title", "zh")).first.click()
        page.keyboard.press(key)
        page.wait_for_function(f"() => ({step})() === '{then}'")
        page.get_by_text(t(f"ls.{then}.title", "zh")).first.wait_for()
        page.wait_for_selector(idle)

    try:
        page.goto(f"{shared_server.url}/lesson?lang=zh&present=1&step=1")
        page.get_by_text(t("ls.1.title", "zh")).first.wait_for(timeout=60_000)
        page.wait_for_selector(idle)
        # Presenting: previous/next in one bar fixed at the screen's bottom, in view.
        bar = page.locator(".st-key-ls_nav_bar").get_by_role("button", name=t("ls.next", "zh"))
        bar.wait_for()
        wait_for_styles(page)  # the bar is fixed at the bottom by the page's style
        assert page.get_by_role("button", name=t("ls.next", "zh")).count() == 1
        assert bar.bounding_box()["y"] + bar.bounding_box()["height"] <= PROJECTOR["height"]
        box = page.locator(".st-key-ls_text_1 input")
        box.click()
        box.press("ArrowLeft")  # moves the caret in the text box, not the lesson
        box.press("ArrowRight")
        press_on_page("PageDown", 2)
        press_on_page("ArrowRight", 3)
        press_on_page("PageUp", 2)
        press_on_page("ArrowLeft", 1)
        # Had the box's arrows moved the lesson, a step more would be in the record (the keys
        # reach the page in order, so such a move lands before Page Down's): no waiting.
        assert page.evaluate("() => window.__steps") == ["1", "2", "3", "2", "1"]
        assert exceptions_shown(page) == 0
    finally:
        context.close()


# How many script runs the page has made since it loaded.
COUNT_RUNS_JS = """
window.__runs = 0;
new MutationObserver(() => {
  const app = document.querySelector("[data-testid='stApp']");
  const state = app && app.getAttribute("data-test-script-state");
  if (state === "running" && window.__state !== "running") window.__runs += 1;
  window.__state = state;
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-test-script-state"]});
"""


def test_when_presenting_the_first_steps_figure_comes_with_the_pages_first_run(shared_server, playwright_browser):
    """The figure is not left for a second run. (That every step fits one projector screen in
    every state of its question, in both languages, is test_lesson_fit.py's; the number of
    runs does not depend on the language: one.)"""
    context = new_context(playwright_browser, viewport=PROJECTOR)
    context.add_init_script(COUNT_RUNS_JS)
    page = context.new_page()
    try:
        page.goto(f"{shared_server.url}/lesson?lang=zh&present=1&step=1")
        page.wait_for_selector(CHART_SELECTOR, timeout=60_000)
        page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']")
        assert page.evaluate("() => window.__runs") == 1, "the figure waited for a second run"
        assert exceptions_shown(page) == 0
    finally:
        context.close()
