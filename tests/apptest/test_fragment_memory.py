"""A part of a page that reruns alone (``st.fragment``) keeps its arguments for the session
until the next full run. A long text's view (tens of MB) lives only in the server's bounded
shared cache (ui/playground/computed.py), so no session may keep one through a part's
arguments: once the cache lets it go, it is gone, whichever mode the page is in."""

from __future__ import annotations

import gc

import pytest
import torch

import ui.playground.computed
import ui.views.held
from ui.explorer.views import ExplorerView
from ui.playground.computed import SHARED_VIEWS
from ui.playground.views import View

from .conftest import open_page

PAGE = "pages/1_playground.py"
TOKENS = 128  # random weights' longest text: 16 heads × 128 × 128, about 6 MB
SMALL_MB = 1  # what a session may keep itself, made smaller than such a view (8 MB: a real model's long text)


def _long_views() -> list[View]:
    gc.collect()
    return [o for o in gc.get_objects() if type(o) is View and len(o.labels) == TOKENS]


@pytest.mark.parametrize("predict", ["0", "1"])
def test_no_session_keeps_a_long_texts_view_once_the_shared_cache_lets_it_go(predict, monkeypatch):
    torch.set_num_threads(1)
    monkeypatch.setattr(ui.playground.computed, "MEMO_MAX_BYTES", SMALL_MB * 2**20)
    monkeypatch.setattr(ui.views.held, "KEEP_MAX_BYTES", SMALL_MB * 2**20)
    SHARED_VIEWS.clear()
    at = open_page(PAGE, text="ab" * (TOKENS // 2), heads="16", predict=predict)
    at.run()  # the rest of the page, as the browser asks for it after the first screen
    assert not at.exception, at.exception
    drawn = _long_views()
    assert drawn and all(view.nbytes() > SMALL_MB * 2**20 for view in drawn), "a view too large to keep"
    del drawn
    SHARED_VIEWS.clear()
    assert _long_views() == [], "a session still holds a long text's view"


def test_no_session_keeps_the_explorers_view_through_its_combined_part(monkeypatch):
    """The explorer makes its view anew on each run (its numbers come from the shared cache):
    the combined tab's part keeps it weakly once it is larger than a session may keep."""
    torch.set_num_threads(1)
    monkeypatch.setattr(ui.views.held, "KEEP_MAX_BYTES", 0)
    at = open_page("pages/4_explorer.py", model="h4", view="combined")
    at.run()
    assert not at.exception, at.exception
    assert any(c.proto.id.endswith("ex_combined_chart") for c in at.get("plotly_chart")), "the combined tab is drawn"
    gc.collect()
    assert [o for o in gc.get_objects() if type(o) is ExplorerView] == [], "a session still holds the view"
