"""Issue 10: every chart of every page is legible, whatever the input and the screen.

For each viewport and input, every displayed Plotly chart (those in tabs too, one tab at a
time) is read in the page and checked by harness/legibility.py: no two texts overlap (tick
labels, panel, axis and figure titles, colour-bar labels, legend), no tick label reaches into
another panel's plot area, no text is cut off by its chart's edge, the panels that start a
row show y labels and those that end a column show x labels, and every label shown names its
position. These tests hold for any layout that is legible: they name no size or position.
A screenshot of each case is kept in test-artifacts/legibility-<case>-<width>.png.
The playground and the explorer are checked at two screens; the lesson (each step, with what
its answer reveals), the Train page (loss curve, experiment results, snapshots) and a sentence
of ten words (each one labelled) at a projector's 1366×768 only, one page visit each.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from figures import trace_name
from gpt_core import MAX_TOKENS, tokenize, truncate_text
from gpt_core.window import window_around
from harness.browser import APP_READY_TIMEOUT_MS, new_context, wait_for_app, wait_for_rerun
from harness.charts import wait_for_charts, wait_for_trace
from harness.legibility import TICK, problems, settled_charts
from harness.server import ARTIFACTS
from string_table import t
from string_table.figure_words import figure_words

VIEWPORTS = {1366: {"width": 1366, "height": 768}, 1920: {"width": 1920, "height": 1080}}
FIRST_SCREEN = VIEWPORTS[1366]

SENTENCE_40_WORDS = (
    "When the tired students finally opened the old notebook at night, every attention head in the small "
    "model looked back at the words before it and slowly learned which ones mattered most for "
    "interpretability of the next word."
)
LONG_TEXT = (  # 175 characters: the page shows the first MAX_TOKENS
    "Attention lets every token look back at the tokens before it: queries meet keys, the scores are "
    "scaled, masked and turned into weights by a softmax, then the values are mixed."
)
ZERO_WIDTH_RTL = "👩‍💻 a\u200bb\u200dc שלום עולם مرحبا"

# case id -> (query parameters, the detail chart's stages)
CASES = {
    "book": ({"text": "动手学大模型"}, 4),
    "words40": ({"text": SENTENCE_40_WORDS, "tok": "word"}, 4),
    "chars128": ({"text": LONG_TEXT, "tok": "char"}, 4),
    "zerowidth-rtl": ({"text": ZERO_WIDTH_RTL, "tok": "char"}, 4),
    "five-panels": ({"text": "动手学大模型", "dropout": "0.2", "mode": "train"}, 5),
    "compare": ({"text": "动手学大模型", "cmp": "1"}, 4),  # two set-ups' overviews side by side and B − A
}
DETAIL_TRACE = "softmax weights · head 1"  # in the overview (its default stage) and the detail chart
DROPOUT_TRACE = "weights after dropout · head 1"  # the fifth stage of the detail chart
MAX_LINES = 40  # problems listed in a failure message
MAX_SCREENSHOT_PX = 8000

# Both charts drawn with T tokens, and (five panels) the dropout stage: the detail chart
# comes from the second run the browser starts after the first screen.
DRAWN_JS = """([name, tokens, extra]) => {
  const traces = Array.from(document.querySelectorAll('.js-plotly-plot')).flatMap(p => p._fullData || []);
  const drawn = traces.filter(t => t.name === name && t.x && t.x.length === tokens);
  return drawn.length >= 2 && (!extra || traces.some(t => t.name === extra));
}"""


def test_the_cases_are_what_they_say():
    assert len(tokenize(SENTENCE_40_WORDS, "word")) == 40
    assert len(tokenize(LONG_TEXT, "char")) > MAX_TOKENS


def _tokens(query: dict[str, str]) -> int:
    tokenizer = query.get("tok", "char")
    return len(tokenize(truncate_text(query["text"], tokenizer, MAX_TOKENS), tokenizer))


@pytest.fixture(scope="module")
def pages(playwright_browser):
    """One page per viewport, reused across cases (each case navigates to its own link)."""
    contexts, opened = [], {}

    def page_for(width: int):
        if width not in opened:
            context = new_context(playwright_browser, viewport=VIEWPORTS[width])
            contexts.append(context)
            opened[width] = context.new_page()
        return opened[width]

    yield page_for
    for context in contexts:
        context.close()


def _check_shown_charts(page, checked: set[int]) -> list[str]:
    """Problems of every chart displayed now and not yet checked; each scrolled into view."""
    lines = []
    for index in range(page.locator(".js-plotly-plot").count()):
        if index in checked:
            continue
        chart = page.locator(".js-plotly-plot").nth(index)
        if not chart.is_visible():
            continue
        chart.scroll_into_view_if_needed()
        for drawn in settled_charts(page, index):
            checked.add(index)
            lines += problems(drawn)
    return lines


def _screenshot(page, path) -> None:
    """The whole page: it scrolls inside its main section, so the window grows to its height
    for the picture (same width: the charts keep their layout) and then shrinks back."""
    viewport = dict(page.viewport_size)
    height = page.evaluate(
        "() => { const main = document.querySelector('.stMain'); return main ? main.scrollHeight : 0; }"
    )
    path.parent.mkdir(exist_ok=True)
    try:
        if height > viewport["height"]:
            page.set_viewport_size({"width": viewport["width"], "height": min(height, MAX_SCREENSHOT_PX)})
            settled_charts(page)
        page.screenshot(path=str(path))
    finally:
        page.set_viewport_size(viewport)


@pytest.mark.parametrize("width", list(VIEWPORTS), ids=[f"{w}x{VIEWPORTS[w]['height']}" for w in VIEWPORTS])
@pytest.mark.parametrize("case", list(CASES))
def test_every_chart_is_legible(shared_server, pages, case, width):
    query, stages = CASES[case]
    page = pages(width)
    page.goto(f"{shared_server.url}/playground?{urlencode(query)}")
    wait_for_charts(page)
    extra = DROPOUT_TRACE if stages == 5 else None
    shown = window_around(_tokens(query), -1, 0).size  # a long text: the window's keys
    page.wait_for_function(DRAWN_JS, arg=[DETAIL_TRACE, shown, extra], timeout=APP_READY_TIMEOUT_MS)
    wait_for_app(page)
    checked: set[int] = set()
    lines = _check_shown_charts(page, checked)
    assert checked, "no chart was displayed"
    _screenshot(page, ARTIFACTS / f"legibility-{case}-{width}.png")
    for tab in range(page.get_by_role("tab").count()):  # charts inside tabs, one tab at a time
        page.get_by_role("tab").nth(tab).click()
        page.wait_for_function(
            "n => document.querySelectorAll('[role=tab]')[n].getAttribute('aria-selected') === 'true'", arg=tab
        )
        wait_for_rerun(page)  # only the open tab is drawn (ui/lazy_tabs.py): choosing one reruns the page
        lines += _check_shown_charts(page, checked)
    if lines:
        more = f"\n… and {len(lines) - MAX_LINES} more" if len(lines) > MAX_LINES else ""
        pytest.fail(
            f"{case} at {width}×{VIEWPORTS[width]['height']}: {len(lines)} legibility problems "
            f"(screenshot: test-artifacts/legibility-{case}-{width}.png)\n" + "\n".join(lines[:MAX_LINES]) + more,
            pytrace=False,
        )


def test_a_chart_is_on_the_first_screen(shared_server, playwright_browser):
    """At 1366×768 (a classroom projector) the playground shows a chart without scrolling."""
    context = new_context(playwright_browser, viewport=FIRST_SCREEN)
    try:
        page = context.new_page()
        page.goto(f"{shared_server.url}/playground")
        wait_for_charts(page)
        top = page.evaluate(
            """() => { const main = document.querySelector('.stMain');
                       if (main) main.scrollTop = 0; window.scrollTo(0, 0);
                       return document.querySelector('.js-plotly-plot').getBoundingClientRect().top; }"""
        )
        assert top < FIRST_SCREEN["height"], f"the first chart starts at y = {top:.0f} px, below the first screen"
    finally:
        context.close()


# The explorer's charts, every tab: (query parameters), the shipped models with characters.
EXPLORER_CASES = {
    "explorer-h4": {"model": "h4", "lines": "block"},
    "explorer-h8-zh": {"model": "h8", "lang": "zh", "lines": "block", "metric": "entropy"},
}


@pytest.mark.parametrize(("case", "width"), [("explorer-h4", 1366), ("explorer-h4", 1920), ("explorer-h8-zh", 1366)])
def test_every_explorer_chart_is_legible(shared_server, pages, case, width):
    page = pages(width)
    page.goto(f"{shared_server.url}/explorer?{urlencode(EXPLORER_CASES[case])}")
    wait_for_charts(page)
    page.get_by_role("tab").first.wait_for(timeout=APP_READY_TIMEOUT_MS)  # the rest of the page
    wait_for_app(page)
    checked: set[int] = set()
    lines = _check_shown_charts(page, checked)
    drawing = 0  # tabs that draw a chart of their own beside the grid (the one chart above the tabs)
    for tab in range(page.get_by_role("tab").count()):
        page.get_by_role("tab").nth(tab).click()
        page.wait_for_function(
            "n => document.querySelectorAll('[role=tab]')[n].getAttribute('aria-selected') === 'true'", arg=tab
        )
        wait_for_rerun(page)  # only the open tab is drawn: its charts may take the indices of others
        wait_for_app(page)
        shown: set[int] = set()
        lines += _check_shown_charts(page, shown)
        drawing += len(shown) > 1
    _screenshot(page, ARTIFACTS / f"legibility-{case}-{width}.png")
    assert checked and drawing >= 6, "the grid and every tab's chart"
    lines = list(dict.fromkeys(lines))
    if lines:
        pytest.fail(
            f"{case} at {width}: {len(lines)} legibility problems\n" + "\n".join(lines[:MAX_LINES]), pytrace=False
        )


def _fail_on(lines: list[str], case: str) -> None:
    if lines:
        more = f"\n… and {len(lines) - MAX_LINES} more" if len(lines) > MAX_LINES else ""
        pytest.fail(
            f"{case} at 1366×768: {len(lines)} legibility problems\n" + "\n".join(lines[:MAX_LINES]) + more,
            pytrace=False,
        )


TEN_WORDS = "the cat sat on the mat because it was warm"


def test_every_word_of_a_ten_word_sentence_is_labelled(shared_server, pages):
    """h = 8 at 1366×768: every word names its row and its column in the overview and in the
    detail chart (each of its stages), legibly, the detail chart on one screen."""
    T, page = len(TEN_WORDS.split()), pages(1366)
    page.goto(f"{shared_server.url}/playground?{urlencode({'text': TEN_WORDS, 'tok': 'word', 'heads': 8})}")
    wait_for_charts(page)
    page.wait_for_function(DRAWN_JS, arg=[DETAIL_TRACE, T, None], timeout=APP_READY_TIMEOUT_MS)
    wait_for_app(page)
    checked: set[int] = set()
    lines = _check_shown_charts(page, checked)
    charts = [chart for chart in settled_charts(page) if any(subplot.tokens for subplot in chart.subplots)]
    assert len(charts) == 2, "the overview and the detail chart"
    for chart in charts:
        for axis in {subplot.xaxis for subplot in chart.subplots} | {subplot.yaxis for subplot in chart.subplots}:
            shown = [text for text in chart.texts if text.kind == TICK and text.axis == axis]
            assert len(shown) in (0, T), f"{chart.name}: axis {axis} names {len(shown)} of {T} words"
        assert sum(1 for text in chart.texts if text.kind == TICK) >= 2 * T
    # Values in cells of 30 px would stack the stages two by two, taller than the screen: the
    # detail chart keeps raw scores beside softmax on one screen, its values left to hover.
    height = page.evaluate("""() => document.querySelector('.st-key-pg_detail_chart .js-plotly-plot')
                                      .getBoundingClientRect().height""")
    assert height <= 768, f"the detail chart is {height:.0f} px tall, more than the screen"
    _screenshot(page, ARTIFACTS / "legibility-words10-h8-1366.png")
    _fail_on(lines, "words10-h8")


def _reveal_the_answer(page, step: int, lang: str) -> None:
    """Answer the step's question (its first option) and, if that is wrong, ask for the answer."""
    question = page.locator(f".st-key-ls_answer_{step}")
    question.get_by_role("radio").or_(question.get_by_role("combobox")).first.wait_for()  # drawn, either kind
    if question.get_by_role("radio").count():
        question.get_by_role("radio").first.check(force=True)
    else:  # several to choose: the first option of the list
        box = question.get_by_role("combobox").first
        box.click()
        box.press("ArrowDown")
        box.press("Enter")
        box.press("Escape")  # the list closes; the choice goes with the check's run
    page.get_by_role("button", name=t("ls.check", lang)).click()
    wait_for_rerun(page)
    show = page.get_by_role("button", name=t("ls.show_answer", lang))
    if show.count():
        show.click()
        wait_for_rerun(page)


def test_every_lesson_chart_is_legible(shared_server, pages):
    """Each of the lesson's steps, with the figures its answer reveals, in Chinese."""
    lang, page, lines, seen = "zh", pages(1366), [], 0
    page.goto(f"{shared_server.url}/lesson?lang={lang}&step=1")
    for step in range(1, 9):
        page.get_by_text(t(f"ls.{step}.title", lang)).first.wait_for(timeout=APP_READY_TIMEOUT_MS)
        wait_for_app(page)
        _reveal_the_answer(page, step, lang)
        checked: set[int] = set()
        lines += [f"step {step}: {line}" for line in _check_shown_charts(page, checked)]
        seen += len(checked)
        if step < 8:
            page.get_by_role("button", name=t("ls.next", lang)).first.click()
            page.wait_for_function(f"() => new URLSearchParams(location.search).get('step') === '{step + 1}'")
    assert seen >= 8, "every step draws a figure"
    _fail_on(lines, "lesson")


@pytest.mark.parametrize("present", [False, True], ids=["normal", "presenting"])
def test_every_train_chart_is_legible(shared_server, pages, present):
    """The Train page: a short run's loss curve, then the heads experiment's results and the
    training snapshots (h = 4 and h = 8: four panels in one row, then in two); and the same
    on a projector in presentation mode (larger type)."""
    page, lines = pages(1366), []
    page.goto(f"{shared_server.url}/train?corpus=copy&context=16&steps=20" + ("&present=1" if present else ""))
    wait_for_app(page)
    page.get_by_role("button", name=t("tr.start", "en")).click()
    wait_for_trace(page, figure_words("en")["train.test_loss"])
    wait_for_app(page)
    checked: set[int] = set()
    lines += _check_shown_charts(page, checked)
    assert checked, "the loss curve"
    page.get_by_role("tab", name=t("tr.tab.experiment", "en")).click()
    wait_for_trace(page, trace_name("weights", 3, figure_words("en")))
    wait_for_app(page)
    lines += _check_shown_charts(page, checked)
    if not present:  # the snapshots again, at h = 8 (presenting: h = 4 is the case)
        page.locator(".st-key-tr_snap_heads").get_by_role("combobox").click()
        page.get_by_role("option", name="8", exact=True).click()
        wait_for_trace(page, trace_name("weights", 7, figure_words("en")))
        wait_for_app(page)
        snapshots = page.locator(".js-plotly-plot").count() - 1  # the last chart of the page
        lines += _check_shown_charts(page, set(range(snapshots)))
    assert len(checked) >= 5, "the loss curve, three experiment charts and the snapshots"
    _screenshot(page, ARTIFACTS / f"legibility-train{'-present' if present else ''}-1366.png")
    _fail_on(lines, "train")
