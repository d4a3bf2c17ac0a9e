"""The view model both pages draw from (ui/views/model.py): one rule names every chart's
download, whatever the page; every session shares a view's figures under its identity."""

from __future__ import annotations

import torch

from gpt_core.data import CharVocabulary
from gpt_core.model import GPT, GPTConfig
from gpt_core.playground import PlaygroundConfig
from gpt_core.sources import RandomWeights, TinyGPT
from ui.views.model import SourceView

LABELS = ["a", "b", "c", "d", "e", "f"]


def _tiny_gpt() -> TinyGPT:
    torch.manual_seed(0)
    chars = tuple("abcdef ")
    config = GPTConfig(vocab_size=len(chars), context_length=16, embedding_dim=16, heads=2, blocks=2)
    return TinyGPT(GPT(config, seed=0), CharVocabulary(chars), "h2", "abc")


def test_a_source_set_up_by_the_reader_is_named_by_its_heads_and_head_size():
    view = SourceView(source=RandomWeights(PlaygroundConfig(heads=4, head_dim=8)), labels=LABELS)
    assert view.file_name("heads", "weights") == "heads_weights_T6_h4_d8"
    assert view.file_name("detail", head=3, q=2, k=1) == "detail_head3_q2_k1_T6_h4_d8"


def test_a_model_is_named_once_by_its_name_on_either_page():
    view = SourceView(source=_tiny_gpt(), labels=LABELS, layer=1)
    assert view.file_name("grid", block=2, head=1) == "grid_h2_block2_head1_T6"
    assert view.file_name("heads", "weights") == "heads_h2_weights_T6", "its name, not its sizes again"


def test_a_view_is_shared_under_its_identity_and_never_without_one():
    source = RandomWeights(PlaygroundConfig())
    assert SourceView(source=source, labels=LABELS, identity=("x", "abc")).shared("grid", 1) == (
        ("x", "abc"),
        "grid",
        1,
    )
    assert SourceView(source=source, labels=LABELS).shared("grid", 1) is None
