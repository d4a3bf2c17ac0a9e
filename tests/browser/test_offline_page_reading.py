"""The page that works offline, read as a student reads it at 1366×768: the token labels of
every chart are legible (none overlaps another, at 21 tokens and at 128), heads and layers
are numbered from 1 as in the app, the scores are coloured as in the app (positive red,
negative blue, white at 0), a space is a visible ␣, and Plotly's modebar covers no panel
title."""

from __future__ import annotations

import pytest

import seeing_attention as sa
from harness.browser import new_context

pytestmark = pytest.mark.browser

# Every chart's tick labels, axis by axis, as boxes on the page.
TICKS_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(plot => {
  const boxes = axis => [...plot.querySelectorAll(`.${axis}tick text`)].map(t => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  });
  return {role: plot.dataset.role, stage: plot.dataset.stage, x: boxes('x'), y: boxes('y')};
})"""
# Every chart's title and modebar, as boxes (the modebar shown, as a hover shows it).
TITLES_JS = """() => [...document.querySelectorAll('.js-plotly-plot[data-role]')].map(plot => {
  const box = el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  plot.querySelector('.modebar').style.opacity = 1;
  return {title: box(plot.querySelector('.gtitle')), bar: box(plot.querySelector('.modebar')),
          text: plot.querySelector('.gtitle').textContent};
})"""


def _open(browser, path):
    context = new_context(browser, viewport={"width": 1366, "height": 768}, offline=True)
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort())
    page = context.new_page()
    page.goto(path.as_uri())
    page.wait_for_function("window.seeingAttention && window.seeingAttention.ready")
    return context, page


def _overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    pairs = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]:
                pairs.append((a["text"], b["text"]))
    return pairs


@pytest.mark.parametrize(
    ("text", "tokenizer"), [("a b " * 64, "char"), ("the cat sat on the mat", "char")], ids=["128-tokens", "22-tokens"]
)
def test_no_token_label_overlaps_another_and_a_long_text_is_thinned(playwright_browser, tmp_path, text, tokenizer):
    path = tmp_path / "page.html"
    view = sa.export(path, text, tokenizer=tokenizer, heads=4)
    T = len(view.tokens)
    context, page = _open(playwright_browser, path)
    try:
        charts = page.evaluate(TICKS_JS)  # the four heads, the four stages, and a long text's map
        assert len([chart for chart in charts if chart["role"]]) == 8
        assert len(charts) == (9 if T >= 128 else 8)
        for chart in charts:
            for axis in ("x", "y"):
                boxes = chart[axis]
                assert len(boxes) >= 3, (chart["role"], chart["stage"], axis, "too few labels to read positions by")
                assert not _overlaps(boxes), (chart["role"], chart["stage"], axis, _overlaps(boxes)[:3])
                if T >= 128 and chart["role"]:
                    assert len(boxes) < T / 2, (chart["role"], axis, len(boxes), "a long text's labels are thinned")
        cut = page.locator("#sa-cut")
        if len(text) > T:
            assert cut.is_visible() and f"{len(text)} tokens" in cut.inner_text() and "first 128" in cut.inner_text()
        else:
            assert not cut.is_visible()
    finally:
        context.close()


def test_heads_and_layers_are_numbered_from_1_and_spaces_are_visible(playwright_browser, tiny_model_folders, tmp_path):
    path = tmp_path / "page.html"
    sa.export(path, "a cat", heads=3, lang="en")
    context, page = _open(playwright_browser, path)
    try:
        titles = [chart["text"] for chart in page.evaluate(TITLES_JS)]
        assert titles[:3] == ["Head 1", "Head 2", "Head 3"]
        assert page.locator("#sa-detail-heading").inner_text() == "Head 1, stage by stage"
        chips = page.evaluate("[...document.querySelectorAll('#sa-tokens .token')].map(c => c.lastChild.textContent)")
        assert chips == ["a", "␣", "c", "a", "t"]
        y_labels = page.evaluate(TICKS_JS)[0]["y"]
        assert "1 · ␣" in [label["text"] for label in y_labels]
        page.evaluate("window.seeingAttention.choose(2, 1, 0)")
        assert page.locator("#sa-hand h2").inner_text().startswith("Softmax by hand: head 3, row 1 (query ␣)")
    finally:
        context.close()

    model = tmp_path / "model.html"
    sa.export(model, "the cat sat", model=str(tiny_model_folders["qwen2"]), layer="all")
    context, page = _open(playwright_browser, model)
    try:
        assert page.get_by_label("Layer").locator("option").all_inner_texts() == ["Layer 1", "Layer 2"]
    finally:
        context.close()


def _rgb(colour: str) -> tuple[int, ...]:
    return tuple(int(part) for part in colour.removeprefix("rgb(").removesuffix(")").split(","))


def test_scores_are_coloured_as_in_the_app_and_the_modebar_covers_no_title(playwright_browser, tmp_path):
    path = tmp_path / "page.html"
    sa.export(path, "to be or not to be", heads=2)
    context, page = _open(playwright_browser, path)
    try:
        page.locator("#sa-stages input[value=scores]").check()
        page.wait_for_function(
            "[...document.querySelectorAll('[data-role=overview]')].every(p => p.dataset.stage === 'scores')"
        )
        for role_stage in ("[data-role=overview]", "[data-role=detail][data-stage=scores]"):
            full = page.evaluate(f"document.querySelector('{role_stage}')._fullData[0]")
            scale = full["colorscale"]
            low, middle, high = _rgb(scale[0][1]), _rgb(scale[len(scale) // 2][1]), _rgb(scale[-1][1])
            assert high[0] > high[2] and low[2] > low[0], ("positive red, negative blue", scale)
            assert min(middle) > 200, ("white near 0", middle)
            assert full["zmin"] == -full["zmax"] and full["zmax"] > 0, "centred on 0"
        weights = page.evaluate("document.querySelector('[data-role=detail][data-stage=weights]')._fullData[0]")
        assert min(_rgb(weights["colorscale"][0][1])) > 230 and (weights["zmin"], weights["zmax"]) == (0, 1)

        for chart in page.evaluate(TITLES_JS):
            (l1, t1, r1, b1), (l2, t2, r2, b2) = chart["title"], chart["bar"]
            assert not (l1 < r2 and l2 < r1 and t1 < b2 and t2 < b1), chart
    finally:
        context.close()


WINDOWS_JS = """() => [...document.querySelectorAll('.js-plotly-plot[data-role]')].map(plot => ({
  x: plot.data[0].x, y: plot.data[0].y, z: plot.data[0].z.length}))"""
MAP_POINT_JS = """([row, col]) => {
  const map = document.getElementById('sa-map');
  map.scrollIntoView({block: 'center'});
  const x = map._fullLayout.xaxis, y = map._fullLayout.yaxis;
  const box = map.querySelector('.main-svg').getBoundingClientRect();
  return [box.left + x._offset + x.l2p(col), box.top + y._offset + y.l2p(row)];
}"""


def _windows(page) -> set[tuple[int, int, int]]:
    """Each chart's window: its first query, its first key, its size (the same on both axes)."""
    found = set()
    for chart in page.evaluate(WINDOWS_JS):
        assert len(chart["x"]) == len(chart["y"]) == chart["z"], chart
        assert chart["x"] == list(range(chart["x"][0], chart["x"][0] + len(chart["x"]))), "consecutive keys"
        found.add((chart["y"][0], chart["x"][0], len(chart["x"])))
    return found


def test_a_long_text_opens_on_a_window_with_a_map_of_the_whole_text(playwright_browser, tmp_path):
    path = tmp_path / "page.html"
    sa.export(path, "the cat sat on the mat and looked at the dog " * 4, heads=2)  # 128 of 180 tokens
    context, page = _open(playwright_browser, path)
    try:
        ((q0, k0, size),) = _windows(page)
        assert (q0, k0) == (0, 0) and 8 <= size <= 48, "the first window holds the diagonal's start"
        assert page.locator("#sa-map").is_visible()
        extent = page.evaluate("document.getElementById('sa-map')._fullLayout.xaxis.range")
        assert extent[0] <= 0 and extent[1] >= 127, "the map holds the whole text"

        x, y = page.evaluate(MAP_POINT_JS, [100, 90])
        page.mouse.click(x, y)
        page.wait_for_function("window.seeingAttention.window.q0 > 0")
        ((q0, k0, size),) = _windows(page)
        assert q0 <= 100 < q0 + size and k0 <= 90 < k0 + size, (q0, k0, size)
        assert f"{q0}–{q0 + size - 1}" in page.locator("#sa-window-note").inner_text()

        page.locator("#sa-slide").fill("60")
        page.wait_for_function("window.seeingAttention.window.q0 === 60")
        assert _windows(page) == {(60, 60, size)}, "along the diagonal"

        page.evaluate("window.seeingAttention.choose(1, 120, 5)")
        ((q0, k0, size),) = _windows(page)
        assert q0 <= 120 < q0 + size and k0 <= 5 < k0 + size, "a chosen cell is in view"
    finally:
        context.close()

    short = tmp_path / "short.html"
    sa.export(short, "the cat sat on the mat")
    context, page = _open(playwright_browser, short)
    try:
        assert _windows(page) == {(0, 0, 22)} and not page.locator("#sa-window").is_visible()
    finally:
        context.close()
