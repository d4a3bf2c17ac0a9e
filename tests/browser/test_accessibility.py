"""No serious or critical WCAG 2.1 A/AA violation on any page, in either language.

Each page is loaded in Chromium at 1366×768 as a student first sees it (the page's runs
finished, its charts drawn), then axe-core checks the whole document: the shared sidebar,
the page's own markup, Streamlit's widgets and the text inside Plotly's SVG.
"""

from __future__ import annotations

import pytest

from harness.accessibility import axe_script, blocking, report, run_axe
from harness.browser import new_context, wait_for_app
from ui.shell import PAGES

FIRST_SCREEN = {"width": 1366, "height": 768}
LANGUAGES = ("en", "zh")  # en is the default: its link carries no lang
# Every Plotly chart Streamlit has put on the page is drawn (Plotly's SVG is in it).
CHARTS_DRAWN_JS = """() => {
  const slots = document.querySelectorAll("[data-testid='stPlotlyChart']");
  const plots = Array.from(document.querySelectorAll('.js-plotly-plot'));
  return plots.length >= slots.length && plots.every(p => p._fullLayout && p.querySelector('.main-svg'));
}"""


@pytest.fixture(scope="module")
def page(playwright_browser):
    """One page for every case: each case opens its own link (a new Streamlit session)."""
    context = new_context(playwright_browser, viewport=FIRST_SCREEN)
    yield context.new_page()
    context.close()


def _link(base: str, page_key: str, lang: str) -> str:
    path = "" if page_key == "home" else page_key
    return f"{base}/{path}" + ("" if lang == "en" else f"?lang={lang}")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page_key", [info.key for info in PAGES])
def test_no_serious_or_critical_wcag_violation(shared_server, page, page_key, lang):
    script = axe_script()
    page.goto(_link(shared_server.url, page_key, lang))
    wait_for_app(page)
    page.wait_for_function(CHARTS_DRAWN_JS)
    found = blocking(run_axe(page, script))
    assert not found, f"axe-core on {page_key} ({lang}):\n{report(found)}"
