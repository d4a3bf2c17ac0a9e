"""The mutation table of docs/benchmarks.md ("Mutation score"), per module, from mutmut's
results in this folder.

    .venv/bin/mutmut run --max-children 1 "gpt_core.odds*"   # one module (or several) at a time
    .venv/bin/python scripts/mutation_table.py               # a Markdown table of every module run

Killed and timed-out mutants count as caught; survivors and mutants no test reaches ("no
tests") count against the score; mutants not yet run are counted apart and left out of it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTMUT = Path(sys.executable).with_name("mutmut")
LINE = re.compile(r"^\s*(?P<name>[\w.]+?)\.x.*__mutmut_\d+: (?P<status>.+)$")
CAUGHT = ("killed", "timeout")
NOT_RUN = ("not checked", "skipped")


def results() -> dict[str, Counter]:
    """Statuses of every mutant, counted per module."""
    out = subprocess.run(
        [str(MUTMUT), "results", "--all", "true"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    modules: dict[str, Counter] = defaultdict(Counter)
    for line in out.splitlines():
        match = LINE.match(line)
        if match:
            modules[match["name"]][match["status"].strip()] += 1
    return modules


def table(modules: dict[str, Counter]) -> str:
    rows = [
        "| module | mutants | run | caught | survived | no test | score |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name in sorted(modules):
        counts = modules[name]
        total = sum(counts.values())
        run = total - sum(counts[s] for s in NOT_RUN)
        caught = sum(counts[s] for s in CAUGHT)
        score = f"{100 * caught / run:.1f} %" if run else "not run"
        rows.append(
            f"| `{name}` | {total} | {run} | {caught} | {counts['survived']} | {counts['no tests']} | {score} |"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    sys.stdout.write(table(results()) + "\n")
