"""Benchmarks that compare two commits in one run check the other one out in a temporary
worktree and run it with the same arguments, less ``--against REV``."""

from __future__ import annotations

import subprocess

from benchmarks.against import checked_out, option, without_option


def test_the_option_and_the_arguments_without_it():
    args = ["classroom", "--students", "100", "--against", "HEAD~2", "--nginx", "2"]
    assert option(args) == "HEAD~2"
    assert without_option(args) == ["classroom", "--students", "100", "--nginx", "2"]
    assert option(["classroom"]) is None and without_option(["classroom"]) == ["classroom"]


def _git(folder, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, check=True).stdout.strip()


def test_the_commit_is_checked_out_apart_and_removed_after(tmp_path):
    """In a repository the test makes (a copy of the project need not be a git clone): two
    commits, the first checked out apart while the folder itself stays at the second."""
    repository = tmp_path / "repository"
    repository.mkdir()
    _git(repository, "init", "-q")
    for text in ("first", "second"):
        (repository / "app.py").write_text(text)
        _git(repository, "add", "app.py")
        _git(repository, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", text)
    first = _git(repository, "rev-parse", "HEAD~1")
    with checked_out("HEAD~1", repository) as tree:
        assert tree != repository and (tree / "app.py").read_text() == "first"
        assert _git(tree, "rev-parse", "HEAD") == first
        assert (repository / "app.py").read_text() == "second"
    assert not tree.exists()
    assert str(tree) not in _git(repository, "worktree", "list")
