"""The lesson's figures on a projector (presentation mode): step 4's heads are labelled with
every one of 动手学大模型's 6 tokens, and steps 5 to 7 show a figure beside the question before
it is answered, none of them the figure that answers it."""

from __future__ import annotations

import json
import re

import pytest

from .conftest import open_page

PAGE = "pages/2_lesson.py"
BOOK_TOKENS = list("动手学大模型")  # the book's example, one token per character
ANSWERING_CHARTS = {5: "ls_chart_5", 6: "ls_chart_6", 7: "ls_chart_7b"}  # drawn once answered


def _specs(at) -> dict[str, dict]:
    return {chart.proto.id: json.loads(chart.proto.spec) for chart in at.get("plotly_chart")}


def _key_labels(layout: dict) -> list[set[str]]:
    """Per x axis that shows labels: the tokens its labels name ("3<br>大" or "3 · 大")."""
    shown = []
    for name, axis in layout.items():
        if re.fullmatch(r"xaxis\d*", name) and axis.get("ticktext") and axis.get("showticklabels", True):
            shown.append({re.split(r"<br>| · ", text)[-1] for text in axis["ticktext"]})
    return shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_step_4_labels_every_token_under_its_heads_when_presenting(lang):
    at = open_page(PAGE, step="4", present="1", lang=lang)
    assert not at.exception, at.exception
    (spec,) = [spec for key, spec in _specs(at).items() if key.endswith("ls_chart_4")]
    labelled = _key_labels(spec["layout"])
    assert labelled, "the heads' key axes show labels"
    for tokens in labelled:
        assert tokens == set(BOOK_TOKENS), f"a key axis names only {sorted(tokens)}"


@pytest.mark.parametrize("step", [5, 6, 7])
def test_steps_5_to_7_show_a_figure_beside_the_question_before_the_answer(step):
    at = open_page(PAGE, step=str(step), present="1")
    assert not at.exception, at.exception
    keys = list(_specs(at))
    assert keys, f"step {step} shows no figure before the answer"
    assert not any(key.endswith(ANSWERING_CHARTS[step]) for key in keys), "the answer's own figure waits"
