"""A chart's Plotly toolbar (its modebar) and the texts it covers, in the boxes
``harness.legibility`` reads."""

from __future__ import annotations

from harness.legibility import TOLERANCE_PX, Box, Chart

# The box of a chart's Plotly modebar (its toolbar: the download button and the rest), in the
# same page coordinates as READ_CHARTS_JS's, or null where it draws nothing now. Hover the
# chart first: Plotly shows its whole toolbar only then.
READ_MODEBAR_JS = r"""(index) => {
  const gd = document.querySelectorAll('.js-plotly-plot')[index];
  const bar = gd && gd.querySelector('.modebar');
  if (!bar) return null;
  const r = bar.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return null;
  let x = window.scrollX, y = window.scrollY;
  for (let p = gd.parentElement; p; p = p.parentElement) { x += p.scrollLeft; y += p.scrollTop; }
  return [r.left + x, r.top + y, r.right + x, r.bottom + y];
}"""


def modebar_problems(chart: Chart, modebar: Box | None, tolerance: float = TOLERANCE_PX) -> list[str]:
    """Texts of ``chart`` (titles, legend, labels) that its toolbar's box ``modebar`` covers."""
    if modebar is None:
        return []
    return [
        f"{chart.name}: the toolbar {modebar} covers {text}"
        for text in chart.texts
        if modebar.intersects(text.box, tolerance)
    ]


def read_modebar(page, index: int) -> Box | None:
    """Chart ``index``'s toolbar box as drawn now (see READ_MODEBAR_JS)."""
    raw = page.evaluate(READ_MODEBAR_JS, index)
    return Box.of(raw) if raw else None
