"""Another commit's code beside this one's, for benchmarks that compare the two in one run
(``--against REV``): the commit checked out in a temporary git worktree, removed after."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def checked_out(revision: str, repository: Path = ROOT) -> Iterator[Path]:
    """The folder of ``revision``'s tree (any commit git names: a hash, ``HEAD~2``, a tag) of
    ``repository`` (this project's own clone by default)."""
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "tree"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(tree), revision], cwd=repository, check=True, capture_output=True
        )
        try:
            yield tree
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=repository, check=True)


def option(args: list[str]) -> str | None:
    """The revision given with ``--against``, if any."""
    return args[args.index("--against") + 1] if "--against" in args else None


def without_option(args: list[str]) -> list[str]:
    """``args`` less ``--against REV``: what the other commit's own benchmark is run with."""
    if "--against" not in args:
        return list(args)
    at = args.index("--against")
    return args[:at] + args[at + 2 :]
