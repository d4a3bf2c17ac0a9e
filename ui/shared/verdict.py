"""The heads experiment's written answer, in the student's language: only what its
statistics support (gpt_core.experiment.answer decides). Shared by the Train page and the
lesson."""

from __future__ import annotations

from gpt_core import RunSummary
from gpt_core.experiment import MIN_VERDICT_STEPS, SPEED_RESOLUTION, HeadsStats, Verdict, answer
from string_table import t


def _heads_list(heads: tuple[int, ...], lang: str) -> str:
    return t("list_sep", lang).join(f"h = {count}" for count in heads)


def _losses_list(stats: list[HeadsStats], lang: str) -> str:
    return t("list_sep", lang).join(
        t("tr.verdict.loss_item", lang, heads=item.heads, loss=f"{item.mean:.3f}") for item in stats
    )


def _speed_range(verdict: Verdict) -> tuple[str, str]:
    speeds = [item.tokens_per_second for item in verdict.stats]
    return f"{min(speeds):,.0f}", f"{max(speeds):,.0f}"


def _speed_sentence(verdict: Verdict, lang: str) -> str:
    if verdict.speed_differs:
        key = "tr.verdict.speed_more_heads" if verdict.slower_with_more_heads else "tr.verdict.speed"
        return t(key, lang, fastest=verdict.fastest, slowest=verdict.slowest, ratio=f"{verdict.speed_ratio:.2f}")
    low, high = _speed_range(verdict)
    if verdict.noise_known:
        return t("tr.verdict.speed_unclear_seeds", lang, low=low, high=high)
    return t("tr.verdict.speed_unclear_one_seed", lang, low=low, high=high, resolution=round(SPEED_RESOLUTION * 100))


def _time_sentence(verdict: Verdict, lang: str) -> str | None:
    at_time, seconds = verdict.at_time, f"{verdict.equal_seconds:.0f}"
    if at_time is None:
        return None
    if not at_time.worse:
        return t("tr.verdict.time_tie", lang, seconds=seconds)
    timed = t("tr.verdict.time", lang, seconds=seconds, best=at_time.best)
    if at_time.ties:
        timed += t("tr.verdict.time_ties", lang, heads=_heads_list(at_time.ties, lang))
    if at_time.best == verdict.at_steps.best:
        return timed + t("tr.verdict.time_same", lang)
    return timed + t("tr.verdict.time_changed", lang, best=verdict.at_steps.best)


def _comparison_sentences(verdict: Verdict, lang: str) -> list[str]:
    """Which head count did best, which tie with it and which are worse (a clear reading)."""
    steps = verdict.at_steps
    best = next(item for item in verdict.stats if item.heads == steps.best)
    suffix = "" if verdict.noise_known else "_one_seed"
    if verdict.noise_known:
        said = [
            t(
                "tr.verdict.seeds",
                lang,
                seeds=verdict.seeds,
                best=best.heads,
                mean=f"{best.mean:.3f}",
                sd=f"{best.sd:.3f}",
            )
        ]
    else:
        said = [t("tr.verdict.one_seed", lang, noise=f"{verdict.noise:.3f}", best=best.heads, loss=f"{best.mean:.3f}")]
    if steps.ties:
        said.append(t(f"tr.verdict.ties{suffix}", lang, heads=_heads_list(steps.ties, lang)))
    said.append(t(f"tr.verdict.worse{suffix}", lang, heads=_heads_list(steps.worse, lang)))
    if verdict.least_stable is not None:
        unstable = next(item for item in verdict.stats if item.heads == verdict.least_stable)
        said.append(t("tr.verdict.unstable", lang, heads=unstable.heads, spread=f"{unstable.spread:.3f}"))
    return said


def _more_heads_sentence(verdict: Verdict, lang: str) -> str:
    steps = verdict.at_steps
    if verdict.reading != "clear":
        return t("tr.verdict.more_unknown", lang)
    if not verdict.noise_known:
        return t("tr.verdict.more_one_seed", lang)
    most = verdict.stats[-1].heads
    if most == steps.best and not steps.ties:
        return t("tr.verdict.more_yes", lang, most=most)
    if most in steps.worse:
        return t("tr.verdict.more_no", lang, most=most, best=steps.best)
    return t("tr.verdict.more_tie", lang, best=steps.best)


def answer_text(runs: list[RunSummary], lang: str) -> str:
    """The written answer: only what the statistics support (gpt_core.experiment.answer
    decides; a run too short or differences within the noise are said to be so)."""
    verdict = answer(runs)
    losses = _losses_list(verdict.stats, lang)
    said = [t("tr.verdict.title", lang)]
    if verdict.reading == "too_short":
        low, high = _speed_range(verdict)
        said.append(
            t(
                "tr.verdict.too_short",
                lang,
                steps=verdict.steps,
                min_steps=MIN_VERDICT_STEPS,
                losses=losses,
                low=low,
                high=high,
            )
        )
        return " ".join(said)
    if verdict.reading == "within_noise":
        key = "tr.verdict.too_close_seeds" if verdict.noise_known else "tr.verdict.too_close_one_seed"
        said.append(
            t(
                key,
                lang,
                seeds=verdict.seeds,
                losses=losses,
                gap=f"{verdict.largest_gap:.3f}",
                noise=f"{verdict.noise:.3f}",
            )
        )
    else:
        said += _comparison_sentences(verdict, lang)
    said.append(_speed_sentence(verdict, lang))
    timed = _time_sentence(verdict, lang)
    if timed is not None:
        said.append(timed)
    said.append(_more_heads_sentence(verdict, lang))
    return " ".join(said)
