"""What a person sees in the playground, in a real Chromium against a real server."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlparse

from figures import MASKED_COLOR
from gpt_core import PlaygroundConfig, trace_attention
from harness.browser import VIEWPORT, exceptions_shown, new_context, wait_for_app
from harness.charts import assert_displays, cell_centre, read_traces, wait_for_charts, wait_for_trace
from harness.server import ARTIFACTS
from links.playground import VIEWS
from tests.helpers import assert_the_app_shell

LINK = {"text": "to be or not", "heads": "3", "head_dim": "4", "seed": "11", "head": "2", "stage": "masked_scores"}


def _url_params(page) -> dict[str, str]:
    return {key: values[-1] for key, values in parse_qs(urlparse(page.url).query).items()}


def test_deep_link_on_a_fresh_server_reproduces_the_numbers(fresh_server, browser_page):
    browser_page.goto(f"{fresh_server.url}/playground?{urlencode(LINK)}")
    wait_for_charts(browser_page)
    wait_for_trace(browser_page, "softmax weights · head 2")
    traces = read_traces(browser_page)
    expected = trace_attention("to be or not", PlaygroundConfig(heads=3, head_dim=4, seed=11)).trace
    assert_displays(traces["softmax weights · head 2"], expected.weights[0, 1].numpy())
    assert_displays(traces["raw scores QKᵀ · head 2"], expected.scores[0, 1].numpy())
    assert "masked (−∞ above the diagonal) · head 3" in traces, "the overview shows the linked stage"
    assert _url_params(browser_page)["seed"] == "11"
    assert_the_app_shell(browser_page, "playground")
    assert exceptions_shown(browser_page) == 0
    assert not browser_page.console_errors


def test_minus_infinity_cells_render_with_their_own_colour_and_legend(shared_server, browser_page):
    browser_page.goto(f"{shared_server.url}/playground?text=abcd&heads=1")
    wait_for_charts(browser_page)
    wait_for_trace(browser_page, "−∞ cells · head 1")
    layer = read_traces(browser_page)["−∞ cells · head 1"]
    z = layer["z"]
    assert all(z[i][j] is not None for i in range(4) for j in range(4) if j > i)
    assert all(z[i][j] is None for i in range(4) for j in range(4) if j <= i)
    assert layer["colorscale"][0][1].lower() == MASKED_COLOR
    legend = browser_page.locator(".js-plotly-plot .legendtext", has_text="−∞")
    assert legend.count() >= 1 and legend.first.is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    browser_page.screenshot(path=str(ARTIFACTS / "playground.png"))


def test_typing_and_changing_heads_update_the_charts_and_the_url(shared_server, browser_page):
    browser_page.goto(f"{shared_server.url}/playground")
    wait_for_charts(browser_page)
    box = browser_page.get_by_role("textbox", name="Sequence")
    box.fill("hello")
    box.press("Control+Enter")
    browser_page.wait_for_function(
        """() => { const named = Array.from(document.querySelectorAll('.js-plotly-plot'))
             .flatMap(p => (p._fullData || []).filter(t => t.name === 'softmax weights · head 1'));
           return named.length === 2 && named.every(t => t.x && t.x.length === 5); }"""
    )
    assert read_traces(browser_page)["softmax weights · head 1"]["x"] == ["0 · h", "1 · e", "2 · l", "3 · l", "4 · o"]
    heads = browser_page.get_by_role("spinbutton", name="heads h")
    heads.fill("2")
    heads.press("Enter")
    browser_page.wait_for_function(
        """() => { const names = Array.from(document.querySelectorAll('.js-plotly-plot'))
             .flatMap(p => (p._fullData || []).map(t => t.name));
           return names.includes('softmax weights · head 2') && !names.includes('softmax weights · head 3'); }"""
    )
    browser_page.wait_for_function("() => location.search.includes('heads=2')")
    params = _url_params(browser_page)
    assert params["text"] == "hello" and params["heads"] == "2"
    expected = trace_attention("hello", PlaygroundConfig(heads=2, head_dim=8)).trace.weights[0, 1].numpy()
    assert_displays(read_traces(browser_page)["softmax weights · head 2"], expected)


def test_html_in_the_text_is_shown_as_text(shared_server, browser_page):
    browser_page.goto(f"{shared_server.url}/playground?" + urlencode({"text": "<i>x</i>", "tok": "word"}))
    wait_for_charts(browser_page)
    wait_for_trace(browser_page, "softmax weights · head 1")
    ticks = browser_page.evaluate(
        "() => Array.from(document.querySelectorAll('.js-plotly-plot')[1].querySelectorAll('.ytick text'))"
        ".map(e => e.textContent)"
    )
    assert "0 · <" in ticks, ticks
    key_lines = browser_page.evaluate(
        "() => Array.from(document.querySelectorAll('.js-plotly-plot')[1].querySelectorAll('.xtick text tspan'))"
        ".map(e => e.textContent)"
    )
    assert "<" in key_lines and "/" in key_lines, key_lines  # each token on its own line, literally
    assert browser_page.locator(".js-plotly-plot i, .js-plotly-plot a[href]").count() == 0
    assert exceptions_shown(browser_page) == 0


def test_malformed_link_shows_a_note_not_an_exception(shared_server, browser_page):
    browser_page.goto(f"{shared_server.url}/playground?heads=abc&head_dim=100000&zzz=1")
    wait_for_charts(browser_page)
    alerts = browser_page.locator("[data-testid='stAlert']")
    assert alerts.count() >= 3
    assert exceptions_shown(browser_page) == 0
    params = _url_params(browser_page)
    assert params["heads"] == "4" and "zzz" not in params


def test_hovering_a_cell_outlines_it_in_every_stage(shared_server, browser_page):
    browser_page.goto(f"{shared_server.url}/playground")
    wait_for_charts(browser_page)
    detail = browser_page.locator(".js-plotly-plot").nth(1)
    browser_page.wait_for_function(
        "() => document.querySelectorAll('.js-plotly-plot')[1] && document.querySelectorAll('.js-plotly-plot')[1].dataset.hover === 'on'"
    )
    weights_panel = detail.locator(".nsewdrag").nth(3)
    weights_panel.scroll_into_view_if_needed()
    box = weights_panel.bounding_box()
    browser_page.mouse.move(box["x"] + 2, box["y"] + 2)
    browser_page.mouse.move(box["x"] + box["width"] * 0.25, box["y"] + box["height"] * 0.75, steps=6)
    # Read the outlines in one go: moving on (or a redraw) removes them.
    boxes = browser_page.wait_for_function(
        """() => { const cells = document.querySelectorAll('.js-plotly-plot')[1].querySelectorAll('.chart-events-cell');
                   return cells.length === 4 && Array.from(cells, c => Math.round(c.getBoundingClientRect().top)); }""",
        timeout=10_000,
    ).json_value()
    assert len(boxes) == 4, "one outline per stage"
    assert len(set(boxes)) == 1, "the same row in every stage"


def test_the_page_asks_nothing_of_other_hosts(shared_server, browser_page):
    """A classroom network may block everything but the app: no fonts, icons or telemetry."""
    outside = []
    browser_page.on("request", lambda request: outside.append(request.url) if "127.0.0.1" not in request.url else None)
    for path in ("/", "/playground", "/train"):
        browser_page.goto(f"{shared_server.url}{path}")
        wait_for_app(browser_page)
        browser_page.wait_for_load_state("networkidle")
    assert outside == []


def test_typing_new_texts_one_after_another_keeps_working(shared_server, browser_page):
    """The query select box sends its choice as a label ("23 · !"); each new text changes
    every label, so an old label comes back as a plain string and must not break the page."""
    browser_page.goto(f"{shared_server.url}/playground")
    wait_for_charts(browser_page)
    box = browser_page.get_by_role("textbox", name="Sequence")
    for text in ("I ❤️ 👨‍👩‍👧‍👦 pizza 🍕 🇨🇳!", "مرحبا بالعالم שלום עולם hello"):
        box.fill(text)
        box.press("Control+Enter")
        browser_page.wait_for_function(
            "n => { const p = document.querySelectorAll('.js-plotly-plot')[1];"
            " return p && p._fullData && p._fullData[0].x.length === n; }",
            arg=len(text),
        )
        assert exceptions_shown(browser_page) == 0
        row = int(_url_params(browser_page)["row"])
        assert 0 <= row < len(text), "the query row is a position of the new text"


# Set before the page's scripts run: what was on the page when the first chart appeared.
RECORD_FIRST_CHART_JS = """new MutationObserver((_, observer) => {
  if (!document.querySelector('[data-testid="stPlotlyChart"] .heatmaplayer image')) return;
  window.__atFirstChart = {
    charts: document.querySelectorAll('[data-testid="stPlotlyChart"]').length,
    tables: document.querySelectorAll('[data-testid="stDataFrame"]').length,
    code: document.querySelectorAll('[data-testid="stCode"]').length,
    frames: document.querySelectorAll('iframe').length,
  };
  observer.disconnect();
}).observe(document, {childList: true, subtree: true});"""


def test_the_first_screen_comes_alone_and_the_rest_follows_by_itself(shared_server, playwright_browser):
    context = new_context(playwright_browser, viewport=VIEWPORT)  # a first visit: new session, empty cache
    context.add_init_script(RECORD_FIRST_CHART_JS)
    page = context.new_page()
    try:
        page.goto(f"{shared_server.url}/playground")
        page.wait_for_function("() => window.__atFirstChart !== undefined")
        assert page.evaluate("() => window.__atFirstChart") == {"charts": 1, "tables": 0, "code": 0, "frames": 0}
        wait_for_charts(page)  # and the rest, which nobody asked for
        wait_for_trace(page, "raw scores QKᵀ · head 1")  # the detail
        page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot')[1].dataset.hover === 'on'")
        assert page.get_by_role("tab").count() == len(VIEWS)
        assert exceptions_shown(page) == 0
    finally:
        context.close()


def test_every_tab_shows_its_content_when_chosen(shared_server, browser_page):
    browser_page.goto(f"{shared_server.url}/playground")
    wait_for_charts(browser_page)
    shown = "[role='tabpanel']:visible "
    for tab, selector, count in (
        ("Softmax by hand", "[data-testid='stDataFrame']", 1),
        ("Shapes: split and merge", "[data-testid='stCode']", 1),
        ("Per-head table", "[data-testid='stDataFrame']", 1),
        ("Share and download", "[data-testid='stDownloadButton']", 4),  # CSV, NPZ, Python, the page
        ("q·k by hand", ".js-plotly-plot", 1),
        ("All heads combined", ".js-plotly-plot", 2),
    ):
        browser_page.get_by_role("tab", name=tab).click()
        browser_page.locator(shown + selector).nth(count - 1).wait_for(state="visible")
        assert browser_page.locator(shown + selector).count() == count, tab
    browser_page.get_by_role("tab", name="Shapes: split and merge").click()
    wait_for_trace(browser_page, "head 1: channels 0–7")
    assert browser_page.locator(shown + ".js-plotly-plot").first.is_visible()


def _shown_choice(page, key: str, expected: str) -> str:
    """What a select box shows (the keyboard's way to the same choice), once it shows
    ``expected`` or after the wait."""
    try:
        page.wait_for_function(
            "([key, value]) => document.querySelector(`.st-key-${key} input`)?.value === value", arg=[key, expected]
        )
    except Exception:  # noqa: BLE001 - the assertion then shows what is there
        pass
    return page.locator(f".st-key-{key} input").input_value()


def _click_cell(page, key: str, axis: str, row: int, col: int) -> None:
    x, y = cell_centre(page, key, axis, row, col)
    page.mouse.move(x, y)
    page.mouse.click(x, y)


def test_clicking_a_cell_chooses_the_query_and_key_and_in_the_overview_the_head(shared_server, browser_page):
    browser_page.goto(f"{shared_server.url}/playground?text=abcdef&heads=3&head=1&row=5&col=0")
    wait_for_charts(browser_page)
    wait_for_trace(browser_page, "softmax weights · head 1")
    # The detail's first panel (raw scores, axis 1): query 3, key 1.
    _click_cell(browser_page, "pg_detail_chart", "", 3, 1)
    browser_page.wait_for_function("() => location.search.includes('row=3') && location.search.includes('col=1')")
    assert _shown_choice(browser_page, "pg_row", "3 · d") == "3 · d"
    assert _shown_choice(browser_page, "pg_col", "1 · b") == "1 · b"
    shapes = browser_page.evaluate(
        "() => document.querySelector('.st-key-pg_detail_chart .js-plotly-plot').layout.shapes"
    )
    assert shapes and all(s["x0"] == 0.5 and s["y0"] == 2.5 for s in shapes), "the clicked cell is outlined"
    # The overview's third head (axis 3): head 3, query 4, key 2.
    _click_cell(browser_page, "pg_overview_chart", "3", 4, 2)
    browser_page.wait_for_function("() => location.search.includes('head=3') && location.search.includes('row=4')")
    params = _url_params(browser_page)
    assert (params["head"], params["row"], params["col"]) == ("3", "4", "2")
    wait_for_trace(browser_page, "softmax weights · head 3")
    assert _shown_choice(browser_page, "pg_head", "head 3") == "head 3"
    assert exceptions_shown(browser_page) == 0
    assert not browser_page.console_errors


def test_a_shipped_model_in_the_playground_shows_its_trained_heads(shared_server, browser_page):
    from gpt_core.explore import trace_model
    from gpt_core.results import load_experiment
    from ui.shared.resources import EXPERIMENT_DIR

    prompt = "ROMEO: But soft, what light"
    link = {"weights": "h4", "block": "2", "text": prompt, "head": "3"}
    browser_page.goto(f"{shared_server.url}/playground?{urlencode(link)}")
    wait_for_charts(browser_page)
    wait_for_trace(browser_page, "softmax weights · head 3")
    checkpoint = load_experiment(EXPERIMENT_DIR).checkpoint(4)
    expected = trace_model(checkpoint.model, checkpoint.vocabulary, prompt).layers[1]
    assert_displays(read_traces(browser_page)["softmax weights · head 3"], expected.weights[0, 2].numpy())
    assert browser_page.get_by_text("The model fixes h = 4 heads").is_visible()
    assert _url_params(browser_page)["weights"] == "h4"
    assert exceptions_shown(browser_page) == 0
    browser_page.screenshot(path=str(ARTIFACTS / "playground-shipped-model.png"))
