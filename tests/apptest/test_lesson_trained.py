"""Lesson step 8 tells one story: the answers judged right are the ones the shipped heads
experiment supports (worked out here from assets/heads_experiment/results.json, not through
gpt_core.experiment), the verdict names the answer it judges, and the hint speaks only of
what the step shows before the answer (not the losses and their spread over seeds)."""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path

import pytest

from string_table import t

from .conftest import open_page

PAGE = "pages/2_lesson.py"
RESULTS = Path(__file__).resolve().parents[2] / "assets" / "heads_experiment" / "results.json"
# What the step shows only once answered: the losses, their means and their spread over seeds.
STATISTICS_WORDS = {"en": ("loss", "mean", "spread", "varies", "sd"), "zh": ("损失", "平均", "波动", "标准差")}


def _shipped() -> tuple[dict[int, float], set[int]]:
    """Each head count's mean final held-out loss over its seeds, and the head counts the
    seeds cannot tell from the lowest mean: a difference counts only when it is larger than
    the seed spread (highest minus lowest loss) of both head counts."""
    losses: dict[int, list[float]] = {}
    for run in json.loads(RESULTS.read_text(encoding="utf-8"))["runs"]:
        losses.setdefault(run["heads"], []).append(run["final_test_loss"])
    means = {heads: statistics.fmean(values) for heads, values in losses.items()}
    spread = {heads: max(values) - min(values) for heads, values in losses.items()}
    best = min(means, key=means.get)
    return means, {h for h in means if means[h] - means[best] <= max(spread[h], spread[best])}


def _answer(at, heads: int) -> None:
    at.radio(key="ls_answer_8").set_value(heads).run()
    at.button(key="ls_check_8").click().run()
    assert not at.exception, at.exception


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_answers_judged_right_are_those_the_shipped_data_supports_and_the_verdict_names_them(lang):
    means, supported = _shipped()
    best = min(means, key=means.get)
    assert 1 < len(supported) < len(means), "the shipped data: a tie of several, and one clearly worse"
    for heads in sorted(means):
        at = open_page(PAGE, step="8", lang=lang)
        _answer(at, heads)
        if heads not in supported:
            assert at.error and not at.success, heads
            continue
        assert at.success and not at.error, heads
        verdict = at.success[0].value
        assert f"h = {heads}" in verdict, f"the verdict on h = {heads} does not speak of it: {verdict}"
        assert f"h = {best}" in verdict and f"{means[best]:.3f}" in verdict


def test_the_answer_shown_after_giving_up_is_every_head_count_the_data_supports():
    means, supported = _shipped()
    wrong = min(set(means) - supported)
    at = open_page(PAGE, step="8")
    _answer(at, wrong)
    at.button(key="ls_show_8").click().run()
    shown = re.search(r"\*\*(.+?)\*\*", at.info[0].value).group(1)
    assert sorted(int(h) for h in re.findall(r"h = (\d+)", shown)) == sorted(supported)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_hint_names_only_what_the_step_shows_before_the_answer(lang):
    means, supported = _shipped()
    at = open_page(PAGE, step="8", lang=lang)
    shown = "\n".join(str(element.value) for kind in ("markdown", "caption") for element in at.get(kind))
    _answer(at, min(set(means) - supported))
    hint = at.error[0].value.removeprefix(t("ls.wrong", lang, hint="").strip()).strip()
    assert hint, "a wrong answer gets a hint"
    for word in STATISTICS_WORDS[lang]:
        assert not re.search(rf"\b{word}\b" if lang == "en" else word, hint, re.IGNORECASE), (
            f"the hint speaks of {word!r}, which the step shows only after the answer: {hint}"
        )
    for number in re.findall(r"\d+", hint):
        assert number in shown, f"the hint's {number} is nowhere on the step: {hint}"


def _runs_chart(at) -> dict | None:
    for chart in at.get("plotly_chart"):
        if chart.proto.id and "ls_chart_8_runs" in chart.proto.id:
            return json.loads(chart.proto.spec)
    return None


@pytest.mark.parametrize("present", [None, "1"])
def test_the_reveal_draws_the_heads_experiment_every_head_count_over_training(present):
    means, supported = _shipped()
    at = open_page(PAGE, step="8", **({"present": present} if present else {}))
    assert _runs_chart(at) is None, "nothing of the experiment before the answer"
    _answer(at, min(supported))
    spec = _runs_chart(at)
    assert spec is not None, "the experiment's chart once revealed"
    named = {int(h) for trace in spec["data"] for h in re.findall(r"h = (\d+)", trace.get("name") or "")}
    assert named == set(means), "a line for every head count the experiment trained"
