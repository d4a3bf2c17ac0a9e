"""Is a downloaded chart legible on its own? Open the exported SVG file by itself in Chromium
(no page, none of the page's web fonts: as a student's browser or viewer opens it), read the
boxes of its texts there and check them with harness/legibility.py's rules; and check that a
PNG of the chart draws that same SVG (its pixels against the SVG's own rendering at the
PNG's scale).

What is read from the SVG: every ``<text>`` of the kinds harness/legibility.py knows (tick
labels with their axis, colour-bar labels, panel, figure, axis and colour-bar titles, legend
texts), the drawing's own box (its ``viewBox``: what lies outside is cut off), and for each
text inside a group clipped by a ``clipPath`` (the legend's box), that clip's box.

What is checked: ``collisions`` (no two texts overlap) and ``clipped`` (no text outside the
drawing), both from harness/legibility.py, and no text reaching outside the clip that holds it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from harness.legibility import Box, Chart, Text, clipped, collisions, is_legible_text

# The texts of a standalone SVG document (the page is the file itself), in CSS pixels of the
# document, with the box of the clip that holds each (null: none), and the drawing's box.
READ_SVG_JS = r"""() => {
  const svg = document.documentElement;
  const box = r => [r.left, r.top, r.right, r.bottom];
  function clipBox(el) {
    for (let g = el.parentNode; g && g !== svg; g = g.parentNode) {
      const ref = g.getAttribute && g.getAttribute('clip-path');
      const m = ref && ref.match(/#([^)'"]+)/);
      const rect = m && document.getElementById(m[1]) && document.getElementById(m[1]).querySelector('rect');
      if (!rect) continue;
      const b = rect.getBBox(), ctm = g.getScreenCTM();
      const p = (x, y) => new DOMPoint(x, y).matrixTransform(ctm);
      const a = p(b.x, b.y), c = p(b.x + b.width, b.y + b.height);
      return [Math.min(a.x, c.x), Math.min(a.y, c.y), Math.max(a.x, c.x), Math.max(a.y, c.y)];
    }
    return null;
  }
  const texts = [];
  function add(el, kind, axis) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return;
    const lines = el.querySelectorAll('tspan.line');
    const text = lines.length ? Array.from(lines, l => l.textContent).join('\n') : (el.textContent || '');
    texts.push({kind, text, axis, box: box(r), clip: clipBox(el)});
  }
  for (const el of svg.querySelectorAll('g[class$="tick"] > text')) {
    const cls = Array.from(el.parentNode.classList).find(c => /tick$/.test(c)) || '';
    const m = cls.match(/^([xy]\d*)tick$/);
    if (el.closest('.cbaxis')) add(el, 'colorbar tick', null);
    else if (m) add(el, 'tick', m[1]);
  }
  for (const el of svg.querySelectorAll('.annotation-text')) add(el, 'panel title', null);
  for (const el of svg.querySelectorAll('text.gtitle')) add(el, 'figure title', null);
  for (const el of svg.querySelectorAll('.infolayer text')) {
    const cls = el.getAttribute('class') || '';
    if (/^[xy]\d*title$/.test(cls)) add(el, 'axis title', cls.replace('title', ''));
    else if (/cbtitle/.test(cls) || el.closest('.cbtitle')) add(el, 'colorbar title', null);
  }
  for (const el of svg.querySelectorAll('.legendtext')) add(el, 'legend', null);
  return {texts, area: box(svg.getBoundingClientRect())};
}"""

# A PNG draws the SVG when at most this share of its pixels differ by more than
# PIXEL_TOLERANCE (of 255) in some channel from the SVG's own rendering at the same scale:
# the edges of text and of scaled heatmap cells are smoothed a little differently.
PIXEL_TOLERANCE = 64
MAX_DIFFERING_SHARE = 0.01
SIZE_SLACK_PX = 2


@dataclass(frozen=True)
class ExportedSvg:
    chart: Chart  # its texts and its drawing's box, as harness/legibility.py reads them
    clips: list[tuple[Text, Box]]  # each text held by a clip, with that clip's box


def read_svg(page, path: Path, name: str) -> ExportedSvg:
    """The exported SVG at ``path``, opened by itself in ``page``."""
    page.goto(path.resolve().as_uri())
    page.evaluate("() => document.fonts.ready.then(() => null)")
    raw = page.evaluate(READ_SVG_JS)
    texts, clips = [], []
    for entry in raw["texts"]:
        if not is_legible_text(entry["text"]):
            continue
        text = Text(entry["kind"], entry["text"], Box.of(entry["box"]), entry["axis"])
        texts.append(text)
        if entry["clip"]:
            clips.append((text, Box.of(entry["clip"])))
    return ExportedSvg(Chart(0, name, texts, [], Box.of(raw["area"])), clips)


def svg_problems(exported: ExportedSvg) -> list[str]:
    """Everything illegible in the exported SVG, one line each."""
    chart = exported.chart
    lines = [f"{chart.title}: {a} overlaps {b}" for a, b in collisions(chart.texts)]
    lines += [
        f"{chart.title}: {text} is cut off by the SVG's edge {chart.area}" for text in clipped(chart.texts, chart.area)
    ]
    lines += [
        f"{chart.title}: {text} is cut off by its clip {clip}"
        for text, clip in exported.clips
        if not text.box.inside(clip)
    ]
    return lines


def rendered(page, path: Path) -> bytes:
    """A screenshot of the SVG at ``path`` opened by itself (at ``page``'s pixel ratio)."""
    page.goto(path.resolve().as_uri())
    page.evaluate("() => document.fonts.ready.then(() => null)")
    return page.locator("svg").first.screenshot()


def differing_share(png: bytes, reference: bytes) -> float:
    """The share of ``png``'s pixels that differ by more than PIXEL_TOLERANCE from
    ``reference``'s (over their common size: a fractional size rounds to whole pixels either
    way; sizes apart by more than SIZE_SLACK_PX: all of them)."""
    a = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
    b = np.asarray(Image.open(io.BytesIO(reference)).convert("RGB"), dtype=np.int16)
    if abs(a.shape[0] - b.shape[0]) > SIZE_SLACK_PX or abs(a.shape[1] - b.shape[1]) > SIZE_SLACK_PX:
        return 1.0
    height, width = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    difference = np.abs(a[:height, :width] - b[:height, :width]).max(axis=2)
    return float((difference > PIXEL_TOLERANCE).mean())
