"""The folder to push to a Hugging Face Docker Space: the committed tree with a README.md
that starts with the Space's front matter.

    python deploy/space.py DEST

A Space is configured by a YAML block at the top of its README.md (``sdk: docker``, the
``app_port``); the project's README has none, so that it stays a plain front page. This writes
``git archive HEAD`` into DEST (an empty or missing folder) and puts ``deploy/space/front_matter.yml``
in front of its README.md. Then, in DEST: ``git init``, add the Space as a remote, commit, push.
The Space builds the Dockerfile; its variables (Settings, "Variables and secrets") reach the
build as build arguments, so ``BAKE_MODELS`` there bakes real models into the image, and
``STREAMLIT_SERVER_COOKIE_SECRET`` is a secret. See docs/hosting.md, "A Hugging Face Docker Space".

Only the standard library and git.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRONT_MATTER = ROOT / "deploy" / "space" / "front_matter.yml"


def front_matter() -> str:
    """The block without its comment lines (a Space's card keeps only the keys)."""
    lines = FRONT_MATTER.read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.startswith("#")) + "\n"


def write_space(dest: Path, revision: str = "HEAD", root: Path = ROOT) -> Path:
    """Write the Space's folder at ``dest`` from the git checkout ``root``; returns its README.md."""
    dest = Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise FileExistsError(f"{dest} is not empty")
    dest.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", "--format=tar", revision], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(dest, filter="data")
    readme = dest / "README.md"
    readme.write_text(front_matter() + "\n" + readme.read_text(encoding="utf-8"), encoding="utf-8")
    return readme


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", type=Path, help="an empty or missing folder")
    parser.add_argument("--revision", default="HEAD", help="the commit to export (default HEAD)")
    args = parser.parse_args(argv)
    try:
        readme = write_space(args.dest, args.revision)
    except (FileExistsError, subprocess.CalledProcessError) as error:
        message = (
            error.stderr.decode(errors="replace").strip()
            if isinstance(error, subprocess.CalledProcessError)
            else str(error)
        )
        print(f"space: {message}", file=sys.stderr)
        return 1
    print(f"wrote {args.dest} ({readme.name} starts with the Space's front matter); push it to the Space's repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
