"""Presentation mode at a projector's 1366 × 768 with the sidebar opened (to change the
language, say): the bar of previous/next at the screen's bottom stays whole beside it, each
button the topmost thing where it is drawn (before, the open sidebar covered the bar's left
end, the previous step's button). In one language: where the bar starts beside the sidebar
does not depend on the words on its buttons."""

from __future__ import annotations

import pytest

from harness.browser import IDLE, exceptions_shown, new_context

SCREEN = {"width": 1366, "height": 768}
BAR = ".st-key-ls_nav_bar"
# Each of the bar's buttons: whether the element drawn at its centre is the button itself (or
# inside it), and the bar's and the sidebar's edges.
COVERED_JS = """bar => {
  const sidebar = document.querySelector('[data-testid=stSidebar]').getBoundingClientRect();
  const buttons = [...document.querySelectorAll(`${bar} button`)].map(button => {
    const box = button.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {text: button.innerText.trim(), shown: button.contains(top)};
  });
  return {buttons, barLeft: document.querySelector(bar).getBoundingClientRect().left, sidebarRight: sidebar.right};
}"""


@pytest.fixture
def screen(playwright_browser):
    context = new_context(playwright_browser, viewport=SCREEN)
    yield context.new_page()
    context.close()


def test_an_open_sidebar_does_not_cover_the_presentation_bar(shared_server, screen):
    screen.goto(f"{shared_server.url}/lesson?present=1&step=2&lang=zh")
    screen.locator(BAR).wait_for(timeout=120_000)
    screen.wait_for_selector(IDLE, timeout=120_000)
    screen.locator("[data-testid=stExpandSidebarButton]").click()
    screen.wait_for_function(
        "() => document.querySelector('[data-testid=stSidebar]').getBoundingClientRect().right > 200", timeout=30_000
    )
    screen.wait_for_function(  # the sidebar's opening has finished: its right edge stays put
        """() => new Promise(done => { const edge = () => document.querySelector('[data-testid=stSidebar]')
             .getBoundingClientRect().right; const before = edge(); setTimeout(() => done(edge() === before), 300); })""",
        timeout=30_000,
    )
    seen = screen.evaluate(COVERED_JS, BAR)
    assert len(seen["buttons"]) == 2, seen
    assert all(button["shown"] for button in seen["buttons"]), f"a button of the bar is covered: {seen}"
    assert seen["barLeft"] >= seen["sidebarRight"] - 1, seen
    assert exceptions_shown(screen) == 0
