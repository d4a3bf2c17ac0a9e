"""The keyboard harness itself (harness/keyboard.py), on pages written here: a focus the page
takes away by redrawing the focused element is the redraw's, not a missing focus style; a Tab
that leaves the focus nowhere on a page that redrew nothing is still counted; a ring missing
while a run redraws the page is judged once the page is idle, so one that comes with the
redraw is not counted and one that never comes is; a Tab past the page's last element, to the
browser's own controls, is not the page's and is not counted."""

from __future__ import annotations

import pytest

from harness.browser import local_page
from harness.keyboard import tab_to

# An idle app, as Streamlit marks it, with three buttons with a visible focus ring.
PAGE = """<!DOCTYPE html><html><body>
<div data-testid="stApp" data-test-script-state="notRunning">
  <style>button:focus { outline: 3px solid blue; }</style>
  <button id="a">a</button> <button id="b">b</button> <button id="c">c</button>
</div>
<script>{script}</script>
</body></html>"""
# B is redrawn as soon as it takes the focus (a new element in its place), as a run's late
# redraw does: the focus falls to the page's body.
REDRAW_B = """
document.getElementById("b").addEventListener("focusin", (event) => {
  const fresh = event.target.cloneNode(true);
  event.target.replaceWith(fresh);
});
"""
# B drops the focus as soon as it takes it, with nothing redrawn: a real loss of the focus.
BLUR_B = """
document.getElementById("b").addEventListener("focus", (event) => event.target.blur());
"""

# B takes the focus with no ring while a run redraws the page for longer than the harness's
# wait for a ring (a busy machine); the run ends with B's ring drawn (RING_AFTER "true") or not.
SLOW_RUN_B = """
const RING_AFTER = {ring_after};
const b = document.getElementById("b");
b.style.outline = "none";
b.addEventListener("focus", () => {
  const app = document.querySelector("[data-testid='stApp']");
  app.setAttribute("data-test-script-state", "running");
  setTimeout(() => {
    if (RING_AFTER) b.style.outline = "";
    app.setAttribute("data-test-script-state", "notRunning");
  }, 3000);
});
"""


def _page(browser, tmp_path, script: str = ""):
    return local_page(browser, tmp_path, PAGE.replace("{script}", script))


def test_a_focused_element_the_page_redraws_is_not_a_missing_focus_style(playwright_browser, tmp_path):
    context, page = _page(playwright_browser, tmp_path, REDRAW_B)
    try:
        page.locator("#a").focus()
        unseen = tab_to(page, "#c")
        assert unseen == [], unseen
    finally:
        context.close()


def test_a_focus_lost_without_a_redraw_is_counted(playwright_browser, tmp_path):
    context, page = _page(playwright_browser, tmp_path, BLUR_B)
    try:
        page.locator("#a").focus()
        unseen = []
        try:
            tab_to(page, "#c", unseen=unseen)
        except AssertionError:
            pass  # from the body the next Tab may start over; either way the loss is counted
        assert unseen and unseen[0].endswith("nothing is focused"), unseen
    finally:
        context.close()


def test_a_tab_past_the_last_element_goes_on_from_the_top(playwright_browser, tmp_path):
    """From the last button, a Tab leaves the page (the browser's controls: document.hasFocus()
    is false, as a real browser's address bar has it); the next one starts at the top."""
    context, page = _page(playwright_browser, tmp_path)
    try:
        page.locator("#c").focus()
        page.keyboard.press("Tab")
        assert page.evaluate("() => [document.activeElement === document.body, document.hasFocus()]") == [True, False]
        page.locator("#c").focus()
        unseen = tab_to(page, "#b")
        assert unseen == [], unseen
        assert page.evaluate("() => document.activeElement.id") == "b"
    finally:
        context.close()


@pytest.mark.parametrize(
    ("ring_after", "counted"),
    [("true", []), ("false", ["b: no outline or box-shadow on it or on the control around it"])],
    ids=["ring-comes-with-the-redraw", "ring-never-comes"],
)
def test_a_ring_missing_while_a_slow_run_redraws_is_judged_once_the_page_is_idle(
    playwright_browser, tmp_path, ring_after, counted
):
    context, page = _page(playwright_browser, tmp_path, SLOW_RUN_B.replace("{ring_after}", ring_after))
    try:
        page.locator("#a").focus()
        unseen = tab_to(page, "#c")
        assert unseen == counted, unseen
    finally:
        context.close()
