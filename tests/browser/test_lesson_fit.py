"""Presentation mode at a projector's 1366×768: every step of the lesson, in both languages,
fits one screen in every state of its question: before an answer, after a wrong answer (the
hint, "try again" and "show the answer"), after giving up (the answer shown) and after a
right answer. Nothing of the step lies under the fixed bar of previous/next or below the
screen (bounding boxes measured in the page), and every chart label is drawn whole
(harness/legibility.py). Screenshots of every state are kept in test-artifacts/.

Each step is opened as a teacher's link opens it (a new session): measured before an answer,
then answered option by option, measured at its first wrong answer and at the right one. One
more session walks the steps with the bar's next button and gives up on each (a wrong answer,
then "show the answer"). Every measurement waits for the state it reads: the charts and the
step's boxes each the same in two readings in a row."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from classroom.model import LESSON_STEPS
from harness.browser import FIRST_SCREEN_ONLY, IDLE, exceptions_shown, new_context, wait_for_rerun
from harness.legibility import problems, settled_charts
from harness.server import ARTIFACTS
from string_table import t

PROJECTOR = {"width": 1366, "height": 768}
STEPS = range(1, LESSON_STEPS + 1)  # every step a room takes: the lesson's (tests/apptest/test_room_class.py)
MASK_ROW, MASK_TOKENS = 3, 6  # step 3: row 3 of 动手学大模型's 6 tokens; its future keys are 4 and 5
EXTENT_POLL_MS = 100
# A heatmap's cell and tick label a room can read on a projector: a cell of at least 12 CSS
# pixels (a 3-pixel cell is a speck), a label at least the smallest type presentation mode
# uses for ticks (figures/panels.py MIN_TICK_FONT_PX, 11 px, times its 1.35), as the label's
# box height (a line box is at least its font size).
MIN_CELL_PX = 12
MIN_TICK_PX = 11 * 1.35
FUTURE_KEYS = list(range(MASK_ROW + 1, MASK_TOKENS))

# Every visible box of the step (the bar's own excluded), in page coordinates (the main
# area's scroll added), the bar's top, the screen's height, and code blocks cut sideways.
EXTENT_JS = """() => {
  const main = document.querySelector("[data-testid='stMain']");
  const bar = document.querySelector(".st-key-ls_nav_bar").getBoundingClientRect();
  const below = [];
  let bottom = 0;
  for (const element of document.querySelectorAll("[data-testid='stMainBlockContainer'] [data-testid='stElementContainer']")) {
    if (element.closest(".st-key-ls_nav_bar")) continue;
    const box = element.getBoundingClientRect();
    if (box.height <= 0 || box.width <= 0) continue;
    const end = box.bottom + main.scrollTop;
    bottom = Math.max(bottom, end);
    if (end > bar.top + 1) below.push((element.innerText || element.className).slice(0, 60) + " @ " + Math.round(end));
  }
  const wide = [...document.querySelectorAll("pre")].filter((pre) => pre.scrollWidth > pre.clientWidth + 1).length;
  return {bottom, barTop: bar.top, barBottom: bar.bottom, height: window.innerHeight, below, wide};
}"""
# The extent once two readings in a row agree (the layout has settled), else null.
SETTLED_EXTENT_JS = f"""() => {{
  const now = JSON.stringify(({EXTENT_JS})());
  const same = now === window.__lastExtent;
  window.__lastExtent = now;
  return same ? JSON.parse(now) : null;
}}"""


class Browsing:
    """One browser context at a time: a new one for each new session (a tab of the same
    context, or a reload, resumes the last session with its answers)."""

    def __init__(self, browser, server_url: str, lang: str) -> None:
        self.browser, self.server_url, self.lang, self.context = browser, server_url, lang, None

    def close(self) -> None:
        if self.context is not None:
            self.context.close()


def _open(browsing: Browsing, lang: str, step: int):
    """The step in a new browser context: a new session, its question not yet answered."""
    browsing.close()
    browsing.context = new_context(browsing.browser, viewport=PROJECTOR)
    page = browsing.context.new_page()
    page.server_url, page.lang = browsing.server_url, lang
    page.goto(f"{page.server_url}/lesson?lang={lang}&present=1&step={step}")
    page.get_by_text(t(f"ls.{step}.title", lang)).first.wait_for(timeout=60_000)
    page.wait_for_selector(FIRST_SCREEN_ONLY, state="detached")  # the run that draws the rest
    return _question_drawn(page)


# The question's options: a radio group's, or step 3's multiselect.
QUESTION = "[data-testid='stRadio'] [role='radiogroup'] label, [data-testid='stMultiSelect']"


def _question_drawn(page):
    """Once the check button and the question's options are drawn and the page is idle (the
    options counted before they were drawn read none: "no option was wrong; the verdicts: []")."""
    page.get_by_role("button", name=t("ls.check", page.lang)).wait_for()
    page.locator(QUESTION).first.wait_for()
    page.wait_for_selector(IDLE)
    return page


def _options(page):
    return page.locator("[data-testid='stRadio'] [role='radiogroup'] label")


# What the question says once the check's run has ended, by what is on the page then: "wrong"
# (the error and its "show the answer" button), "right" (the check button gone, the success
# shown), "none" (asked to choose first); null while the run goes on or its answer is not all
# drawn yet. A state of the page before the check (no verdict, the check button) is none of
# them, so a check whose run has not started yet is waited for, never read as a verdict.
VERDICT_JS = """([check, show, idle]) => {
  if (!document.querySelector(idle)) return null;
  const buttons = [...document.querySelectorAll("[data-testid='stMainBlockContainer'] button")];
  const has = (label) => buttons.some((button) => (button.innerText || "").includes(label));
  const alert = (kind) => document.querySelector(`[data-testid='stMainBlockContainer'] [data-testid='stAlertContent${kind}']`);
  if (alert("Error") && has(show)) return "wrong";
  if (alert("Success") && !has(check)) return "right";
  if (alert("Warning") && has(check)) return "none";
  return null;
}"""


def _choose(page, step: int, index: int | list[int]) -> str:
    """Choose an option (step 3: the set of options, by position), check it, and say the
    verdict: "right", "wrong" or "none" (the choice did not reach the check)."""
    if step == 3:
        box = page.locator("[data-testid='stMultiSelect']").first
        for position in index:
            box.click()
            page.get_by_role("option").filter(has_text=f"{position} · ").first.click()
            page.keyboard.press("Escape")
            page.wait_for_selector(IDLE)
    else:
        _options(page).nth(index).click()
        wait_for_rerun(page)
    page.get_by_role("button", name=t("ls.check", page.lang)).click()
    wait_for_rerun(page)
    labels = [t("ls.check", page.lang), t("ls.show_answer", page.lang), IDLE]
    try:
        return page.wait_for_function(VERDICT_JS, arg=labels).json_value()
    except PlaywrightTimeout:  # said in the failure, with what the page showed instead
        alerts = page.locator("[data-testid='stMainBlockContainer'] [data-testid^='stAlertContent']").all_inner_texts()
        return f"no verdict; the alerts: {[text[:60] for text in alerts]}"


def _measure(page, lang: str, step: int, state: str, failures: list[str]) -> None:
    charts = settled_charts(page)  # every chart's last layout: two readings in a row agree
    page.evaluate("() => { window.__lastExtent = undefined; }")
    extent = page.wait_for_function(SETTLED_EXTENT_JS, polling=EXTENT_POLL_MS).json_value()
    where = f"step {step} ({lang}) {state}"
    if extent["bottom"] > extent["barTop"] + 1:
        failures.append(
            f"{where}: the step ends at {extent['bottom']:.0f} px, the bar starts at "
            f"{extent['barTop']:.0f} px; under it: {extent['below']}"
        )
    if extent["barBottom"] > extent["height"]:
        failures.append(f"{where}: the bar ends below the screen")
    if extent["wide"]:
        failures.append(f"{where}: a code block's lines are cut")
    for chart in charts:
        failures += [f"{where}: {line}" for line in problems(chart)]
    if exceptions_shown(page):
        failures.append(f"{where}: an exception")
    page.screenshot(path=str(ARTIFACTS / f"lesson-fit-{lang}-step{step}-{state}-1366.png"))


def _figure_beside(page, lang: str, step: int, failures: list[str]) -> None:
    """Before the answer, the right-hand column shows a chart, legible from the back."""
    where = f"step {step} ({lang}) before"
    if not page.locator(".st-key-ls_figure_column .js-plotly-plot").count():
        failures.append(f"{where}: nothing in the figure column before the answer")
    for chart in settled_charts(page):
        for subplot in chart.subplots:
            if subplot.tokens:
                cell = (subplot.box.x1 - subplot.box.x0) / subplot.tokens
                if cell < MIN_CELL_PX:
                    failures.append(f"{where}: heatmap cells of {cell:.1f} px in {subplot.id}")
        small = [text for text in chart.texts if text.kind == "tick" and text.box.y1 - text.box.y0 < MIN_TICK_PX]
        if small:
            failures.append(f"{where}: tick labels smaller than {MIN_TICK_PX:.1f} px: {small[:3]}")


def _answered(page, lang: str, step: int, failures: list[str]) -> tuple[list[str], bool]:
    """Options in turn until one is right: the first wrong answer on the way (measured), then
    the right one (measured). The verdicts in the options' order, and whether a wrong answer
    was measured."""
    choices = [FUTURE_KEYS] if step == 3 else range(_options(page).count())
    verdicts: list[str] = []
    for choice in choices:
        verdicts.append(_choose(page, step, choice))
        if verdicts[-1] == "wrong" and "wrong" not in verdicts[:-1]:
            _measure(page, lang, step, "wrong", failures)
        if verdicts[-1] == "right":
            break
    if not verdicts or verdicts[-1] != "right":
        page.screenshot(path=str(ARTIFACTS / f"lesson-fit-{lang}-step{step}-never-right-1366.png"))
        failures.append(f"step {step} ({lang}): no option was right; the verdicts: {verdicts}")
    else:
        page.wait_for_selector(IDLE)
        _measure(page, lang, step, "right", failures)
    return verdicts, "wrong" in verdicts


def _next(page, step: int):
    """The bar's next button, in the same session: ``step``, its question not yet answered."""
    page.locator(".st-key-ls_nav_bar").get_by_role("button", name=t("ls.next", page.lang)).click()
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('step') === '{step}'")
    page.get_by_text(t(f"ls.{step}.title", page.lang)).first.wait_for()
    return _question_drawn(page)


def _given_up(browsing: Browsing, page, step: int, verdicts: list[str], measured: bool, failures: list[str]):
    """A wrong answer (measured unless it was in the step's first session), then "show the
    answer" (measured), in the giving-up session; the page it ends on (a new session where an
    option thought wrong was right)."""
    lang = page.lang
    if step == 3:
        choices = [[0]]
    else:  # a known wrong option, else those after the right one
        known = [index for index, verdict in enumerate(verdicts) if verdict == "wrong"][:1]
        choices = known or range(len(verdicts), _options(page).count())
    tried = []
    for choice in choices:
        tried.append(_choose(page, step, choice))
        if tried[-1] == "wrong":
            if not measured:
                _measure(page, lang, step, "wrong", failures)
            page.get_by_role("button", name=t("ls.show_answer", lang)).click()
            page.get_by_role("button", name=t("ls.check", lang)).wait_for(state="detached")
            page.wait_for_selector(IDLE)
            _measure(page, lang, step, "shown", failures)
            return page
        if tried[-1] != "right":  # kept for the failure's reader
            page.screenshot(path=str(ARTIFACTS / f"lesson-fit-{lang}-step{step}-{choice}-no-verdict-1366.png"))
        page = _open(browsing, lang, step)  # a new session for the next option
    failures.append(f"step {step} ({lang}): no option was wrong; the verdicts: {verdicts} then {tried}")
    return page


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_step_fits_the_projector_screen_in_every_state_of_its_question(shared_server, playwright_browser, lang):
    """Both languages: what must fit is the step's text, and the Chinese and the English
    differ in length and in where their lines break (the subject here, not a translation)."""
    answering = Browsing(playwright_browser, shared_server.url, lang)
    giving_up = Browsing(playwright_browser, shared_server.url, lang)
    failures: list[str] = []
    try:
        gives_up = _open(giving_up, lang, STEPS[0])
        for step in STEPS:
            page = _open(answering, lang, step)  # each step as a teacher's link opens it
            _measure(page, lang, step, "before", failures)
            _figure_beside(page, lang, step, failures)
            verdicts, measured = _answered(page, lang, step, failures)
            if step > STEPS[0]:
                gives_up = _next(gives_up, step)
            gives_up = _given_up(giving_up, gives_up, step, verdicts, measured, failures)
    finally:
        answering.close()
        giving_up.close()
    assert not failures, "\n".join(failures)
