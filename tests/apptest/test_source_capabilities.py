"""The explorer asks a source what it can do, never what it is: a model that gives no
next-token scores is explored as any other, and its odds, generation and cache tabs say why
they are empty instead of failing."""

from __future__ import annotations

import dataclasses

import pytest

import ui.shared.sources as sources
from string_table import t
from tests.apptest.conftest import open_page

PAGE = "pages/4_explorer.py"


@pytest.fixture
def mute_h4(monkeypatch):
    """The shipped 4-head model, told that it cannot generate (as a model without a
    language-model head would be)."""
    load = sources.load

    def muted(name, lang, config=None):
        source = load(name, lang, config)
        if source is not None and name == "h4":
            source.capabilities = dataclasses.replace(source.capabilities, generates=False)
        return source

    monkeypatch.setattr(sources, "load", muted)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("view", ["odds", "generate", "cache"])
def test_a_model_that_cannot_generate_says_so_where_it_would(mute_h4, view, lang):
    at = open_page(PAGE, model="h4", view=view, lang=lang)
    assert not at.exception, at.exception
    assert t("ex.no_generation", lang) in [info.value for info in at.info]
    assert not at.error
    keys = [chart.proto.id for chart in at.get("plotly_chart")]
    assert any(key.endswith("ex_grid_chart") for key in keys), "the grid of every head is still drawn"
    drawn_only_by_generating = ("ex_odds_chart", "ex_generation_chart", "ex_cache_row_chart", "ex_cache_matrix_chart")
    assert not [key for key in keys if key.endswith(drawn_only_by_generating)]


def test_a_model_that_can_generate_shows_its_odds(monkeypatch):
    at = open_page(PAGE, model="h4", view="odds")
    assert not at.exception, at.exception
    assert t("ex.no_generation", "en") not in [info.value for info in at.info]
    assert any(chart.proto.id.endswith("ex_odds_chart") for chart in at.get("plotly_chart"))
