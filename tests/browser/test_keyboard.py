"""Keyboard only, in Chromium: Tab, Shift+Tab, Enter, Space and the arrows reach and operate
the playground's controls and its cell choice, and the lesson's question and next step; at
every stop on the way the focus can be seen (harness/keyboard.py)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from gpt_core import PlaygroundConfig, trace_attention
from harness.browser import exceptions_shown, wait_for_app, wait_for_rerun
from harness.charts import assert_displays, read_traces, wait_for_charts
from harness.keyboard import tab_to
from harness.server import ARTIFACTS
from string_table import t

TEXT = "keys"  # four tokens: one digit names each position in the select boxes
HEADS, HEAD_DIM = 2, 4
ROW, COL = 2, 1
SOFTMAX = "softmax weights · head 1"
# The detail chart's outlines of the chosen cell (one per stage), as (x0, y0).
OUTLINES_JS = "() => (document.querySelector('.st-key-pg_detail_chart .js-plotly-plot').layout.shapes || []).map(s => [s.x0, s.y0])"


def _params(page) -> dict[str, str]:
    return {key: values[-1] for key, values in parse_qs(urlparse(page.url).query).items()}


def _replace(page, value: str) -> None:
    """Type ``value`` over the focused box's content and commit it."""
    page.keyboard.press("Control+A")
    page.keyboard.type(value)
    page.keyboard.press("Control+Enter" if page.evaluate("document.activeElement.tagName") == "TEXTAREA" else "Enter")
    wait_for_rerun(page)


def _choose(page, key: str, label: str) -> None:
    """Tab to select box ``key``, type the option's position and take it with Enter."""
    unseen = tab_to(page, f".st-key-{key} input")
    # Enter takes the highlighted option of the filtered list. A rerun still in flight (the
    # page's second run after a change) can redraw the box and close its list under the
    # keystrokes: then type again, as a person would, until the option is listed.
    option = page.get_by_role("option", name=label, exact=True)
    for _ in range(4):
        page.keyboard.type(label.split(" · ")[0])
        try:
            option.wait_for(timeout=10_000)
            break
        except PlaywrightTimeoutError:
            wait_for_rerun(page)
            page.focus(f".st-key-{key} input")
            page.keyboard.press("Control+A")
            page.keyboard.press("Backspace")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "([key, label]) => document.querySelector(`.st-key-${key} input`).value === label", arg=[key, label]
    )
    wait_for_rerun(page)
    assert not unseen, "focus not visible: " + "; ".join(unseen)


def test_the_playground_from_the_keyboard_alone(shared_server, browser_page):
    page = browser_page
    page.goto(f"{shared_server.url}/playground")
    wait_for_charts(page)
    unseen = tab_to(page, ".st-key-pg_text textarea")
    _replace(page, TEXT)
    page.wait_for_function(
        "([name, n]) => Array.from(document.querySelectorAll('.js-plotly-plot')).flatMap(p => p._fullData || [])"
        ".some(t => t.name === name && t.x && t.x.length === n)",
        arg=[SOFTMAX, len(TEXT)],
    )
    tab_to(page, ".st-key-pg_heads input", unseen=unseen)
    _replace(page, str(HEADS))
    tab_to(page, ".st-key-pg_head_dim input", unseen=unseen)
    _replace(page, str(HEAD_DIM))
    page.wait_for_function(f"() => location.search.includes('heads={HEADS}&head_dim={HEAD_DIM}')")
    assert not unseen, "focus not visible: " + "; ".join(unseen)
    labels = [f"{i} · {token}" for i, token in enumerate(TEXT)]
    _choose(page, "pg_row", labels[ROW])
    _choose(page, "pg_col", labels[COL])
    page.screenshot(path=str(ARTIFACTS / "keyboard-playground-focus.png"))  # the ring on the key's select box
    page.wait_for_function(f"() => location.search.includes('row={ROW}') && location.search.includes('col={COL}')")
    page.wait_for_function(f"() => ({OUTLINES_JS})().every(([x, y]) => x === {COL - 0.5} && y === {ROW - 0.5})")
    assert page.evaluate(OUTLINES_JS), "the chosen cell is outlined in the detail chart"
    traces = read_traces(page)
    assert traces[SOFTMAX]["x"] == labels
    assert f"softmax weights · head {HEADS}" in traces and f"softmax weights · head {HEADS + 1}" not in traces
    expected = trace_attention(TEXT, PlaygroundConfig(heads=HEADS, head_dim=HEAD_DIM)).trace.weights[0, 0].numpy()
    assert_displays(traces[SOFTMAX], expected)
    params = _params(page)
    assert (params["text"], params["row"], params["col"]) == (TEXT, str(ROW), str(COL))
    tab_to(page, ".st-key-pg_head_dim input", backwards=True, unseen=unseen)  # and back again
    assert not unseen, "focus not visible: " + "; ".join(unseen)
    assert exceptions_shown(page) == 0


def test_the_lesson_from_the_keyboard_alone(shared_server, browser_page):
    """Step 1's question answered (Space on the first option, 6 × 6 for the book's six
    characters), checked with Enter, then Enter on Next; an arrow key in the radio group
    stays the group's."""
    page = browser_page
    page.goto(f"{shared_server.url}/lesson?step=1")
    wait_for_app(page)
    unseen = tab_to(page, ".st-key-ls_answer_1 input")
    page.keyboard.press("Space")
    wait_for_rerun(page)
    page.keyboard.press("ArrowRight")  # the next option, not the next step
    wait_for_rerun(page)
    page.keyboard.press("ArrowLeft")
    wait_for_rerun(page)
    assert _params(page)["step"] == "1"
    checked = page.locator(".st-key-ls_answer_1 input:checked")
    assert checked.count() == 1 and checked.evaluate("input => input.closest('label').innerText") == "6 × 6"
    tab_to(page, ".st-key-ls_check_1 button", unseen=unseen)
    page.keyboard.press("Enter")
    page.locator("[data-testid='stAlert']", has_text=t("ls.right", "en", why="").strip()).wait_for()
    # The check's run may still be redrawing the question: a Tab pressed now can land on an
    # element the run then replaces, and the focus falls back to the page's body.
    wait_for_rerun(page)
    tab_to(page, ".st-key-ls_next_ls_step_bottom button", unseen=unseen)
    page.keyboard.press("Enter")
    page.wait_for_function("() => new URLSearchParams(location.search).get('step') === '2'")
    page.get_by_text(t("ls.2.title", "en")).first.wait_for()
    assert not unseen, "focus not visible: " + "; ".join(unseen)
    assert exceptions_shown(page) == 0
