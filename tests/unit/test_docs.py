"""The README is a front page and the guides under docs/ hold the rest: every relative link
between them reaches a file that exists and, where it names a section, a heading that exists
(as GitHub makes a heading's anchor), so a reader who follows a link never lands nowhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def github_anchor(heading: str) -> str:
    """GitHub's anchor of a heading, written out here: lower case, every character that is not
    a letter, a digit, a space, a hyphen or an underscore dropped, spaces made hyphens."""
    text = heading.strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*$", text, re.M):
        anchor = github_anchor(heading)
        n = seen.get(anchor, 0)
        seen[anchor] = n + 1
        out.add(anchor if n == 0 else f"{anchor}-{n}")
    return out


def test_the_anchor_rule_matches_githubs_on_written_examples():
    assert github_anchor("Installing torch's CPU build") == "installing-torchs-cpu-build"
    assert github_anchor("Keeping a disconnected session: `server.disconnectedSessionTTL`") == (
        "keeping-a-disconnected-session-serverdisconnectedsessionttl"
    )
    assert github_anchor("Seeing Attention · 看见注意力") == "seeing-attention--看见注意力"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_relative_link_reaches_a_file_and_a_heading(document):
    text = FENCE.sub("", document.read_text(encoding="utf-8"))
    broken = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
            continue
        path_part, _, anchor = target.partition("#")
        path = (document.parent / path_part).resolve() if path_part else document
        if not path.exists():
            broken.append(f"{target}: no file {path_part}")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{target}: no heading #{anchor} in {path.name}")
    assert not broken, f"{document.name}: " + "; ".join(broken)


def test_the_readme_is_a_front_page_that_links_every_guide():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    linked = {Path(t.partition("#")[0]).name for t in LINK.findall(text) if t.startswith("docs/")}
    guides = {p.name for p in (ROOT / "docs").glob("*.md")}
    assert guides <= linked, f"guides the README does not link: {sorted(guides - linked)}"
    for marker in ("<!-- app-command -->", "<!-- test-command -->"):
        assert text.count(marker) == 1


def test_the_notebook_guide_says_how_to_install_jupyter_itself():
    """``pip install .`` installs no notebook front end: the guide says so and gives the
    command, in a shell block of its notebook section, before the first notebook call."""
    guide = (ROOT / "docs" / "notebook.md").read_text(encoding="utf-8")
    section = guide.split("## In a notebook", 1)[1].split("\n## ", 1)[0]
    before_the_call = section.split("import seeing_attention", 1)[0]
    shell = re.findall(r"```bash\n(.*?)```", before_the_call, re.S)
    commands = [line.split("#")[0].split() for block in shell for line in block.splitlines()]
    installed = {word for words in commands if words[:2] == ["pip", "install"] for word in words[2:]}
    assert installed & {"jupyterlab", "notebook", "jupyter"}, shell
    assert any(words[:1] == ["jupyter"] for words in commands), "how to start it"
