"""A source's notes stand in the same places on the playground and the explorer: what it did
not read (a text cut at its context) above the first chart, how it reads (its remarks) under
it, so that a long text's first screen holds the chart."""

from __future__ import annotations

import pytest

from string_table import t
from tests.apptest.conftest import open_page

TEXT = "the cat sat on the mat " * 20  # well past the tiny GPT-2's 64 positions
PAGES = {
    "pages/1_playground.py": dict(weights="tiny-gpt2", text=TEXT),
    "pages/4_explorer.py": dict(model="tiny-gpt2", prompt=TEXT),
}


def leaves(node):
    """The page's elements in the order they stand, containers opened."""
    children = getattr(node, "children", None)
    if not children:
        yield node
        return
    for _, child in sorted(children.items()):
        yield from leaves(child)


def index_of(elements: list, kind: str, text: str) -> int:
    found = [i for i, element in enumerate(elements) if element.type == kind and text in str(element.value)]
    assert found, (kind, text)
    return found[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", sorted(PAGES))
def test_what_was_cut_stands_above_the_first_chart_and_how_it_reads_under_it(
    page, lang, tiny_model_folders, monkeypatch
):
    monkeypatch.setenv("ATTENTION_MODELS", ",".join(str(folder) for folder in tiny_model_folders.values()))
    at = open_page(page, lang=lang, **PAGES[page])
    assert not at.exception, at.exception
    elements = list(leaves(at.main))
    cut = t("real.cut", lang, tokens=64, cut=1).split("64")[0]  # the sentence up to its numbers
    remark = t("real.tokens_note", lang, name="\x00").split("\x00")[-1][:12]  # after the model's name
    first_chart = next(i for i, element in enumerate(elements) if element.type == "plotly_chart")
    assert index_of(elements, "warning", cut) < first_chart < index_of(elements, "caption", remark)
