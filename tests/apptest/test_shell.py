"""Every page runs through AppTest with the shared shell: title, page links, language."""

from __future__ import annotations

import pytest

from string_table import t
from tests.apptest.conftest import open_page
from ui.shell import PAGES

SCRIPTS = [page.path for page in PAGES]


@pytest.mark.parametrize("page", PAGES, ids=[p.key for p in PAGES])
def test_every_page_runs_and_shows_its_title_and_the_page_links(page):
    at = open_page(page.path)
    assert not at.exception, at.exception
    title = t("app.name") if page.key == "home" else t(f"page.{page.key}")
    assert any(title in heading.value for heading in at.title)
    links = at.get("page_link")
    labels = [link.proto.label for link in links]
    for info in PAGES:
        assert t(f"page.{info.key}") in labels, info.key


@pytest.mark.parametrize("page", PAGES, ids=[p.key for p in PAGES])
def test_lang_parameter_switches_every_page_to_chinese(page):
    at = open_page(page.path, lang="zh")
    assert not at.exception
    title = t("app.name", "zh") if page.key == "home" else t(f"page.{page.key}", "zh")
    assert any(title in heading.value for heading in at.title)


def test_choosing_a_language_in_the_sidebar_changes_the_text_and_the_url():
    at = open_page("app.py")
    assert at.query_params.get("lang") in (None, [])
    at.sidebar.selectbox(key="language_select").set_value("zh").run()
    assert any(t("app.name", "zh") in heading.value for heading in at.title)
    assert at.query_params["lang"] in ("zh", ["zh"])
    at.sidebar.selectbox(key="language_select").set_value("en").run()
    assert any(t("app.name", "en") in heading.value for heading in at.title)
    assert "lang" not in at.query_params


def test_unknown_language_falls_back_to_english():
    at = open_page("app.py", lang="<b>xx</b>")
    assert not at.exception
    assert any(t("app.name", "en") in heading.value for heading in at.title)


def test_language_choice_survives_a_page_switch():
    at = open_page("app.py", lang="zh")
    at.switch_page("pages/1_playground.py").run()
    assert any(t("page.playground", "zh") in heading.value for heading in at.title)
