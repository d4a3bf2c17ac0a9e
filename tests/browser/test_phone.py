"""A phone's browser (390×844, touch, a phone's User-Agent) on the lesson's first step, where
a student in a room starts: the step's Q, K and V go one above the other, each the column's
width, so every channel's column stays wide enough to tap and see; nothing scrolls sideways
and the chart is legible. A projector's screen keeps them side by side. Screenshots are kept
in test-artifacts/phone-*.png."""

from __future__ import annotations

import pytest

from harness.browser import exceptions_shown, new_context, wait_for_app
from harness.legibility import problems, settled_charts
from harness.server import ARTIFACTS

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1366, "height": 768}
# An Android phone's Chrome: "Mobile" in its User-Agent, as every phone browser says.
PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 "
    "Mobile Safari/537.36"
)
MIN_CHANNEL_PX = 40  # a channel's column on a phone: a fingertip's width
# The lesson's Q, K and V chart as drawn: each panel's box in CSS pixels, and the page's width.
QKV_JS = """() => {
  const gd = document.querySelector(".st-key-ls_chart_1_qkv .js-plotly-plot")
    || Array.from(document.querySelectorAll(".js-plotly-plot")).find((plot) => plot.data.length === 3);
  const size = gd._fullLayout._size;
  const box = (axis) => {
    const x = gd._fullLayout[axis.replace("y", "x")].domain, y = gd._fullLayout[axis].domain;
    return {left: size.l + x[0] * size.w, right: size.l + x[1] * size.w,
            top: size.t + (1 - y[1]) * size.h, bottom: size.t + (1 - y[0]) * size.h};
  };
  const chart = gd.getBoundingClientRect();
  return {panels: ["yaxis", "yaxis2", "yaxis3"].map(box), channels: gd.data[0].z[0].length,
          chartRight: chart.right, page: document.scrollingElement.scrollWidth, window: innerWidth};
}"""


def _step_one(browser, server_url: str, lang: str, viewport: dict, **options):
    context = new_context(browser, viewport=viewport, **options)
    page = context.new_page()
    page.goto(f"{server_url}/lesson?step=1&lang={lang}")
    wait_for_app(page)
    page.locator(".js-plotly-plot").first.wait_for()
    page.charts = settled_charts(page, 0)  # type: ignore[attr-defined]  # drawn, and done moving
    return context, page


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_on_a_phone_q_k_and_v_stand_one_above_the_other_and_fit_the_screen(shared_server, playwright_browser, lang):
    context, page = _step_one(
        playwright_browser, shared_server.url, lang, PHONE, user_agent=PHONE_AGENT, is_mobile=True, has_touch=True
    )
    try:
        drawn = page.evaluate(QKV_JS)
        q, k, v = drawn["panels"]
        assert q["bottom"] < k["top"] and k["bottom"] < v["top"], f"Q above K above V: {drawn['panels']}"
        for panel in drawn["panels"]:
            column = (panel["right"] - panel["left"]) / drawn["channels"]
            assert column >= MIN_CHANNEL_PX, f"a channel's column of {column:.0f} px: {drawn}"
        assert drawn["page"] <= drawn["window"] and drawn["chartRight"] <= drawn["window"], drawn
        for chart in page.charts:
            assert problems(chart) == []
        assert exceptions_shown(page) == 0
        page.screenshot(path=str(ARTIFACTS / f"phone-lesson-step1-{lang}.png"), full_page=True)
    finally:
        context.close()


def test_on_a_projector_they_stand_side_by_side(shared_server, playwright_browser):
    context, page = _step_one(playwright_browser, shared_server.url, "en", PROJECTOR)
    try:
        q, k, v = page.evaluate(QKV_JS)["panels"]
        assert q["right"] < k["left"] and k["right"] < v["left"], "one row: Q, K, V"
        assert q["top"] == k["top"] == v["top"]
    finally:
        context.close()
