"""Driving a page from the keyboard alone, and seeing where the focus is.

``tab_to`` presses Tab (or Shift+Tab) until the focus is on what a selector names, checking
at every stop on the way that the focus can be seen: the focused element is visible and it,
or what the eye sees as the control around it, has an outline or a box-shadow. A stop past
the page's last element (the browser's own controls have the focus, and the next Tab starts
again at the top) is the browser's, not the page's.
"""

from __future__ import annotations

from harness.browser import APP_READY_TIMEOUT_MS, IDLE

NOTHING_FOCUSED = "nothing is focused"  # FOCUS_RING_JS's reason when the focus is on no element
# FOCUS_RING_JS's reason when a Tab took the focus past the page's last element, to the
# browser's own controls (a real browser's address bar): the next Tab starts over at the top.
LEFT_THE_PAGE = "the focus left the page"
# Whether the app redrew the page since the last key: a run has started since, or one is running,
# or the page removed the focused element since (a run's last redraw can land after the app's
# state says it is idle). (Pages made by harness.browser.new_context record these times; on
# others nothing is excused.)
REDRAWN_JS = (
    f"() => !document.querySelector({IDLE!r}) || "
    "(window.__lastRunStart !== undefined && window.__lastRunStart >= window.__lastAction) || "
    "(window.__focusRemoved !== undefined && window.__focusRemoved >= window.__lastAction)"
)

# What the focus looks like now: {ok, name, ring} or {ok: false, name, why}. Streamlit hides
# the inputs of radio buttons, switches and slider thumbs in a clipped 1-pixel box, and a
# select box's input sits borderless inside its frame, so the ring is looked for on the
# focused element and on its ancestors within the same widget, above any clipped tiny box.
FOCUS_RING_JS = r"""() => {
  const focused = document.activeElement;
  if (!focused || focused === document.body) {
    return { ok: false, name: "", why: document.hasFocus() ? "nothing is focused" : "the focus left the page" };
  }
  const key = focused.closest("[class*='st-key-']");
  const name = (focused.getAttribute("aria-label") || focused.innerText || focused.tagName).replace(/\s+/g, " ").trim().slice(0, 40)
    + (key ? " in ." + Array.from(key.classList).find((c) => c.startsWith("st-key-")) : "");
  if (!focused.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
    return { ok: false, name, why: "the focused element is not visible" };
  }
  const widget = focused.closest("[data-testid='stElementContainer']");
  const nodes = [];
  for (let node = focused; node && node !== widget; node = node.parentElement) {
    nodes.push(node);
    if (!widget) break;  // not in a widget: only the element itself
  }
  let first = 0;
  nodes.forEach((node, i) => {
    const box = node.getBoundingClientRect(), style = getComputedStyle(node);
    const clips = style.overflow !== "visible" || style.clipPath !== "none";
    if (clips && (box.width < 4 || box.height < 4)) first = i + 1;
  });
  for (const node of nodes.slice(first)) {
    const style = getComputedStyle(node);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    if (outline || style.boxShadow !== "none") {
      return { ok: true, name, ring: outline ? `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}` : style.boxShadow };
    }
  }
  return { ok: false, name, why: "no outline or box-shadow on it or on the control around it" };
}"""
# A fade-in (Plotly's toolbar takes 0.3 s) is waited for, this long at most.
RING_WAIT_MS = 2_000
MAX_TAB_PRESSES = 80


def focus_ring(page) -> dict:
    """The focus as seen now, once it is visible or after RING_WAIT_MS."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(f"() => ({FOCUS_RING_JS})().ok", timeout=RING_WAIT_MS)
    except PlaywrightTimeout:
        pass  # the caller reports what is there
    return page.evaluate(FOCUS_RING_JS)


def tab_to(page, selector: str, backwards: bool = False, unseen: list[str] | None = None) -> list[str]:
    """Press Tab (Shift+Tab when ``backwards``) until the focused element matches
    ``selector``; every stop whose focus cannot be seen is added to ``unseen`` (returned)
    as 'name: why'. Fails when the selector is not reached in MAX_TAB_PRESSES."""
    unseen = [] if unseen is None else unseen
    key = "Shift+Tab" if backwards else "Tab"
    stop = f"selector => ({{ ...({FOCUS_RING_JS})(), reached: document.activeElement?.matches(selector) ?? false }})"
    for _ in range(MAX_TAB_PRESSES):
        page.keyboard.press(key)
        here = page.evaluate(stop, selector)  # one round trip per stop while the focus shows at once
        ring = here if here["ok"] else focus_ring(page)
        if not ring["ok"] and ring["why"] == LEFT_THE_PAGE:
            continue  # past the page's end, as every page has one: the next Tab starts at the top
        if not ring["ok"] and ring["why"] == NOTHING_FOCUSED and page.evaluate(REDRAWN_JS):
            # The app redrew the page under the Tab (a run started since the key, or is still
            # running): the element that had the focus was replaced, which no focus style can
            # show. Wait for the run, and go on from where the browser's focus now starts.
            page.wait_for_selector(IDLE, timeout=APP_READY_TIMEOUT_MS)
            continue
        if not ring["ok"] and ring["why"] != NOTHING_FOCUSED and page.evaluate(REDRAWN_JS):
            # A run is redrawing the page under this stop (on a busy machine a run can take
            # longer than RING_WAIT_MS): the focus is judged as the page settles, on the same
            # element, so a ring missing for good is still reported.
            page.wait_for_selector(IDLE, timeout=APP_READY_TIMEOUT_MS)
            ring = focus_ring(page)
            if not ring["ok"] and ring["why"] == NOTHING_FOCUSED:
                continue  # the run replaced the element: as above, go on from where the focus starts
        if not ring["ok"]:
            unseen.append(f"{ring['name']}: {ring['why']}")
        if here["reached"]:
            return unseen
    raise AssertionError(f"{selector} not reached with {MAX_TAB_PRESSES} presses of {key}")
