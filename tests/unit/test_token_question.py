"""The token question's pure parts: a row's strongest keys (ties all right), the rule that
picks the shipped model's previous-token head (proved here from the model's own weights), and
the figure of the class's choices beside the real row (expected values written here)."""

from __future__ import annotations

import math

import pytest
import torch

from figures.labels import plotly_safe
from figures.palette import HEAD_COLORS, head_color
from figures.token_question import YOURS_MARK, class_shares, token_question_figure
from figures.words import Words
from gpt_core import PlaygroundConfig
from gpt_core.explore import trace_model
from gpt_core.lesson import BOOK_TEXT
from gpt_core.playground import trace_attention
from gpt_core.results import load_experiment
from gpt_core.token_question import (
    TRAINED_HEADS,
    TRAINED_PROMPT,
    previous_token_head,
    previous_token_share,
    strongest_keys,
)
from seeing_attention.paths import ASSETS
from string_table.figure_words import figure_words

WORDS = figure_words("en")


@pytest.fixture(autouse=True)
def _threads():
    torch.manual_seed(0)
    torch.set_num_threads(1)


def test_the_strongest_key_is_the_rows_largest_weight_and_its_lead_over_the_next():
    best = strongest_keys(torch.tensor([0.1, 0.5, 0.3, 0.1]))
    assert best.keys == (1,) and best.weight == pytest.approx(0.5) and best.lead == pytest.approx(0.2)


def test_keys_tied_at_the_maximum_are_all_strongest():
    best = strongest_keys(torch.tensor([0.25, 0.25, 0.25, 0.25]))
    assert best.keys == (0, 1, 2, 3) and best.lead == 0.0
    assert strongest_keys(torch.tensor([1.0])).keys == (0,)


def test_the_random_layers_answer_is_the_argmax_of_a_softmax_computed_here():
    """Step 10's right answer: the last query's softmax over q·k/√d, worked out from the
    layer's queries and keys with torch, not read from its weights."""
    config = PlaygroundConfig(heads=4, head_dim=8)
    trace = trace_attention(BOOK_TEXT, config).trace
    q, k = trace.queries_heads[0], trace.keys_heads[0]  # (h, T, d)
    for head in range(4):
        row = torch.softmax(q[head, -1] @ k[head].T / math.sqrt(8), dim=-1)
        assert strongest_keys(trace.weights[0, head, -1]).keys == (int(row.argmax()),)


def test_previous_token_share_counts_rows_whose_maximum_is_just_before_them():
    T = 4
    previous = torch.zeros(T, T)
    previous[0, 0] = 1.0
    for q in range(1, T):
        previous[q, q - 1] = 0.9
        previous[q, q] = 0.1
    own = torch.eye(T)
    assert previous_token_share(torch.stack([own, previous])).tolist() == [0.0, 1.0]
    assert previous_token_head([torch.stack([own, own]), torch.stack([own, previous])]) == (1, 1, 1.0)


@pytest.mark.parametrize("heads", [1, 2, TRAINED_HEADS, 8])
def test_the_shipped_models_chosen_head_reads_the_previous_token_on_the_steps_prompt(heads):
    """Step 11's head: each shipped model on the step's prompt; the chosen head's rows put
    their maximum on the token just before them for at least 90 % of the queries, counted row
    by row here."""
    checkpoint = load_experiment(ASSETS / "heads_experiment").checkpoint(heads)
    weights = [w[0] for w in trace_model(checkpoint.model, checkpoint.vocabulary, TRAINED_PROMPT).weights]
    layer, head, share = previous_token_head(weights)
    rows = weights[layer][head]
    T = rows.shape[-1]
    hits = sum(1 for q in range(1, T) if max(range(q + 1), key=lambda j: float(rows[q, j])) == q - 1)
    assert T == len(TRAINED_PROMPT) and hits / (T - 1) >= 0.9 and share == pytest.approx(hits / (T - 1))
    assert strongest_keys(rows[-1]).keys == (T - 2,), "the asked token reads the one before it"


def test_class_shares_divide_by_those_who_answered():
    assert class_shares([1, 3, 0]) == [0.25, 0.75, 0.0]
    assert class_shares([0, 0]) == [0.0, 0.0]


def _traces(figure):
    return {trace.name: trace for trace in figure.data}


def test_the_figure_draws_the_class_and_the_real_row_on_one_token_axis():
    labels = ["动", "<b>", "学"]
    figure = token_question_figure(labels, WORDS, counts=[1, 3, 0], weights=[0.2, 0.5, 0.3], head=2)
    names = ["0 · 动", "1 · &lt;b&gt;", "2 · 学"]
    bars = _traces(figure)
    cls, real = bars["the class's choices (share)"], bars["head 3's real weights"]
    assert list(cls.y) == names and list(real.y) == names, "escaped labels, one axis"
    assert list(cls.x) == [0.25, 0.75, 0.0] and list(cls.text) == ["1", "3", "0"]
    assert list(real.x) == [0.2, 0.5, 0.3] and real.marker.color == head_color(2) == "#d04ec6"
    assert cls.marker.color not in HEAD_COLORS, "the class's bars never look like a head's"


def test_before_the_reveal_the_figure_has_no_row_and_a_students_choice_is_marked():
    figure = token_question_figure(["a", "b"], WORDS, counts=[2, 0])
    assert [trace.name for trace in figure.data] == ["the class's choices (share)"]
    mine = token_question_figure(["a", "b"], WORDS, weights=[0.4, 0.6], chosen=0)
    assert list(mine.data[0].y) == [f"0 · a {YOURS_MARK} your choice", "1 · b"]
    assert mine.layout.xaxis.title.text == "weight" and figure.layout.xaxis.title.text == "share of the class · weight"
    assert plotly_safe("<") == "&lt;"


def test_the_figure_validates_in_plotly():
    import plotly.graph_objects as go

    figure = token_question_figure(["a", "b"], Words(dict(WORDS)), counts=[1, 1], weights=[0.5, 0.5])
    go.Figure(figure.to_dict())  # validated: every property is one Plotly knows
