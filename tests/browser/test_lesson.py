"""The guided lesson in Chromium: teachers' deep links on a freshly started server, in each
language and in presentation mode, at projector size (screenshots kept)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from harness.browser import exceptions_shown, new_context, wait_for_app
from harness.charts import CHART_SELECTOR
from harness.legibility import problems, settled_charts
from harness.server import ARTIFACTS
from string_table import t
from tests.helpers import assert_the_app_shell

PROJECTOR = {"width": 1366, "height": 768}
SIDEBAR_SETTLE_MS = 600
SIDEBAR_VISIBLE_PX = 50  # more of the sidebar than its edge is on screen


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
        page.wait_for_timeout(SIDEBAR_SETTLE_MS)  # the sidebar's opening or closing animation
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


def test_a_presenters_keys_move_between_steps_and_the_buttons_are_at_the_bottom_too(shared_server, playwright_browser):
    """Page Down / Page Up (what a clicker sends) and the arrow keys move between steps; keys
    typed into a control stay the control's; previous/next are also at the step's end."""
    context = new_context(playwright_browser, viewport=PROJECTOR)
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
        assert page.get_by_role("button", name=t("ls.next", "zh")).count() == 1
        assert bar.bounding_box()["y"] + bar.bounding_box()["height"] <= PROJECTOR["height"]
        box = page.locator(".st-key-ls_text_1 input")
        box.click()
        box.press("ArrowLeft")  # moves the caret in the text box, not the lesson
        box.press("ArrowRight")
        page.wait_for_timeout(1500)
        assert page.evaluate(step) == "1"
        press_on_page("PageDown", 2)
        press_on_page("ArrowRight", 3)
        press_on_page("PageUp", 2)
        press_on_page("ArrowLeft", 1)
        assert exceptions_shown(page) == 0
    finally:
        context.close()


# Where the step's content ends (scroll included) and where the fixed bar of previous/next
# begins, in CSS pixels; how many code blocks scroll sideways; and how many script runs the
# page has made since it loaded.
STEP_EXTENT_JS = """() => {
  const main = document.querySelector("[data-testid='stMain']");
  let bottom = 0;
  for (const element of document.querySelectorAll("[data-testid='stMainBlockContainer'] [data-testid='stElementContainer']")) {
    if (element.closest(".st-key-ls_nav_bar")) continue;
    const box = element.getBoundingClientRect();
    if (box.height > 0) bottom = Math.max(bottom, box.bottom + main.scrollTop);
  }
  const bar = document.querySelector(".st-key-ls_nav_bar").getBoundingClientRect();
  const wide = [...document.querySelectorAll("pre")].filter((pre) => pre.scrollWidth > pre.clientWidth + 1).length;
  return {bottom, barTop: bar.top, barBottom: bar.bottom, wide, runs: window.__runs};
}"""
COUNT_RUNS_JS = """
window.__runs = 0;
new MutationObserver(() => {
  const app = document.querySelector("[data-testid='stApp']");
  const state = app && app.getAttribute("data-test-script-state");
  if (state === "running" && window.__state !== "running") window.__runs += 1;
  window.__state = state;
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-test-script-state"]});
"""


def _reveal(page, lang: str, idle: str) -> None:
    """Commit to the first option; where that is wrong, ask for the answer."""
    radio = page.locator("[data-testid='stRadio'] [role='radiogroup'] label")
    if radio.count():
        radio.first.click()
    else:  # several answers: a multiselect
        page.locator("[data-testid='stMultiSelect']").first.click()
        page.get_by_role("option").first.click()
        page.keyboard.press("Escape")
    page.wait_for_selector(idle)
    check = page.get_by_role("button", name=t("ls.check", lang))
    check.click()
    show = page.get_by_role("button", name=t("ls.show_answer", lang))
    show.or_(page.get_by_text(t("ls.right", lang, why="").strip()[:6])).first.wait_for()
    if show.count():
        show.click()
    check.wait_for(state="detached")  # presenting, answered: the answer takes the question's place
    page.wait_for_selector(idle)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_step_fits_one_projector_screen_when_presenting_before_and_after_its_answer(
    shared_server, playwright_browser, lang
):
    """Presentation mode at 1366×768: the explanation, the figure and the question of every
    step lie above the bar of previous/next, before and after the answer is revealed, and
    every label of its charts is drawn whole (harness/legibility.py); the first step's figure
    comes with the page's first run."""
    context = new_context(playwright_browser, viewport=PROJECTOR)
    context.add_init_script(COUNT_RUNS_JS)
    page = context.new_page()
    idle = "[data-testid='stApp'][data-test-script-state='notRunning']"
    unreadable: list[str] = []
    try:
        page.goto(f"{shared_server.url}/lesson?lang={lang}&present=1&step=1")
        page.wait_for_selector(CHART_SELECTOR, timeout=60_000)
        page.wait_for_selector(idle)
        assert page.evaluate(STEP_EXTENT_JS)["runs"] == 1, "the figure waited for a second run"
        for step in range(1, 9):
            if step > 1:
                page.locator(".st-key-ls_nav_bar").get_by_role("button", name=t("ls.next", lang)).click()
                page.get_by_text(t(f"ls.{step}.title", lang)).first.wait_for()
                page.wait_for_selector(idle)
            for moment in ("before", "after"):
                if moment == "after":
                    _reveal(page, lang, idle)
                extent = page.evaluate(STEP_EXTENT_JS)
                where = f"step {step} ({lang}) {moment} the answer"
                assert extent["bottom"] <= extent["barTop"] + 1, f"{where}: content ends at {extent}"
                assert extent["barBottom"] <= PROJECTOR["height"], where
                assert extent["wide"] == 0, f"{where}: a code block's lines are cut"
                for index in range(page.locator(".js-plotly-plot").count()):
                    for chart in settled_charts(page, index):
                        unreadable += [f"{where}: {line}" for line in problems(chart)]
                page.screenshot(path=str(ARTIFACTS / f"lesson-present-{lang}-step{step}-{moment}-1366.png"))
        assert exceptions_shown(page) == 0
        assert not unreadable, "\n".join(unreadable)
    finally:
        context.close()
