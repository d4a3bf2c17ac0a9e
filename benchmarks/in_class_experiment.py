"""The Train page's heads experiment at its defaults, as a class would run it: how long it
takes on this machine, how well the page's estimate foretold that, and what it answers.

    TINY_SHAKESPEARE=/path/to/tinyshakespeare.txt python benchmarks/in_class_experiment.py [--write]

The defaults are the page's own (links/train.py: corpus, context, blocks, steps, seeds;
ui/train/plan.py: embedding, evaluations, the cap), computed with the app's one torch
thread. First the page's estimate (a few steps measured, gpt_core.experiment), then the
full experiment, timed; then gpt_core.experiment.answer on its runs. ``--write`` stores the
runs in tests/golden/in_class_experiment.json, where tests/unit/test_experiment_defaults.py
checks that the defaults still match and still answer. Prints JSON.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python benchmarks/in_class_experiment.py`
    sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from gpt_core import InputError, build_corpus, load_tiny_shakespeare, synthetic_text  # noqa: E402
from gpt_core.experiment import answer, estimate_seconds, measure_step_times, run_heads_experiment  # noqa: E402
from gpt_core.reproduce import use_compute_threads  # noqa: E402
from gpt_core.runs import RunSummary  # noqa: E402
from ui.shared.resources import SYNTHETIC_LENGTH  # noqa: E402
from ui.train.plan import default_plan  # noqa: E402
from ui.train.state import PAGE  # noqa: E402

GOLDEN = ROOT / "tests" / "golden" / "in_class_experiment.json"
DIGITS = 4  # losses and times as stored


def corpus_text(name: str) -> str:
    return load_tiny_shakespeare() if name == "tinyshakespeare" else synthetic_text(name, SYNTHETIC_LENGTH)


def main() -> None:
    use_compute_threads()
    name = PAGE.by_name["corpus"].default
    try:
        corpus = build_corpus(name, corpus_text(name), PAGE.by_name["context"].default)
    except InputError as error:
        sys.exit(str(error))
    plan = default_plan(corpus.vocabulary.size)
    start = time.perf_counter()
    times = measure_step_times(corpus, plan.base, plan.train)
    probe_s = time.perf_counter() - start
    estimate = estimate_seconds(times, corpus, plan.train, len(plan.seeds))
    start = time.perf_counter()
    runs = [run.summary for run in run_heads_experiment(corpus, plan.base, plan.train, seeds=plan.seeds)]
    actual = time.perf_counter() - start
    verdict = answer(runs)
    report = {
        "corpus": name,
        "torch_threads": torch.get_num_threads(),
        "runs": plan.runs,
        "steps": plan.train.steps,
        "seeds": len(plan.seeds),
        "probe_s": round(probe_s, 2),
        "estimate_s": round(estimate, 1),
        "actual_s": round(actual, 1),
        "train_s": round(sum(run.wall_time for run in runs), 1),
        "ms_per_step_measured_by_the_page": {h: round(item.train_step * 1000, 1) for h, item in times.items()},
        "ms_per_step_in_the_runs": {s.heads: round(s.wall_time / plan.train.steps * 1000, 1) for s in verdict.stats},
        "reading": verdict.reading,
        "best": verdict.at_steps.best,
        "ties": verdict.at_steps.ties,
        "worse": verdict.at_steps.worse,
        "largest_gap": round(verdict.largest_gap, 4),
        "noise": round(verdict.noise, 4),
        "means": {s.heads: round(s.mean, 4) for s in verdict.stats},
        "spreads": {s.heads: round(s.spread, 4) for s in verdict.stats},
    }
    if GOLDEN.is_file():
        stored = {(r["heads"], r["seed"]): r["final_test_loss"] for r in json.loads(GOLDEN.read_text())["runs"]}
        report["largest_loss_difference_from_stored"] = round(
            max(abs(stored[(run.heads, run.seed)] - run.final_test_loss) for run in runs), 6
        )
    if "--write" in sys.argv[1:]:
        record = {
            "corpus": name,
            "corpus_sha256": corpus.sha256,
            "base": asdict(plan.base),
            "train": asdict(plan.train),
            "seeds": list(plan.seeds),
            "torch": torch.__version__,
            "torch_threads": torch.get_num_threads(),
            "actual_s": report["actual_s"],
            "runs": [RunSummary.to_dict(run, DIGITS) for run in runs],
        }
        GOLDEN.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    sys.stdout.write(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
