"""A downloaded chart is as legible as the chart on the page: every kind of chart (the
playground's overview, one-head detail, q·k, one token, combined and channel-map charts, a
lesson chart, an explorer chart), in English and in Chinese, downloaded as Plotly's download
button makes it (``Plotly.downloadImage`` with the chart's own options) as an SVG and as a
PNG at 1× and 2×.

The SVG is opened by itself in Chromium, as a student opens the file: none of the page's web
fonts. Its texts must not overlap, nor be cut off by its edge or by the clip that holds them
(harness/export_legibility.py, with harness/legibility.py's rules). Each PNG must draw that
same SVG: its pixels against the SVG's own rendering at the PNG's scale. The SVGs and PNGs
are kept in test-artifacts/exports/.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import urlencode

import pytest

from harness.browser import APP_READY_TIMEOUT_MS, new_context, wait_for_app, wait_for_rerun
from harness.charts import wait_for_charts
from harness.export_legibility import MAX_DIFFERING_SHARE, differing_share, read_svg, rendered, svg_problems
from harness.server import ARTIFACTS

EXPORTS = ARTIFACTS / "exports"
VIEWPORT = {"width": 1366, "height": 768}
SCALES = (1, 2)
TEXT = "to be or not"
# page -> (link, the keys of the charts to download: every kind the page has, or one)
PAGES = {
    "playground": (
        {"text": TEXT},
        {
            "pg_overview_chart",
            "pg_detail_chart",
            "pg_qk_chart",
            "pg_token_chart",
            "pg_combined_mean_chart",
            "pg_combined_rollout_chart",
            "pg_channel_chart",
        },
    ),
    "lesson": ({}, {"ls_chart_1_qkv"}),
    "explorer": ({"model": "h4"}, {"ex_grid_chart"}),
}
# The st-key of each displayed chart's container (null: none), and whether it is displayed.
CHART_KEYS_JS = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(gd => {
  const box = gd.closest('[class*="st-key-"]');
  const key = box ? Array.from(box.classList).find(c => c.startsWith('st-key-')).slice(7) : null;
  const r = gd.getBoundingClientRect();
  return [key, r.width > 0 && r.height > 0];
})"""
# What the download button does with the chart's own options (ui/export.py), at a format and scale.
DOWNLOAD_JS = """([index, format, scale]) => {
  const gd = document.querySelectorAll('.js-plotly-plot')[index];
  return Plotly.downloadImage(gd, {...gd._context.toImageButtonOptions, format, scale}).then(() => null);
}"""


@pytest.fixture(scope="module")
def viewers(playwright_browser):
    """A page at each scale for opening exported files by themselves."""
    contexts = {scale: playwright_browser.new_context(viewport=VIEWPORT, device_scale_factor=scale) for scale in SCALES}
    yield {scale: context.new_page() for scale, context in contexts.items()}
    for context in contexts.values():
        context.close()


def _download(page, index: int, image_format: str, scale: int, path: Path) -> None:
    with page.expect_download() as caught:
        page.evaluate(DOWNLOAD_JS, [index, image_format, scale])
    shutil.copyfile(caught.value.path(), path)


def _check_chart(page, viewers, index: int, name: str) -> list[str]:
    """Download chart ``index`` as an SVG and as PNGs; what is wrong with them."""
    svg = EXPORTS / f"{name}.svg"
    _download(page, index, "svg", 1, svg)
    lines = svg_problems(read_svg(viewers[1], svg, svg.name))
    for scale in SCALES:
        png = EXPORTS / f"{name}@{scale}x.png"
        _download(page, index, "png", scale, png)
        share = differing_share(png.read_bytes(), rendered(viewers[scale], svg))
        if share > MAX_DIFFERING_SHARE:
            lines.append(f"{png.name}: {share:.1%} of its pixels differ from its SVG's at {scale}×")
    return lines


def _check_shown(page, viewers, wanted: set[str], done: set[str], lang: str) -> list[str]:
    lines = []
    for index, (key, shown) in enumerate(page.evaluate(CHART_KEYS_JS)):
        if shown and key in wanted and key not in done:
            done.add(key)
            page.locator(".js-plotly-plot").nth(index).scroll_into_view_if_needed()
            lines += _check_chart(page, viewers, index, f"{key}-{lang}")
    return lines


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(PAGES))
def test_a_downloaded_chart_is_legible_on_its_own(shared_server, playwright_browser, viewers, name, lang):
    link, wanted = PAGES[name]
    query = {**link, **({"lang": lang} if lang != "en" else {})}
    EXPORTS.mkdir(parents=True, exist_ok=True)
    context = new_context(playwright_browser, viewport=VIEWPORT, accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(f"{shared_server.url}/{name}?{urlencode(query)}")
        wait_for_charts(page)
        wait_for_app(page)
        done: set[str] = set()
        lines = _check_shown(page, viewers, wanted, done, lang)
        for tab in range(page.get_by_role("tab").count() if wanted - done else 0):  # charts in tabs
            page.get_by_role("tab").nth(tab).click()
            page.wait_for_function(
                "n => document.querySelectorAll('[role=tab]')[n].getAttribute('aria-selected') === 'true'",
                arg=tab,
                timeout=APP_READY_TIMEOUT_MS,
            )
            wait_for_rerun(page)  # only the open tab is drawn (ui/lazy_tabs.py)
            lines += _check_shown(page, viewers, wanted, done, lang)
        assert done == wanted, f"charts not found: {sorted(wanted - done)}"
        assert not lines, f"{len(lines)} problems in downloaded charts:\n" + "\n".join(lines[:40])
    finally:
        context.close()
