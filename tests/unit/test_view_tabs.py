"""One tab dispatch (ui/views/tabs.py): each page's table has a view for every tab its link
can name and no view without a tab; a table that misses one is refused before anything is
drawn."""

from __future__ import annotations

import re

import pytest

from links.explorer import VIEWS as EXPLORER_TABS
from links.playground import VIEWS as PLAYGROUND_TABS
from ui.explorer.page import tab_views as explorer_tab_views
from ui.playground.page import tab_views as playground_tab_views
from ui.views.tabs import check_table, draw_open_tab


def test_each_pages_table_has_a_view_for_every_tab_of_its_link_and_no_other():
    assert set(playground_tab_views(None, {}, "", "en")) == set(PLAYGROUND_TABS)
    assert set(explorer_tab_views(None, "en")) == set(EXPLORER_TABS)
    assert all(callable(view) for view in playground_tab_views(None, {}, "", "en").values())


@pytest.mark.parametrize(
    ("table", "named"),
    [({"a": print}, "['b']"), ({"a": print, "b": print, "c": print}, "['c']")],
)
def test_a_tab_without_a_view_or_a_view_without_a_tab_is_refused_before_drawing(table, named):
    check_table(["a", "b"], {"a": print, "b": print})  # a whole table passes
    with pytest.raises(ValueError, match=re.escape(named)):
        draw_open_tab(["a", "b"], table, "k", "en", "pg.tab")
