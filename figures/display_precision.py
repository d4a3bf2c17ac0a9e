"""A heatmap's numbers as the browser needs them: at the precision its hover and written
values show, so that they print exactly as the exact numbers do and compress well.

A heatmap's ``z`` serves two things in the browser: the cell's colour and the numbers its
templates print (``%{z:.4f}`` on hover, ``%{z:.2f}`` written in the cell). Where every
template prints a fixed number of decimals, any value that prints the same text in each
of them serves as well as the exact one. Each is sent as the float32 of that kind whose
mantissa ends in the most zero bits: the websocket's deflate shrinks such numbers (a
third less at the book's size), 23 random bits it cannot. A value within a hair of one of
the formats' rounding ties is sent exact, so the browser's rounding of a tie never meets
ours. The colour moves by less than the finest format's last digit (1e-4 of a weight),
far under what one of a colour scale's 256 levels spans.

The exact numbers stay where a number is shown as such: the "show as table" option,
the alt text, the page's tables, downloads and the offline page read the figure built,
never this.
"""

from __future__ import annotations

import re

import numpy as np

# ``%{z}``, ``%{z:.4f}``, ``%{z:+.2f}``: the fields of a template that print the cell's value.
_Z_FIELD = re.compile(r"%\{z(?::([^}]*))?\}")
_FIXED = re.compile(r"^[+\- ]?\.(\d+)f$")  # d3-format's fixed-point type: JavaScript's toFixed
TEMPLATES = ("hovertemplate", "texttemplate")
# How close (in units of a format's last digit) to one of its ties a value is sent exact:
# the float arithmetic of rounding is exact far below this.
_TIE_MARGIN = 1e-3
_SMALLEST = np.float32(np.finfo(np.float32).smallest_subnormal)


def shown_decimals(trace: dict) -> list[int] | None:
    """The decimals each template of ``trace`` prints its ``z`` with; None where one prints
    it otherwise (no format, another type) or where the trace has Plotly's default hover,
    which prints every digit. An empty list: nothing prints ``z`` (a layer of one colour)."""
    if "hovertemplate" not in trace and trace.get("hoverinfo") != "skip":
        return None
    decimals = []
    for name in TEMPLATES:
        template = trace.get(name)
        if not isinstance(template, str):
            continue
        for form in _Z_FIELD.findall(template):
            fixed = _FIXED.match(form)
            if fixed is None:
                return None
            decimals.append(int(fixed.group(1)))
    return decimals


def _near_a_tie(values: np.ndarray, decimals: int) -> np.ndarray:
    """Where ``values`` lie within ``_TIE_MARGIN`` of one of ``decimals``' rounding ties (in
    units of the last digit): there the browser's rounding and this module's could differ."""
    scaled = values * 10.0**decimals
    return np.abs(scaled - np.floor(scaled) - 0.5) <= _TIE_MARGIN


def _printed_as(values: np.ndarray, decimals: int) -> np.ndarray:
    """The integer a fixed format of ``decimals`` prints (its digits without the point), for
    values away from its ties (where this float arithmetic is exact enough)."""
    return np.floor(values * 10.0**decimals + 0.5)


def _printed_alike(exact: np.ndarray, shown: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The magnitudes that every format prints as it prints ``exact``'s (a margin in from
    each end), as an interval [low, high] of float32s."""
    low, high = np.full(exact.shape, -np.inf), np.full(exact.shape, np.inf)
    for digits in shown:
        step, printed = 10.0**-digits, _printed_as(exact, digits)
        low = np.maximum(low, (printed - 0.5 + _TIE_MARGIN) * step)
        high = np.minimum(high, (printed + 0.5 - _TIE_MARGIN) * step)
    negative = np.signbit(exact)
    small, large = np.maximum(np.where(negative, -high, low), 0.0), np.where(negative, -low, high)
    below, above = small.astype(np.float32), large.astype(np.float32)
    # A float32 rounded outside the interval moves one float inward: non-negative floats order
    # as their bit patterns, so the next one up or down is the pattern plus or minus one.
    below.view(np.uint32)[below < small] += np.uint32(1)
    above.view(np.uint32)[above > large] -= np.uint32(1)
    return below, above


def _fewest_bits(below: np.ndarray, above: np.ndarray) -> np.ndarray:
    """The float32 in [below, above] (non-negative) whose mantissa ends in the most zero
    bits: positive floats order as their bit patterns, so it is ``above`` with every bit
    under the highest one where the two ends differ set to 0."""
    low, high = below.view(np.uint32), above.view(np.uint32)
    differ = low ^ high
    width = np.zeros(differ.shape, dtype=np.uint32)
    some = differ > 0
    width[some] = np.frexp(differ[some].astype(np.float64))[1] - 1  # the highest set bit: floor(log2)
    return np.where(some, high & ~((np.uint32(1) << width) - np.uint32(1)), high).view(np.float32)


def at_display_precision(values: np.ndarray, decimals: list[int]) -> np.ndarray:
    """Each of ``values`` (float32) replaced by the float32 with the fewest mantissa bits that
    every format of ``decimals`` prints as it prints the value; a value near one of their
    ties stays as it is, and so do NaN and ±∞. ``decimals`` empty: nothing prints them, so
    only the colour needs them, and four decimals are kept."""
    shown = sorted(set(decimals) or {4})
    single = np.ascontiguousarray(values, dtype=np.float32)
    sent = single.ravel().copy()
    with np.errstate(invalid="ignore", over="ignore"):
        # Only the cells with a value to print are worked on: a 0 (a masked weight, most of
        # a causal chart's upper half) stays exactly 0, and so do −0, NaN and ±∞.
        live = np.flatnonzero(np.isfinite(sent) & (sent != 0))
        exact = sent[live].astype(np.float64)
        settled = np.zeros(exact.shape, dtype=bool)
        for digits in shown:
            settled |= _near_a_tie(exact, digits)
        below, above = _printed_alike(exact, shown)
        below = np.maximum(below, _SMALLEST)  # a value that is not 0 is not sent as 0
        magnitude = _fewest_bits(below, above)
        candidate = np.where(np.signbit(exact), -magnitude, magnitude).astype(np.float32)
        wide = candidate.astype(np.float64)
        same = ~settled & (below <= above)  # checked again, as the browser will print it
        for digits in shown:
            same &= (_printed_as(wide, digits) == _printed_as(exact, digits)) & ~_near_a_tie(wide, digits)
        sent[live[same]] = candidate[same]
    return sent.reshape(single.shape)


def display_trace(trace: dict) -> dict:
    """A heatmap trace whose float ``z`` is sent at its templates' precision; any other trace
    (or one whose ``z`` is printed with every digit) as it is."""
    decimals = _printed_decimals(trace)
    return trace if decimals is None else {**trace, "z": at_display_precision(trace["z"], list(decimals))}


def _printed_decimals(trace: dict) -> tuple[int, ...] | None:
    """The decimals ``trace``'s float ``z`` is printed with, as ``at_display_precision`` reads
    them; None where it is sent as it is (not a heatmap, no float ``z``, every digit printed)."""
    z = trace.get("z")
    if trace.get("type") != "heatmap" or not isinstance(z, np.ndarray) or z.dtype.kind != "f":
        return None
    decimals = shown_decimals(trace)
    return None if decimals is None else tuple(sorted(set(decimals) or {4}))


def display_traces(traces: list[dict]) -> list[dict]:
    """``display_trace`` of each of ``traces``: the heatmaps printed with the same decimals
    made in one pass over all their cells (a figure's heatmaps are small, and numpy's cost
    per call, not per cell, was most of their time)."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for index, trace in enumerate(traces):
        decimals = _printed_decimals(trace)
        if decimals is not None:
            groups.setdefault(decimals, []).append(index)
    shown = list(traces)
    for decimals, members in groups.items():
        grids = [np.ascontiguousarray(traces[index]["z"], dtype=np.float32) for index in members]
        cells = at_display_precision(np.concatenate([grid.ravel() for grid in grids]), list(decimals))
        start = 0
        for index, grid in zip(members, grids, strict=True):
            shown[index] = {**traces[index], "z": cells[start : start + grid.size].reshape(grid.shape)}
            start += grid.size
    return shown
