"""The Hugging Face Docker Space recipe: the front matter a Space reads, parsed by
huggingface_hub's own card parser, agrees with the Dockerfile it builds; deploy/space.py
writes a committed tree with that block in front of the README."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from huggingface_hub import SpaceCard

from deploy.space import front_matter, main, write_space

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")


def _card(text: str, tmp_path: Path) -> SpaceCard:
    path = tmp_path / "README.md"
    path.write_text(text, encoding="utf-8")
    return SpaceCard.load(path)


def test_the_front_matter_is_a_docker_space_on_the_dockerfiles_port(tmp_path):
    card = _card(front_matter() + "\nbody\n", tmp_path)
    assert card.data.sdk == "docker"
    port = int(re.search(r"STREAMLIT_SERVER_PORT=(\d+)", DOCKERFILE).group(1))
    assert card.data.app_port == port
    assert re.search(rf"^EXPOSE {port}$", DOCKERFILE, re.M)
    assert card.text.strip() == "body"


def test_the_image_runs_as_the_user_a_space_runs_and_bakes_models_from_a_build_argument():
    """A Space runs the container as uid 1000 and passes its variables as build arguments."""
    user = re.search(r"useradd [^\n]*--uid (\d+) (\w+)", DOCKERFILE)
    assert user and user.group(1) == "1000"
    assert re.search(rf"^USER {user.group(2)}$", DOCKERFILE, re.M)
    assert re.search(r"^ARG BAKE_MODELS=", DOCKERFILE, re.M)
    assert re.search(
        r'^RUN if \[ -n "\$BAKE_MODELS" \]; then python scripts/fetch_models.py \$BAKE_MODELS; fi$', DOCKERFILE, re.M
    )
    assert (ROOT / "scripts" / "fetch_models.py").exists()


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "pages").mkdir(parents=True)
    (repo / "README.md").write_text("# A project\n\nIts front page.\n", encoding="utf-8")
    (repo / "Dockerfile").write_text("FROM scratch\n", encoding="utf-8")
    (repo / "pages" / "one.py").write_text("x = 1\n", encoding="utf-8")
    (repo / "uncommitted.txt").write_text("not in the Space\n", encoding="utf-8")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    subprocess.run([*git[:3], "add", "README.md", "Dockerfile", "pages"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    return repo


def test_the_space_folder_is_the_committed_tree_with_the_front_matter_before_the_readme(tmp_path):
    repo = _repo(tmp_path)
    readme = write_space(tmp_path / "space", root=repo)
    card = SpaceCard.load(readme)
    assert card.data.sdk == "docker" and card.data.app_port == 8501
    assert card.text.strip() == "# A project\n\nIts front page."
    assert (tmp_path / "space" / "pages" / "one.py").read_text() == "x = 1\n"
    assert (tmp_path / "space" / "Dockerfile").exists()
    assert not (tmp_path / "space" / "uncommitted.txt").exists()


def test_a_folder_that_is_not_empty_is_refused_with_a_message(tmp_path, capsys):
    (tmp_path / "space").mkdir()
    (tmp_path / "space" / "keep.txt").write_text("mine", encoding="utf-8")
    assert main([str(tmp_path / "space")]) == 1
    assert "is not empty" in capsys.readouterr().err
    assert (tmp_path / "space" / "keep.txt").read_text() == "mine"
    with pytest.raises(FileExistsError):
        write_space(tmp_path / "space", root=_repo(tmp_path))
