"""The explorer's next-token odds, proven against gpt_core.odds and (the cut by temperature,
top-k and top-p) against one written in the test: the bars, the controls in
the link and back, the Sample button that adds the drawn token to the prompt (the link's
prompt changes, reproducibly with the seed), both languages, and a real model."""

from __future__ import annotations

import json

import numpy as np
import pytest

from gpt_core import hf, next_token, next_token_odds, sample
from harness.charts import assert_displays, decode, part_of, traces_by_name
from string_table import t
from tests.apptest.conftest import open_page
from tests.apptest.test_real_models import offered  # noqa: F401 - a fixture
from ui.explorer.odds_view import ODDS_CHART_KEY, ODDS_ROW_CHART_KEY
from ui.shared.resources import shipped_model

PAGE = "pages/4_explorer.py"  # opened on its odds tab (view=odds): only the open tab is drawn
PROMPT = "ROMEO:\nBut soft"  # every character is in the shipped models' vocabulary


def chart(at, key: str) -> dict[str, dict]:
    for element in at.get("plotly_chart"):
        if element.proto.id.endswith(key):
            return traces_by_name(json.loads(element.proto.spec))
    raise AssertionError(f"no chart {key}")


def query(at) -> dict[str, str]:
    return {key: (value[-1] if isinstance(value, list) else value) for key, value in at.query_params.items()}


def bars(at, lang: str = "en") -> tuple[list[float], list[float | None]]:
    traces = chart(at, ODDS_CHART_KEY)
    return traces[t("odds.before", lang)]["x"], traces[t("odds.after", lang)]["x"]


def expected(prompt: str, temperature: float, top_k=None, top_p=None, heads: int = 4):
    checkpoint = shipped_model(heads)
    step = next_token(checkpoint.model, checkpoint.vocabulary, prompt)
    return next_token_odds(step.logits, temperature, top_k, top_p), checkpoint


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_bars_are_gpt_cores_odds_in_both_languages(lang):
    at = open_page(PAGE, view="odds", model="h4", prompt=PROMPT, lang=lang)
    assert not at.exception, at.exception
    assert t("ex.tab.odds", lang) in [tab.label for tab in at.tabs]
    odds, _ = expected(PROMPT, 1.0)
    before, after = bars(at, lang)
    np.testing.assert_allclose(before, odds.before[:20].numpy(), atol=1e-6)
    np.testing.assert_allclose(after, odds.after[:20].numpy(), atol=1e-6)  # nothing cut by default
    assert any(t("odds.kept", lang, kept=65, vocab=65, shown=20) == c.value for c in at.caption)
    assert at.button(key="ex_odds_sample").label == t("odds.sample", lang)
    assert query(at)["top_k"] == "0" and query(at)["top_p"] == "1"


def cut_by_hand(logits, temperature: float, top_k: int, top_p: float) -> tuple[np.ndarray, np.ndarray]:
    """The odds before and after the cut, written here from their definition (not gpt_core's):
    softmax(logits / T) from the likeliest down (ties in id order); the k likeliest,
    renormalised; of those, the fewest from the top whose probability adds up to p; the kept
    ones renormalised to sum 1."""
    scores = np.asarray(logits, dtype=np.float64) / temperature
    exps = np.exp(scores - scores.max())
    probabilities = exps / exps.sum()
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    before = probabilities[order]
    top = before[:top_k] / before[:top_k].sum()
    kept, total = 0, 0.0
    while total < top_p:
        total += top[kept]
        kept += 1
    return before, before[:kept] / before[:kept].sum()


def test_the_controls_cut_the_bars_and_are_in_the_link_and_back():
    """T = 1.5, k = 6, p = 0.8 keep 4 tokens here; top-p on the untempered odds would keep
    2, and top-p without top-k 8: the bars tell them apart."""
    at = open_page(PAGE, view="odds", model="h2", prompt=PROMPT)
    at.slider(key="ex_odds_temp").set_value(1.5).run()
    at.number_input(key="ex_top_k").set_value(6).run()
    at.slider(key="ex_top_p").set_value(0.8).run()
    assert not at.exception, at.exception
    checkpoint = shipped_model(2)
    logits = next_token(checkpoint.model, checkpoint.vocabulary, PROMPT).logits
    hand_before, hand_after = cut_by_hand(logits, 1.5, 6, 0.8)
    kept = len(hand_after)
    assert 1 < kept < 6, "top-p cuts inside top-k"
    before, after = bars(at)
    np.testing.assert_allclose(before, hand_before[:20], atol=1e-6)
    assert [value is not None for value in after] == [i < kept for i in range(20)]
    np.testing.assert_allclose(after[:kept], hand_after, atol=1e-6)
    assert abs(sum(after[:kept]) - 1) <= 1e-5
    link = query(at)
    assert (link["odds_temp"], link["top_k"], link["top_p"]) == ("1.5", "6", "0.8")
    assert link["view"] == "odds"
    again = open_page(PAGE, **link)
    assert not again.exception
    assert bars(again) == bars(at)


def test_greedy_puts_all_the_mass_on_the_likeliest():
    at = open_page(PAGE, view="odds", model="h4", prompt=PROMPT, odds_temp="0")
    before, after = bars(at)
    assert before[0] == after[0] == 1.0 and not any(before[1:]) and after[1:] == [None] * 19


def test_sample_adds_the_drawn_token_to_the_prompt_reproducibly():
    at = open_page(PAGE, view="odds", model="h4", prompt=PROMPT, sample_seed="5", top_k="10")
    odds, checkpoint = expected(PROMPT, 1.0, 10)
    drawn = checkpoint.vocabulary.decode([sample(odds, 5)])
    at.button(key="ex_odds_sample").click().run()
    assert not at.exception, at.exception
    assert query(at)["prompt"] == PROMPT + drawn
    assert at.text_area(key="ex_prompt").value == PROMPT + drawn
    # The bars are now the odds after the longer prompt.
    odds_after, _ = expected(PROMPT + drawn, 1.0, 10)
    np.testing.assert_allclose(bars(at)[0], odds_after.before[:20].numpy(), atol=1e-6)
    # Another session with the same link and seed draws the same token.
    other = open_page(PAGE, view="odds", model="h4", prompt=PROMPT, sample_seed="5", top_k="10")
    other.button(key="ex_odds_sample").click().run()
    assert query(other)["prompt"] == PROMPT + drawn


def test_the_row_behind_the_odds_is_the_last_querys_in_the_chosen_head():
    at = open_page(PAGE, view="odds", model="h4", prompt=PROMPT, block="2", head="3")
    checkpoint = shipped_model(4)
    step = next_token(checkpoint.model, checkpoint.vocabulary, PROMPT)
    trace = chart(at, ODDS_ROW_CHART_KEY)["block 2 · head 3"]
    shown = decode(trace["z"]).reshape(-1)[: len(step.context)]
    assert_displays(part_of(trace, shown), step.rows[1, 2].numpy())


def test_a_real_model_shows_its_odds(offered, tiny_models):  # noqa: F811 - the fixture
    text = "the cat sat"
    at = open_page(PAGE, view="odds", model=offered["gpt2"], prompt=text, top_k="3")
    assert not at.exception, at.exception
    traced = hf.trace(tiny_models["gpt2"], text, logits=True)
    odds = next_token_odds(traced.logits[0, -1].float(), 1.0, 3)
    before, after = bars(at)
    np.testing.assert_allclose(before, odds.before[:20].numpy(), atol=1e-6)
    assert sum(value is not None for value in after) == 3


def test_a_links_values_out_of_range_fall_back_with_a_note():
    at = open_page(PAGE, view="odds", model="h4", prompt=PROMPT, top_p="7", odds_temp="-1", top_k="abc")
    assert not at.exception, at.exception
    warnings = " ".join(w.value for w in at.warning)
    assert all(part in warnings for part in ("top\\_p = 7", "odds\\_temp", "top\\_k = abc"))
    odds, _ = expected(PROMPT, 1.0)
    np.testing.assert_allclose(bars(at)[0], odds.before[:20].numpy(), atol=1e-6)


def test_a_model_without_next_token_scores_says_so(monkeypatch):
    import torch

    import ui.explorer.odds_view as odds_view

    monkeypatch.setattr(
        odds_view, "_compute", lambda loaded, prompt: odds_view.NextStep(None, torch.zeros(1, 1, 1), ["a"])
    )
    at = open_page(PAGE, view="odds", model="h4", prompt=PROMPT, lang="zh")
    assert not at.exception, at.exception
    assert t("odds.no_logits", "zh") in [info.value for info in at.info]
    assert not [c for c in at.get("plotly_chart") if c.proto.id.endswith(ODDS_CHART_KEY)]
