"""Plotly's toolbar (the download button and the rest) covers no text of its chart: hovered
(the toolbar shows whole), on every chart of the playground (each tab), of the lesson's
steps with charts by their titles (1, 2, 5, 7), and of a real model's playground with
grouped-query attention (its channel map), in English and in Chinese; that model's charts
are also checked for harness/legibility.py's rules (the channel map's row names not cut off)."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlencode

import pytest

from harness.browser import APP_READY_TIMEOUT_MS, new_context, settled_value, wait_for_app, wait_for_rerun
from harness.charts import wait_for_charts
from harness.file_server import unused_local_url
from harness.legibility import problems, settled_charts
from harness.modebar import modebar_problems, read_modebar
from harness.server import ARTIFACTS, Server, start_server, stop_server
from string_table import t

LANGS = ("en", "zh")
LESSON_STEPS = (1, 2, 5, 7)
VIEWPORT = {"width": 1366, "height": 768}
MAX_LINES = 30


# Chart ``index``'s toolbar as drawn now: its opacity and box (null where it has none).
MODEBAR_SHOWN_JS = """(index) => {
  const bar = document.querySelectorAll('.js-plotly-plot')[index]?.querySelector('.modebar');
  if (!bar) return null;
  const r = bar.getBoundingClientRect();
  return [getComputedStyle(bar).opacity, r.left, r.top, r.width, r.height];
}"""


@pytest.fixture(scope="module")
def page(playwright_browser):
    context = new_context(playwright_browser, viewport=VIEWPORT)
    yield context.new_page()
    context.close()


@pytest.fixture(scope="module")
def gqa_server(chromium_executable, tiny_model_folders, tmp_path_factory) -> Iterator[Server]:
    env = {
        "ATTENTION_MODELS": str(tiny_model_folders["llama"]),
        "HF_HUB_CACHE": str(tmp_path_factory.mktemp("cache")),
        "HF_ENDPOINT": unused_local_url().rsplit("/", 1)[0],
    }
    server = start_server("modebar-gqa", env=env)
    yield server
    stop_server(server)


def _covered(page, checked: set[int], seen: list[str] | None = None) -> list[str]:
    """Each chart displayed now and not yet checked: hovered, its toolbar against its texts
    (which ``seen`` collects)."""
    lines = []
    for index in range(page.locator(".js-plotly-plot").count()):
        chart = page.locator(".js-plotly-plot").nth(index)
        if index in checked or not chart.is_visible():
            continue
        chart.scroll_into_view_if_needed()
        for drawn in settled_charts(page, index):
            chart.hover(position={"x": 5, "y": 5})  # a corner: no hover label over the texts
            settled_value(page, MODEBAR_SHOWN_JS, index)  # Plotly's fade in: its opacity stops changing
            checked.add(index)
            if seen is not None:  # and the chart's own legibility (harness/legibility.py)
                seen += [text.text for text in drawn.texts]
                lines += problems(drawn)
            lines += modebar_problems(drawn, read_modebar(page, index))
    return lines


def _every_tab(page, checked: set[int], seen: list[str] | None = None) -> list[str]:
    lines = _covered(page, checked, seen)
    for tab in range(page.get_by_role("tab").count()):
        page.get_by_role("tab").nth(tab).click()
        page.wait_for_function(
            "n => document.querySelectorAll('[role=tab]')[n].getAttribute('aria-selected') === 'true'", arg=tab
        )
        wait_for_rerun(page)  # only the open tab is drawn: its charts may take the indices of others
        shown: set[int] = set()
        lines += _covered(page, shown, seen)
        checked |= {len(checked) + i for i in range(len(shown))}
    return lines


def _fail_on(lines: list[str], case: str) -> None:
    lines = list(dict.fromkeys(lines))  # a chart outside the tabs is read with each tab
    if lines:
        pytest.fail(f"{case}: {len(lines)} texts under the toolbar\n" + "\n".join(lines[:MAX_LINES]), pytrace=False)


@pytest.mark.parametrize("lang", LANGS)
def test_the_toolbar_covers_no_text_of_a_playground_chart(shared_server, page, lang):
    page.goto(f"{shared_server.url}/playground?{urlencode({'lang': lang, 'heads': 4})}")
    wait_for_charts(page)
    wait_for_app(page)
    checked: set[int] = set()
    lines = _every_tab(page, checked)
    assert len(checked) >= 2, "the overview and the detail chart at least"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"modebar-playground-{lang}.png"))
    _fail_on(lines, f"playground ({lang})")


@pytest.mark.parametrize("lang", LANGS)
def test_the_toolbar_covers_no_text_of_a_lesson_chart(shared_server, page, lang):
    lines = []
    for step in LESSON_STEPS:
        page.goto(f"{shared_server.url}/lesson?lang={lang}&step={step}")
        page.get_by_text(t(f"ls.{step}.title", lang)).first.wait_for(timeout=APP_READY_TIMEOUT_MS)
        page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=APP_READY_TIMEOUT_MS)
        wait_for_app(page)
        checked: set[int] = set()
        lines += [f"step {step}: {line}" for line in _covered(page, checked)]
        assert checked, f"step {step} draws a chart"
    _fail_on(lines, f"lesson ({lang})")


@pytest.mark.parametrize("lang", LANGS)
def test_the_toolbar_covers_no_text_of_a_real_grouped_query_model(gqa_server, page, lang):
    page.goto(
        f"{gqa_server.url}/playground?{urlencode({'weights': 'tiny-llama', 'lang': lang, 'text': 'the cat sat'})}"
    )
    wait_for_charts(page)
    wait_for_app(page)
    checked: set[int] = set()
    seen: list[str] = []
    lines = _every_tab(page, checked, seen)
    assert t("fig.kv_row", lang) in seen, "the grouped-query channel map was checked (its K, V row named whole)"
    _fail_on(lines, f"real grouped-query model ({lang})")


# Each chart against the element after it: the plot (its toolbar's strip above it included)
# ends before the next element of its column starts, so no chart's bottom slides under it.
READ_BOXES_JS = """() => Array.from(document.querySelectorAll('[data-testid="stElementContainer"]'))
  .filter(el => el.querySelector('.js-plotly-plot'))
  .map(el => { let next = el.nextElementSibling;
    const shown = (node) => { const r = node.getBoundingClientRect(); return r.height > 2 && r.width > 2; };
    while (next && !shown(next)) next = next.nextElementSibling;  // hidden ones (the chart's text alternative)
    return [el.querySelector('.js-plotly-plot').getBoundingClientRect().bottom,
            next ? next.getBoundingClientRect().top : Infinity]; })"""


@pytest.mark.parametrize(("lang", "size"), [("en", (1366, 768)), ("zh", (1920, 1080))])
def test_every_chart_ends_before_the_element_after_it(shared_server, page, lang, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{shared_server.url}/playground?{urlencode({'lang': lang})}")
    wait_for_charts(page)
    wait_for_app(page)
    boxes = settled_value(page, READ_BOXES_JS)  # after Plotly's last relayout
    assert boxes, "the playground draws charts"
    assert [(plot, following) for plot, following in boxes if plot > following + 1] == []
    page.set_viewport_size(VIEWPORT)
