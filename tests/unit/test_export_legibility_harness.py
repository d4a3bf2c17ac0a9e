"""harness/export_legibility.py on hand-made texts and pictures: an exported SVG's problems
(overlaps, text cut by the drawing's edge or by its clip), and how much of a PNG differs
from a reference picture."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from harness.export_legibility import PIXEL_TOLERANCE, ExportedSvg, differing_share, svg_problems
from harness.legibility import AXIS_TITLE, LEGEND, TICK, Box, Chart, Text

AREA = Box(0, 0, 400, 300)


def _svg(texts, clips=()):
    return ExportedSvg(Chart(0, "chart.svg", list(texts), [], AREA), list(clips))


def _png(pixels: np.ndarray) -> bytes:
    out = io.BytesIO()
    Image.fromarray(pixels.astype(np.uint8)).save(out, format="PNG")
    return out.getvalue()


def test_a_legible_export_has_no_problems():
    title = Text(AXIS_TITLE, "query (row)", Box(10, 100, 30, 180), "y")
    label = Text(TICK, "0 · t", Box(40, 100, 70, 119), "y")
    legend = Text(LEGEND, "−∞ (masked future)", Box(300, 10, 390, 30))
    assert svg_problems(_svg([title, label, legend], [(legend, Box(290, 5, 395, 35))])) == []


def test_an_axis_title_over_its_labels_is_a_problem():
    title = Text(AXIS_TITLE, "query (row)", Box(10, 100, 45, 180), "y")
    label = Text(TICK, "0 · t", Box(40, 100, 70, 119), "y")
    (line,) = svg_problems(_svg([title, label]))
    assert "overlaps" in line and "query (row)" in line and "0 · t" in line


def test_text_past_the_edge_or_its_clip_is_cut_off():
    past_edge = Text(LEGEND, "−∞ (masked future)", Box(330, 10, 420, 30))
    past_clip = Text(LEGEND, "negative product", Box(200, 40, 290, 60))
    lines = svg_problems(_svg([past_edge, past_clip], [(past_clip, Box(100, 35, 280, 65))]))
    assert len(lines) == 2
    assert "SVG's edge" in lines[0] and "masked future" in lines[0]
    assert "its clip" in lines[1] and "negative product" in lines[1]


def test_the_share_of_differing_pixels():
    white = np.full((10, 20, 3), 255)
    marked = white.copy()
    marked[0:2, 0:5] = 0  # 10 of 200 pixels black
    faint = white.copy()
    faint[:, :] = 255 - PIXEL_TOLERANCE  # every pixel off, but by no more than the tolerance
    assert differing_share(_png(marked), _png(white)) == 10 / 200
    assert differing_share(_png(faint), _png(white)) == 0.0
    assert differing_share(_png(white[:, :19]), _png(white)) == 0.0  # a pixel narrower: the common part


def test_pictures_of_other_sizes_differ_wholly():
    assert differing_share(_png(np.full((10, 20, 3), 255)), _png(np.full((10, 40, 3), 255))) == 1.0
