"""A class on one link: the second student's page computes nothing and builds no figure;
it receives the very numbers and figures the first one's did. A change of anything a
figure shows (the seed, the head, the language) builds it anew."""

from __future__ import annotations

import pytest

import gpt_core.sources
import ui.playground.page
import ui.playground.views
from gpt_core import trace_attention
from tests.apptest.conftest import open_page, open_tab

PAGE = "pages/1_playground.py"
LINK = {"text": "The cat sat on the mat.", "heads": "4", "head_dim": "8", "seed": "5"}


@pytest.fixture
def counted(monkeypatch):
    calls = {"trace": 0, "overview": 0, "detail": 0}

    def counting(name, function):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(gpt_core.sources, "trace_attention", counting("trace", trace_attention))
    views = ui.playground.views
    monkeypatch.setattr(views, "heads_overview_figure", counting("overview", views.heads_overview_figure))
    monkeypatch.setattr(views, "head_detail_figure", counting("detail", views.head_detail_figure))
    return calls


def specs(at) -> list[str]:
    return [chart.proto.spec for chart in at.get("plotly_chart")]


def test_the_second_student_on_one_link_computes_nothing_and_gets_the_same_charts(counted):
    first = open_page(PAGE, **LINK)
    assert not first.exception and counted == {"trace": 1, "overview": 1, "detail": 1}
    second = open_page(PAGE, **LINK)
    assert not second.exception
    assert counted == {"trace": 1, "overview": 1, "detail": 1}, "nothing computed or built again"
    assert specs(second) == specs(first) and len(specs(first)) >= 2, "the overview and the detail"
    shapes_first, shapes_second = open_tab(first, "shapes"), open_tab(second, "shapes")
    assert specs(shapes_second) == specs(shapes_first) and len(specs(shapes_first)) == 3, "and the channel map"


def test_what_a_figure_shows_is_in_its_key(counted):
    open_page(PAGE, **LINK)
    other_seed = open_page(PAGE, **{**LINK, "seed": "6"})
    assert counted["trace"] == 2 and counted["overview"] == 2 and counted["detail"] == 2
    other_head = open_page(PAGE, **{**LINK, "head": "2"})
    assert counted["trace"] == 2, "the same numbers"
    assert counted["overview"] == 3 and counted["detail"] == 3, "another head is outlined and detailed"
    chinese = open_page(PAGE, **{**LINK, "lang": "zh"})
    assert counted["trace"] == 2 and counted["overview"] == 4 and counted["detail"] == 4
    assert specs(chinese) != specs(open_page(PAGE, **LINK))
    assert not other_seed.exception and not other_head.exception and not chinese.exception
