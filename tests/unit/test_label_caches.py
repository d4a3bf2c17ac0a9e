"""Tick labels and axis categories are remembered by the labels themselves: a rerun with the
same text measures nothing again, and two different texts never share an entry."""

from __future__ import annotations

import pytest

from figures import panels, sizing
from figures.panels import categories_of, short_labels
from figures.sizing import key_ticks, query_ticks

FONT = 13
ROOMY_CELL = 100.0  # every label fits: each position is labelled


@pytest.fixture(autouse=True)
def _empty_caches():
    for cached in (sizing._key_ticks, sizing._query_ticks, panels._categories, panels._short):
        cached.cache_clear()
    yield


def test_same_labels_are_measured_once(monkeypatch):
    measured = []
    key_at, query_at = sizing._key_ticks_at, sizing._query_ticks_at
    monkeypatch.setattr(sizing, "_key_ticks_at", lambda *args: measured.append("key") or key_at(*args))
    monkeypatch.setattr(sizing, "_query_ticks_at", lambda *args: measured.append("query") or query_at(*args))
    first = (key_ticks(["a", "b"], ROOMY_CELL, FONT), query_ticks(["a", "b"], ROOMY_CELL, FONT))
    calls = len(measured)
    assert calls >= 2
    again = (key_ticks(["a", "b"], ROOMY_CELL, FONT), query_ticks(["a", "b"], ROOMY_CELL, FONT))
    assert len(measured) == calls, "the same labels at the same sizes were measured again"
    assert again == first


def test_different_texts_of_one_length_never_share_ticks():
    # Flat key labels: the position over the token (figures.sizing.key_ticks).
    assert key_ticks(["a", "b", "c"], ROOMY_CELL, FONT).texts == ("0<br>a", "1<br>b", "2<br>c")
    assert key_ticks(["x", "y", "z"], ROOMY_CELL, FONT).texts == ("0<br>x", "1<br>y", "2<br>z")
    # Query labels: "position · token" (gpt_core.tokens.POSITION_SEPARATOR).
    assert query_ticks(["a", "b"], ROOMY_CELL, FONT).texts == ("0 · a", "1 · b")
    assert query_ticks(["x", "y"], ROOMY_CELL, FONT).texts == ("0 · x", "1 · y")
    assert query_ticks(["x", "y"], ROOMY_CELL, FONT, first=5).texts == ("5 · x", "6 · y")


def test_a_list_changed_in_place_is_a_new_key():
    labels = ["a", "b"]
    assert key_ticks(labels, ROOMY_CELL, FONT).texts == ("0<br>a", "1<br>b")
    labels[1] = "<i>"
    assert key_ticks(labels, ROOMY_CELL, FONT).texts == ("0<br>a", "1<br>&lt;i&gt;")


def test_categories_are_per_text_and_a_fresh_list_each_time():
    assert categories_of(["a", "b"]) == ["0 · a", "1 · b"]
    assert categories_of(["a", "<b>"]) == ["0 · a", "1 · &lt;b&gt;"]
    assert categories_of(["a", "b"], first=3) == ["3 · a", "4 · b"]
    shown = categories_of(["a", "b"])
    shown.append("changed by a caller")
    assert categories_of(["a", "b"]) == ["0 · a", "1 · b"]


def test_short_labels_are_per_text_and_a_fresh_list_each_time():
    long_word = "abcdefghijklmnop"  # 16 characters: shortened to 9 and an ellipsis (figures.sizing)
    assert short_labels(["a", long_word]) == ["a", "abcdefghi…"]
    assert short_labels(["b", "abcdefghijk"]) == ["b", "abcdefghi…"]
    assert short_labels(["a", "short"]) == ["a", "short"]
    shown = short_labels(["a", "short"])
    shown[0] = "changed by a caller"
    assert short_labels(["a", "short"]) == ["a", "short"]
