"""Training in a real browser: a few steps, the curve, generated text, and the stop button."""

from __future__ import annotations

import re

from figures import trace_name
from harness.browser import VIEWPORT, exceptions_shown, new_context, wait_for_app, wait_for_rerun
from harness.charts import wait_for_trace
from string_table.figure_words import figure_words

TRAINING_TIMEOUT_MS = 90_000
LONG_RUN_S = 60  # the app's cap: a run that cannot end by itself within FREED_SLOT_TIMEOUT_MS
FREED_SLOT_TIMEOUT_MS = 30_000


def _type_number(page, name: str, value: int) -> None:
    field = page.get_by_role("spinbutton", name=name).first
    field.fill(str(value))
    field.press("Enter")
    wait_for_rerun(page)


def _open_train_page(page, url: str, steps: int) -> None:
    """The Train page, the copying corpus, context 16 and a budget of ``steps``."""
    page.goto(f"{url}/train")
    wait_for_app(page)
    page.get_by_text("copying", exact=True).click()
    _type_number(page, "context", 16)
    _type_number(page, "steps", steps)


def _start_long_training(page, url: str) -> None:
    """Start a 60-second run and wait until its live curve is up."""
    _open_train_page(page, url, steps=20)
    page.get_by_text("seconds", exact=True).first.click()
    wait_for_rerun(page)
    _type_number(page, "seconds", LONG_RUN_S)
    page.get_by_role("button", name="Train").click()
    page.get_by_text("train loss").first.wait_for(timeout=TRAINING_TIMEOUT_MS)


def test_train_a_few_steps_then_see_the_curve_and_generate(shared_server, browser_page):
    page = browser_page
    _open_train_page(page, shared_server.url, steps=40)
    page.get_by_role("button", name="Train").click()
    page.get_by_text("Trained 40 steps").wait_for(timeout=TRAINING_TIMEOUT_MS)
    wait_for_trace(page, "held-out loss")
    prompt = page.get_by_role("textbox", name="Prompt")
    prompt.fill("ROMEO: abc=")
    prompt.press("Control+Enter")
    wait_for_rerun(page)
    page.get_by_role("button", name="Generate").click()
    page.locator("[data-testid='stCode']", has_text="ROMEO: abc=").first.wait_for(timeout=30_000)
    assert page.get_by_text("Left out of the prompt").count() == 1, "R, O, M, E, : are not in the copying corpus"
    assert exceptions_shown(page) == 0


def test_stop_button_ends_training_and_keeps_the_model(shared_server, browser_page):
    page = browser_page
    _start_long_training(page, shared_server.url)
    page.get_by_role("button", name="Stop").click()
    page.get_by_text("stopped at step").wait_for(timeout=30_000)
    assert page.get_by_text(re.compile(r"^Trained \d+ steps")).count() == 0, "the run did not reach its budget"
    assert exceptions_shown(page) == 0
    # the slot was freed: another run starts and ends
    page.get_by_text("steps", exact=True).first.click()
    wait_for_rerun(page)
    _type_number(page, "steps", 20)
    page.get_by_role("button", name="Train").click()
    page.get_by_text("Trained 20 steps").wait_for(timeout=TRAINING_TIMEOUT_MS)


def test_a_second_student_waits_for_the_slot_and_a_closed_tab_frees_it(shared_server, playwright_browser):
    first = new_context(playwright_browser, viewport=VIEWPORT)
    second = new_context(playwright_browser, viewport=VIEWPORT)
    try:
        _start_long_training(first.new_page(), shared_server.url)
        page = second.new_page()
        _open_train_page(page, shared_server.url, steps=20)
        page.get_by_role("button", name="Train").click()
        page.get_by_text("Waiting for a free training slot").wait_for(timeout=30_000)
        first.close()  # the first student closes the tab: their run stops and frees the slot
        # Well before the first run's 60 s could end by itself: only a freed slot lets this pass.
        page.get_by_text("Trained 20 steps").wait_for(timeout=FREED_SLOT_TIMEOUT_MS)
    finally:
        second.close()


PROJECTOR = {"width": 1366, "height": 768}


def test_the_experiment_tab_draws_seed_bands_at_projector_size(shared_server, playwright_browser):
    from harness.charts import read_traces
    from harness.server import ARTIFACTS

    for lang, tab, band in (
        ("en", "The heads experiment", "h = 8: lowest–highest seed"),
        ("zh", "多头实验", "h = 8：各种子的最低–最高"),
    ):
        context = new_context(playwright_browser, viewport=PROJECTOR)
        try:
            page = context.new_page()
            page.goto(f"{shared_server.url}/train?lang={lang}")
            wait_for_app(page)
            page.get_by_role("tab", name=tab).click()
            wait_for_trace(page, band)
            traces = read_traces(page)
            assert traces[band]["fill"] == "toself"
            chart = page.locator(".js-plotly-plot").filter(has=page.locator(".fills")).first
            box = chart.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PROJECTOR["width"]
            fills = chart.locator(".fills path")
            assert fills.count() >= 4 and fills.first.is_visible(), "one band per head count is drawn"
            assert exceptions_shown(page) == 0
            chart.scroll_into_view_if_needed()
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"experiment-1366-{lang}.png"))
        finally:
            context.close()


# Every tick label of the snapshot chart's panels, as drawn: its axis, text and box.
SNAPSHOT_LABELS_JS = """plot => {
  const out = [];
  for (const layer of plot.querySelectorAll('.xaxislayer-above, .yaxislayer-above')) {
    const axis = (layer.classList.contains('xaxislayer-above') ? 'x' : 'y') + ':' + layer.closest('.subplot').classList[1];
    for (const label of layer.querySelectorAll('text')) {
      const box = label.getBoundingClientRect();
      if (label.textContent) out.push({axis, text: label.textContent, x0: box.left, x1: box.right, y0: box.top, y1: box.bottom});
    }
  }
  return out;
}"""
OVERLAP_TOLERANCE_PX = 1.0
SNAPSHOT_CASES = ((PROJECTOR, "en", "The heads experiment"), ({"width": 1024, "height": 768}, "zh", "多头实验"))


def _overlapping(labels: list[dict]) -> list[tuple[str, str]]:
    def overlap(a, b, low, high):
        return min(a[high], b[high]) - max(a[low], b[low]) > OVERLAP_TOLERANCE_PX

    return [
        (a["text"], b["text"])
        for i, a in enumerate(labels)
        for b in labels[i + 1 :]
        if overlap(a, b, "x0", "x1") and overlap(a, b, "y0", "y1")
    ]


def test_the_training_snapshots_show_the_prompt_and_labels_that_never_overlap(shared_server, playwright_browser):
    """The snapshot heatmaps (the "all heads" renderer) at a projector's size and at 1024 px:
    the prompt above them, and "position · token" labels, none overlapping."""
    for viewport, lang, tab in SNAPSHOT_CASES:
        context = new_context(playwright_browser, viewport=viewport)
        try:
            page = context.new_page()
            page.goto(f"{shared_server.url}/train?lang={lang}")
            wait_for_app(page)
            page.get_by_role("tab", name=tab).click()
            wait_for_trace(page, trace_name("weights", 3, figure_words(lang)))
            chart = page.locator(".js-plotly-plot").filter(has=page.locator(".heatmaplayer")).last
            chart.scroll_into_view_if_needed()
            prompt = page.locator("[data-testid='stCode']", has_text="But soft, what light").last
            assert prompt.is_visible() and prompt.bounding_box()["y"] < chart.bounding_box()["y"], "prompt above"
            labels = chart.evaluate(SNAPSHOT_LABELS_JS)
            axes = {label["axis"] for label in labels}
            assert "x:x4y4" in axes, "keys under the last panel (and every panel with none below it)"
            assert "y:xy" in axes, "queries beside the first panel"
            queries = [label["text"] for label in labels if label["axis"].startswith("y:")]
            keys = [label["text"] for label in labels if label["axis"].startswith("x:")]
            assert queries and all(re.match(r"^\d+ · ", text) for text in queries), "position · token"
            assert keys and all(re.match(r"^\d+\S", text) for text in keys), "position above token"
            assert _overlapping(labels) == []
            assert exceptions_shown(page) == 0
        finally:
            context.close()


CHART_TITLED_JS = """title => [...document.querySelectorAll('.js-plotly-plot')]
  .some(plot => plot.layout && plot.layout.title && plot.layout.title.text === title)"""


def test_the_experiment_tab_says_how_long_first_and_its_snapshot_slider_steps_between_snapshots(
    shared_server, browser_page
):
    """Before anything runs, how long the experiment takes here; one arrow key on the
    snapshot slider (spaced by step) goes to the next saved snapshot, never stuck between."""
    from playwright.sync_api import expect

    from string_table import t
    from ui.shared.resources import shipped_experiment

    page = browser_page
    page.goto(f"{shared_server.url}/train?corpus=copy")  # a generated corpus: every server has it
    wait_for_app(page)
    page.get_by_role("tab", name="The heads experiment").click()
    plan = page.get_by_text(
        re.compile(r"^Time needed on this server right now: about \d+ (minutes|seconds), for 12 runs")
    )
    plan.wait_for(timeout=TRAINING_TIMEOUT_MS)
    saved = sorted(shipped_experiment().snapshots(4))
    slider = page.locator("[data-testid='stSlider']").filter(has_text=t("tr.snap_step")).get_by_role("slider")
    slider.scroll_into_view_if_needed()
    assert slider.input_value() == str(saved[-1])  # an <input type="range">
    for key, expected in (("ArrowLeft", saved[-2]), ("ArrowLeft", saved[-3]), ("ArrowRight", saved[-2])):
        slider.focus()
        slider.press(key)
        wait_for_rerun(page)
        expect(slider).to_have_value(str(expected), timeout=30_000)
        page.wait_for_function(CHART_TITLED_JS, arg=t("tr.snap_title", step=expected, block=1), timeout=30_000)
    assert exceptions_shown(page) == 0
