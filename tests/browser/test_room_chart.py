"""The room's answers chart as Chromium draws it: an option nobody chose shows its 0 clearly
apart from the option's words (before, the 0 stood 4 px after "6 × 4" and read as "6 × 40")."""

from __future__ import annotations

import plotly.io as pio
import pytest

from figures.room import answers_figure
from harness.browser import new_context
from string_table.figure_words import figure_words

OPTIONS = ["6 × 6", "6 × 4", "4 × 4"]
BOXES_JS = """() => [...document.querySelectorAll('.bartext, .ytick text')].map(e => {
  const r = e.getBoundingClientRect();
  return {text: e.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
})"""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("right", [None, [0]])
def test_a_zero_count_stands_apart_from_its_options_words(playwright_browser, lang, right):
    figure = answers_figure(OPTIONS, {0: 1, 2: 3}, figure_words(lang), right=right)
    context = new_context(playwright_browser, viewport={"width": 700, "height": 400})
    try:
        page = context.new_page()
        page.set_content(pio.to_html(figure, include_plotlyjs=True, full_html=True))
        page.wait_for_function("() => document.querySelectorAll('.bartext').length === 3", timeout=30_000)
        boxes = page.evaluate(BOXES_JS)
    finally:
        context.close()
    zero = next(box for box in boxes if box["text"] == "0")
    label = next(box for box in boxes if box["text"].startswith(OPTIONS[1]))
    assert zero["top"] < label["bottom"] and label["top"] < zero["bottom"], "the 0 is on its option's line"
    digit = zero["right"] - zero["left"]
    gap = zero["left"] - label["right"]
    assert gap >= 1.5 * digit, f"the 0 is {gap:.1f} px after the option's words: they read as one ({boxes})"
