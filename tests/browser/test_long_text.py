"""A long text in a real browser: a click on the map of the whole text moves the window that
every stage shows, and the link follows."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlsplit

from harness.browser import exceptions_shown, wait_for_rerun
from harness.charts import cell_centre, wait_for_charts

TEXT = "".join(chr(ord("a") + (i * 7) % 26) for i in range(120))  # 120 tokens: blocks of 2 in the map
FIRST_QUERY_JS = """name => {
  for (const plot of document.querySelectorAll('.js-plotly-plot'))
    for (const trace of plot._fullData || [])
      if (trace.name === name) return [String(trace.y[0]), String(trace.x[0])];
  return null;
}"""


def test_clicking_the_map_moves_the_window_of_every_stage(shared_server, browser_page):
    page = browser_page
    page.goto(f"{shared_server.url}/playground?{urlencode({'text': TEXT, 'tok': 'char', 'row': '90', 'col': '5'})}")
    wait_for_charts(page)
    page.locator(".st-key-pg_window_map .js-plotly-plot").wait_for()
    name = "raw scores QKᵀ · head 1"
    assert page.evaluate(FIRST_QUERY_JS, name) == [f"66 · {TEXT[66]}", f"0 · {TEXT[0]}"]
    x, y = cell_centre(page, "pg_window_map", "", 31, 41)  # tokens 31 and 41: blocks 15 and 20
    page.mouse.click(x, y)
    wait_for_rerun(page)
    page.wait_for_function(
        f"name => {{ const f = ({FIRST_QUERY_JS})(name); return f && f[0].startsWith('6 · '); }}",
        arg=name,
        timeout=30_000,
    )
    assert page.evaluate(FIRST_QUERY_JS, name) == [f"6 · {TEXT[6]}", f"16 · {TEXT[16]}"], "centred on 30 and 40"
    link = parse_qs(urlsplit(page.url).query)
    assert (link["row"], link["col"]) == (["30"], ["40"])
    assert exceptions_shown(page) == 0


def test_a_block_of_the_map_says_where_it_starts_on_hover(shared_server, browser_page):
    """Each block's first query and key travel as a typed array (figures/window.py): the
    hover reads them from it."""
    page = browser_page
    page.goto(f"{shared_server.url}/playground?{urlencode({'text': TEXT, 'tok': 'char'})}")
    wait_for_charts(page)
    page.locator(".st-key-pg_window_map .js-plotly-plot").wait_for()
    x, y = cell_centre(page, "pg_window_map", "", 31, 41)  # tokens 31 and 41: the block from 30 and 40
    page.mouse.move(x, y)
    hover = page.locator(".st-key-pg_window_map .hoverlayer .hovertext")
    hover.wait_for()
    assert "queries from 30, keys from 40" in hover.text_content()
    assert exceptions_shown(page) == 0
