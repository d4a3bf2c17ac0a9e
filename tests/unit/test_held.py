"""What a part of a page that reruns alone keeps of its view (ui/views/held.py): a small view
itself, a large one only while something else holds it; a part whose view is gone runs the
whole page again."""

from __future__ import annotations

import gc

import pytest

import ui.views.held as held
from ui.views.held import KEEP_MAX_BYTES, Held, in_part


class FakeView:
    """Anything a weak reference can point to."""


def test_a_small_view_is_kept_by_the_part_itself():
    view = FakeView()
    kept = Held(view, KEEP_MAX_BYTES)
    del view
    gc.collect()
    assert isinstance(kept.get(), FakeView)


def test_a_large_view_lives_only_as_long_as_something_else_holds_it():
    view = FakeView()
    kept = Held(view, KEEP_MAX_BYTES + 1)
    assert kept.get() is view, "while the shared cache (here: this test) holds it"
    del view
    gc.collect()
    assert kept.get() is None


def test_a_part_whose_view_is_gone_runs_the_whole_page_again(monkeypatch):
    asked = []

    class Rerun(Exception):
        pass

    def rerun(scope: str = "app") -> None:
        asked.append(scope)
        raise Rerun

    monkeypatch.setattr(held.st, "rerun", rerun)
    view = FakeView()
    kept = Held(view, KEEP_MAX_BYTES + 1)
    assert in_part(kept) is view and asked == []
    del view
    gc.collect()
    with pytest.raises(Rerun):
        in_part(kept)
    assert asked == ["app"]
