"""A chart downloaded from Plotly's own modebar button, in a real Chromium: the format and
scale chosen in the sidebar, the name that says what the chart shows, and a file that opens
(an SVG with the chart's text in it, its size times the scale; a PNG of twice the chart's
size at scale 2), on a white background."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlencode

from gpt_core import PlaygroundConfig, trace_attention
from harness.browser import exceptions_shown, settled_value, wait_for_rerun
from harness.charts import wait_for_charts
from harness.server import ARTIFACTS
from string_table import t
from ui.playground.views import OVERVIEW_CHART_KEY

LINK = {"text": "to be or not", "heads": "3", "head_dim": "4"}
CHART = f".st-key-{OVERVIEW_CHART_KEY} .js-plotly-plot"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SVG_NS = "{http://www.w3.org/2000/svg}"


def _expected_name() -> str:
    T = len(trace_attention(LINK["text"], PlaygroundConfig(heads=3, head_dim=4)).labels)
    return f"heads_weights_T{T}_h3_d4"


def _choose(page, widget: str, label: str, check_js: str) -> None:
    folded = page.locator(".st-key-export_box details:not([open]) > summary")
    if folded.count():  # the sidebar's download settings are folded until opened
        folded.first.click()
    page.locator(f".st-key-{widget} button", has_text=label).first.click()
    wait_for_rerun(page)
    page.wait_for_function(f"() => {{ const gd = document.querySelector('{CHART}'); return gd && ({check_js}); }}")


# For every chart on the page: whether its download button (by title) is drawn, in sight
# without hovering (its group's opacity) and inside the chart's box.
BUTTONS_SHOWN_JS = """title => Array.from(document.querySelectorAll('.js-plotly-plot')).map(plot => {
  const button = Array.from(plot.querySelectorAll('.modebar-btn')).find(b => b.getAttribute('data-title') === title);
  if (!button) return {found: false};
  const opacity = Number(getComputedStyle(button.closest('.modebar-group')).opacity);
  const box = button.getBoundingClientRect(), chart = plot.getBoundingClientRect();
  return {found: true, opacity, inside: box.width > 0 && box.left >= chart.left - 1 && box.right <= chart.right + 1
          && box.top >= chart.top - 1 && box.bottom <= chart.bottom + 1};
})"""


def _download(page, title: str):
    chart = page.locator(CHART)
    chart.hover()
    button = chart.locator(f".modebar-btn[data-title='{title}']")
    button.wait_for(state="visible")
    with page.expect_download() as caught:
        button.click()
    return caught.value


def _open(server, page) -> None:
    page.goto(f"{server.url}/playground?{urlencode(LINK)}")
    wait_for_charts(page)
    page.wait_for_selector(CHART)


def test_the_overview_downloads_as_an_svg_named_for_what_it_shows(shared_server, browser_page):
    page = browser_page
    _open(shared_server, page)
    _choose(page, "export_format_select", "SVG", "gd._context.toImageButtonOptions.format === 'svg'")
    _choose(page, "export_scale_select", "3×", "gd._context.toImageButtonOptions.scale === 3")
    title = t("export.button", "en", format="SVG")
    page.mouse.move(0, 0)  # over no chart: the download buttons are still in sight
    shown = settled_value(page, BUTTONS_SHOWN_JS, title)  # after Plotly's fade, were there one
    assert len(shown) >= 2 and all(b["found"] and b["inside"] and b["opacity"] == 1 for b in shown), shown
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(CHART).screenshot(path=str(ARTIFACTS / "export_button.png"))
    download = _download(page, title)
    assert download.suggested_filename == _expected_name() + ".svg"
    root = ET.parse(Path(download.path())).getroot()  # the file opens as XML
    assert root.tag == SVG_NS + "svg"
    texts = ["".join(node.itertext()) for node in root.iter(SVG_NS + "text")]
    assert any(text.strip() == "head 2" for text in texts), texts  # a head's title
    assert any("0 · t" in text for text in texts), texts  # a token's label
    assert any("softmax" in text for text in texts), texts  # the stage's title
    styles = " ".join(node.get("style", "") for node in root.iter(SVG_NS + "text"))
    assert "Source Sans" in styles, "the SVG names the chart's font"
    view_width, view_height = (float(n) for n in root.get("viewBox").split()[2:])
    assert (float(root.get("width")), float(root.get("height"))) == (3 * view_width, 3 * view_height)
    backgrounds = [
        rect
        for rect in root.iter(SVG_NS + "rect")
        if float(rect.get("width", 0)) == view_width and "fill: rgb(255, 255, 255)" in rect.get("style", "")
    ]
    assert backgrounds, "a white background, not a transparent one"
    assert exceptions_shown(page) == 0 and not page.console_errors


def test_the_overview_downloads_as_a_png_at_twice_its_size(shared_server, browser_page):
    page = browser_page
    _open(shared_server, page)
    _choose(page, "export_format_select", "PNG", "gd._context.toImageButtonOptions.format === 'png'")
    _choose(page, "export_scale_select", "2×", "gd._context.toImageButtonOptions.scale === 2")
    css_width, css_height = page.evaluate(
        f"() => {{ const l = document.querySelector('{CHART}')._fullLayout; return [l.width, l.height]; }}"
    )
    download = _download(page, t("export.button_scaled", "en", format="PNG", scale=2))
    assert download.suggested_filename == _expected_name() + ".png"
    data = Path(download.path()).read_bytes()
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    # The canvas is a whole number of pixels: twice the CSS size, less any half pixel.
    assert abs(width - 2 * css_width) < 1 and abs(height - 2 * css_height) < 1, (width, height, css_width, css_height)
    assert exceptions_shown(page) == 0 and not page.console_errors
