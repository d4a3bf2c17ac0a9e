"""Select boxes whose options are the tokens name the token there now, in a real Chromium:
the browser keeps a box's shown label until the server sends it a new one."""

from __future__ import annotations

import pytest

from harness.browser import exceptions_shown, new_context, wait_for_app, wait_for_rerun

PROJECTOR = {"width": 1366, "height": 768}


@pytest.fixture
def projector_page(playwright_browser):
    context = new_context(playwright_browser, viewport=PROJECTOR)
    yield context.new_page()
    context.close()


def test_the_query_box_names_the_token_after_another_tokenizer(shared_server, projector_page):
    page = projector_page
    page.goto(f"{shared_server.url}/playground?text=the+cat+sat+on+the+mat&row=3&col=1")
    wait_for_app(page)
    row_box = page.locator(".st-key-pg_row input[role='combobox']")
    assert row_box.input_value() == "3 · ␣"  # characters: position 3 is the space after "the"
    page.locator(".st-key-pg_tok").get_by_text("words", exact=True).click()
    wait_for_rerun(page)
    wait_for_app(page)
    assert row_box.input_value() == "3 · on"
    assert page.locator(".st-key-pg_col input[role='combobox']").input_value() == "1 · cat"
    assert exceptions_shown(page) == 0
