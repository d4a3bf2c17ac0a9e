"""The golden links opened in the app show their stored numbers, and every link the app
writes says which numbers version made it; an older or newer one is told to the student."""

from __future__ import annotations

import numpy as np
import pytest

from gpt_core.reproduce import NUMBERS_VERSION
from harness.golden import allowed_difference, array_name, links, stored_numbers
from string_table import t
from tests.apptest.conftest import csv_matrix, open_page, open_tab
from tests.apptest.test_playground import matrix, query

PLAYGROUND = "pages/1_playground.py"
LINKS = links()
# Random weights and a shipped model; characters, words, training-mode dropout.
OPENED = [0, 1, 5, len(LINKS) - 1]


def _difference(shown: np.ndarray, expected: np.ndarray) -> float:
    assert shown.shape == expected.shape
    return float(np.nanmax(np.abs(np.where(np.isneginf(expected), 0, shown - expected))))


@pytest.mark.parametrize("index", OPENED, ids=[LINKS[i].name for i in OPENED])
def test_a_golden_link_shows_its_stored_numbers_in_the_page(index, downloads):
    link = LINKS[index]
    heads = int(link.query.get("heads", 8 if link.query.get("weights") == "h8" else 4))
    head = min(2, heads)
    at = open_tab(open_page(PLAYGROUND, **link.query, head=str(head)), "share")
    stored = stored_numbers()
    for stage, title in (("weights", "softmax weights"), ("scores", "raw scores QKᵀ")):
        expected = stored[array_name(index, stage)][head - 1]
        limit = allowed_difference(expected)
        # The numbers as numbers, the share tab's CSV of the head shown: the stored ones.
        at.selectbox(key="pg_csv_stage").set_value(stage).run()
        difference = _difference(csv_matrix(downloads(f"{stage}_head{head}.csv")), expected)
        assert difference <= limit, f"{link.name}: {stage} differs by {difference:.2e} (> {limit:.1e})"
        # The chart is sent at the precision it prints (figures/display_precision.py): each
        # value within one last printed digit (1e-4) of the numbers computed here, which may
        # differ from the stored ones by the limit (another CPU's last bits).
        difference = _difference(matrix(at, f"{title} · head {head}"), expected)
        assert difference <= limit + 1e-4, f"{link.name}: {stage}'s chart differs by {difference:.2e}"


def test_the_link_the_page_writes_carries_the_numbers_version():
    at = open_page(PLAYGROUND)
    assert query(at)["v"] == str(NUMBERS_VERSION)
    explorer = open_page("pages/4_explorer.py")
    assert explorer.query_params["v"] in (str(NUMBERS_VERSION), [str(NUMBERS_VERSION)])


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", [PLAYGROUND, "pages/4_explorer.py"])
def test_a_link_from_an_earlier_version_says_its_numbers_may_differ(lang, page):
    older = NUMBERS_VERSION - 1
    at = open_page(page, lang=lang, v=str(older))
    assert not at.exception
    note = t("note.older_version", lang, value=older, current=NUMBERS_VERSION)
    assert any(note in warning.value for warning in at.warning), [w.value for w in at.warning]


@pytest.mark.parametrize(("given", "reason"), [(str(NUMBERS_VERSION + 1), "newer"), ("abc", "invalid")])
def test_a_newer_or_unreadable_version_is_noted_and_the_current_one_is_not(given, reason):
    at = open_page(PLAYGROUND, v=given)
    shown = " ".join(warning.value for warning in at.warning)
    if reason == "newer":
        assert t("note.newer_version", "en", value=given, current=NUMBERS_VERSION) in shown
    else:
        assert "v = abc" in shown
    current = open_page(PLAYGROUND, v=str(NUMBERS_VERSION))
    assert not current.warning, "the current version is no news"
