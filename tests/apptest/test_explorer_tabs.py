"""The explorer's tabs below the grid are lazy (ui/lazy_tabs.py): only the open one is
drawn, and the open one is in the link (view=). A link opens any of them; a view the page
does not know opens the first with the link's note."""

from __future__ import annotations

import pytest

from tests.apptest.conftest import open_page

PAGE = "pages/4_explorer.py"
GRID = "ex_grid_chart"
# Each tab: its label, and the charts only it draws (written here, not read from the page).
TABS = {
    "detail": ("Stage by stage", {"ex_detail_chart"}),
    "lines": ("Lines", {"ex_lines_chart"}),
    "metrics": ("What each head does", {"ex_metric_chart"}),
    "training": ("During training", {"ex_training_chart"}),
    "generate": ("Generate", {"ex_generation_chart"}),
    "odds": ("Next-token odds", {"ex_odds_chart", "ex_odds_row_chart"}),
    "token": ("One token, every head", {"ex_token_chart"}),
    "combined": ("Heads and layers combined", {"ex_combined_chart"}),
    "cache": ("Generation with the cache", {"ex_cache_row_chart", "ex_cache_matrix_chart"}),
}
LABELS = [label for label, _ in TABS.values()]


def charts(at) -> set[str]:
    """The keys of the page's Plotly charts."""
    return {element.proto.id.rsplit("-", 1)[-1] for element in at.get("plotly_chart")}


def link(at) -> dict[str, str]:
    return {key: (value[-1] if isinstance(value, list) else value) for key, value in at.query_params.items()}


@pytest.mark.parametrize("name", list(TABS))
def test_each_tab_opens_from_the_link_and_only_it_is_drawn(name):
    at = open_page(PAGE, model="h4", view=name)
    assert not at.exception, at.exception
    label, own = TABS[name]
    assert [tab.label for tab in at.tabs] == LABELS  # every tab is offered
    assert at.session_state["ex_tab"] == label  # the link's tab is the open one
    assert charts(at) == {GRID, *own}  # the grid and the open tab's charts, no other tab's
    assert link(at)["view"] == name
    assert not at.warning  # a view the page knows: no note


def test_without_a_view_the_first_tab_is_open_and_the_link_says_so():
    at = open_page(PAGE, model="h4")
    assert not at.exception, at.exception
    assert at.session_state["ex_tab"] == "Stage by stage"
    assert charts(at) == {GRID, "ex_detail_chart"}
    assert link(at)["view"] == "detail"


def test_choosing_another_tab_draws_it_alone_and_writes_it_to_the_link():
    at = open_page(PAGE, model="h4", view="detail")
    at.session_state["ex_view"] = "odds"  # what a click on the tab sets (its on_change) before the rerun
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["ex_tab"] == "Next-token odds"
    assert charts(at) == {GRID, "ex_odds_chart", "ex_odds_row_chart"}
    assert link(at)["view"] == "odds"


@pytest.mark.parametrize(
    ("lang", "note"),
    [
        (
            "en",
            r"The link's view = \<b\>odds\</b\> can't be used (allowed: detail, lines, metrics, training, generate, "
            "odds, token, combined, cache); the default detail is shown instead.",
        ),
        (
            "zh",
            r"链接中的 view = \<b\>odds\</b\> 无法使用（允许：detail, lines, metrics, training, generate, odds, token, "
            "combined, cache）；已改用默认值 detail。",
        ),
    ],
)
def test_a_view_the_page_does_not_know_opens_the_first_tab_with_a_note(lang, note):
    """The note shows the link's value literally (its markdown escaped, as every note's)."""
    at = open_page(PAGE, model="h4", view="<b>odds</b>", lang=lang)
    assert not at.exception, at.exception
    assert at.session_state["ex_tab"] == ("Stage by stage" if lang == "en" else "逐步查看")
    assert charts(at) == {GRID, "ex_detail_chart"}
    assert link(at)["view"] == "detail"
    assert [warning.value for warning in at.warning] == [note]
