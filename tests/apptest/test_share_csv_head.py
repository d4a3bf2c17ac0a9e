"""The share tab's CSV is of the head the page shows: its "of head" box follows the chosen
head (and can still be changed)."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest
from streamlit.runtime.media_file_manager import MediaFileManager

from gpt_core import PlaygroundConfig, trace_attention
from tests.apptest.conftest import open_page, open_tab

PAGE = "pages/1_playground.py"
BOOK_EXAMPLE = "动手学大模型"  # the playground's default text


@pytest.fixture
def downloads(monkeypatch) -> dict[str, object]:
    """Each download button's deferred data, by its button's key (the last run's)."""
    made: dict[str, object] = {}
    add_deferred = MediaFileManager.add_deferred

    def keep(self, data_callable, mimetype, coordinates, file_name=None, *, element_id=""):
        made[element_id.rsplit("-", 1)[-1]] = data_callable
        return add_deferred(self, data_callable, mimetype, coordinates, file_name, element_id=element_id)

    monkeypatch.setattr(MediaFileManager, "add_deferred", keep)
    return made


def _csv_matrix(text: str) -> np.ndarray:
    rows = list(csv.reader(io.StringIO(text)))[1:]
    return np.array([[float(value) for value in row[1:]] for row in rows])


def test_the_csv_is_of_the_head_the_link_chose(downloads):
    at = open_tab(open_page(PAGE, head="2"), "share")
    box = at.selectbox(key="pg_csv_head")
    assert box.value == 2 and box.options[box.index] == "head 2"
    # The link's set-up, by hand: the book's example as characters, 4 heads of 8, seed 0;
    # the CSV's stage is the first one offered, the raw scores.
    config = PlaygroundConfig(heads=4, head_dim=8, seed=0, tokenizer="char")
    expected = trace_attention(BOOK_EXAMPLE, config).trace.scores[0, 1].numpy()
    np.testing.assert_allclose(_csv_matrix(downloads["pg_download_csv"]()), expected, rtol=0, atol=0)


def test_the_csv_head_follows_a_new_head_and_can_still_be_changed():
    at = open_tab(open_page(PAGE, head="2"), "share")
    at.selectbox(key="pg_csv_head").set_value(4).run()
    assert at.selectbox(key="pg_csv_head").value == 4  # the student's own choice stays
    at.selectbox(key="pg_head").set_value(3).run()
    assert at.selectbox(key="pg_csv_head").value == 3  # another head chosen: the CSV follows it
    open_tab(at, "stats")
    open_tab(at, "share")
    assert at.selectbox(key="pg_csv_head").value == 3  # closing and opening the tab keeps it
