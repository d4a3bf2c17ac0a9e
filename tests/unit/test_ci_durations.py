"""CI lists the slowest tests of every pytest run it makes: pyproject's addopts ask for at
least 20 of them, and nothing in the README's test command (which .ci/run runs) overrides it."""

from __future__ import annotations

import re
import shlex
from itertools import pairwise
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]
AT_LEAST = 20


def _durations(words: list[str]) -> list[int]:
    found = [int(word.split("=", 1)[1]) for word in words if word.startswith("--durations=")]
    found += [int(after) for word, after in pairwise(words) if word == "--durations"]
    return found


def readme_test_command() -> str:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").split("<!-- test-command -->", 1)[1].splitlines()
    return next(line for line in lines if re.match(r"[a-z]", line))  # as .ci/run reads it


def test_pytests_settings_list_the_slowest_twenty_tests_or_more():
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    addopts = shlex.split(settings["tool"]["pytest"]["ini_options"]["addopts"])
    assert _durations(addopts) and min(_durations(addopts)) >= AT_LEAST, addopts


def test_no_pytest_run_of_the_test_command_hides_that_list():
    runs = [run for run in readme_test_command().split("&&") if "pytest" in run]
    assert len(runs) >= 2, "the unit and AppTest layers, then the browser layer"
    for run in runs:
        words = shlex.split(run)
        assert all(count >= AT_LEAST for count in _durations(words)), run
        pairs = {" ".join(pair) for pair in pairwise(words)}
        assert not {"-p no:terminal", "--no-summary"} & (pairs | set(words)), f"the summary stays on: {run}"
        assert "-o" not in words and "--override-ini" not in " ".join(words), f"addopts stay in force: {run}"
