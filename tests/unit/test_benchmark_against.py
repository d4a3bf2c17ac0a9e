"""Benchmarks that compare two commits in one run check the other one out in a temporary
worktree and run it with the same arguments, less ``--against REV``."""

from __future__ import annotations

import subprocess

from benchmarks.against import ROOT, checked_out, option, without_option


def test_the_option_and_the_arguments_without_it():
    args = ["classroom", "--students", "100", "--against", "HEAD~2", "--nginx", "2"]
    assert option(args) == "HEAD~2"
    assert without_option(args) == ["classroom", "--students", "100", "--nginx", "2"]
    assert option(["classroom"]) is None and without_option(["classroom"]) == ["classroom"]


def test_the_commit_is_checked_out_apart_and_removed_after():
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    with checked_out("HEAD") as tree:
        assert tree != ROOT and (tree / "app.py").is_file()
        there = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tree, capture_output=True, text=True, check=True)
        assert there.stdout == head
    assert not tree.exists()
    listed = subprocess.run(["git", "worktree", "list"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert str(tree) not in listed
