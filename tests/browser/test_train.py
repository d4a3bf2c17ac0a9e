"""Training in a real browser: a few steps, the curve, generated text, and the stop button."""

from __future__ import annotations

from tests.browser.helpers import exceptions_shown, wait_for_app, wait_for_trace

TRAINING_TIMEOUT_MS = 90_000


def _choose_copy_corpus_with_small_context(page) -> None:
    page.get_by_text("copying", exact=True).click()
    context = page.get_by_role("spinbutton", name="context")
    context.fill("16")
    context.press("Enter")
    page.wait_for_timeout(500)


def test_train_a_few_steps_then_see_the_curve_and_generate(shared_server, browser_page):
    page = browser_page
    page.goto(f"{shared_server.url}/train")
    wait_for_app(page)
    _choose_copy_corpus_with_small_context(page)
    steps = page.get_by_role("spinbutton", name="steps").first
    steps.fill("40")
    steps.press("Enter")
    page.wait_for_timeout(500)
    page.get_by_role("button", name="Train").click()
    page.get_by_text("Trained 40 steps").wait_for(timeout=TRAINING_TIMEOUT_MS)
    wait_for_trace(page, "held-out loss")
    page.get_by_role("button", name="Generate").click()
    page.locator("[data-testid='stCode']", has_text="ROMEO").first.wait_for(timeout=30_000)
    assert page.get_by_text("Left out of the prompt").count() == 1, "R, O, M, E are not in the copying corpus"
    assert exceptions_shown(page) == 0


def test_stop_button_ends_training_and_keeps_the_model(shared_server, browser_page):
    page = browser_page
    page.goto(f"{shared_server.url}/train")
    wait_for_app(page)
    _choose_copy_corpus_with_small_context(page)
    steps = page.get_by_role("spinbutton", name="steps").first
    steps.fill("3000")
    steps.press("Enter")
    page.wait_for_timeout(500)
    page.get_by_role("button", name="Train").click()
    page.get_by_text("train loss").first.wait_for(timeout=TRAINING_TIMEOUT_MS)  # the live curve is up
    page.get_by_role("button", name="Stop").click()
    page.get_by_text("stopped at step").wait_for(timeout=30_000)
    assert page.get_by_text("Trained 3000 steps").count() == 0
    assert exceptions_shown(page) == 0
    # the slot was freed: another run starts and ends
    steps.fill("20")
    steps.press("Enter")
    page.wait_for_timeout(500)
    page.get_by_role("button", name="Train").click()
    page.get_by_text("Trained 20 steps").wait_for(timeout=TRAINING_TIMEOUT_MS)


def _start_long_training(page, url: str) -> None:
    page.goto(f"{url}/train")
    wait_for_app(page)
    _choose_copy_corpus_with_small_context(page)
    steps = page.get_by_role("spinbutton", name="steps").first
    steps.fill("3000")
    steps.press("Enter")
    page.wait_for_timeout(500)
    page.get_by_role("button", name="Train").click()
    page.get_by_text("train loss").first.wait_for(timeout=TRAINING_TIMEOUT_MS)


def test_a_second_student_waits_for_the_slot_and_a_closed_tab_frees_it(shared_server, playwright_browser):
    from tests.browser.server import VIEWPORT

    first = playwright_browser.new_context(viewport=VIEWPORT)
    second = playwright_browser.new_context(viewport=VIEWPORT)
    try:
        _start_long_training(first.new_page(), shared_server.url)
        page = second.new_page()
        page.goto(f"{shared_server.url}/train")
        wait_for_app(page)
        _choose_copy_corpus_with_small_context(page)
        steps = page.get_by_role("spinbutton", name="steps").first
        steps.fill("20")
        steps.press("Enter")
        page.wait_for_timeout(500)
        page.get_by_role("button", name="Train").click()
        page.get_by_text("Waiting for a free training slot").wait_for(timeout=30_000)
        first.close()  # the first student closes the tab: their run stops and frees the slot
        page.get_by_text("Trained 20 steps").wait_for(timeout=TRAINING_TIMEOUT_MS)
    finally:
        second.close()
