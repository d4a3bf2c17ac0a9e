"""`pip install .` gives working `import gpt_core`, `import figures` and `import
seeing_attention` outside the repo, and the `seeing-attention` command.

The venv under test sees this environment's packages through a .pth file (no download of
torch again), gets the project installed into it without dependencies, and imports the
two packages from a folder outside the repo: they must come from the installed copy,
and figures must not need the UI layer.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INSTALL_TIMEOUT_S = 300
CHECK = """
import importlib.metadata, sys
import gpt_core, figures
from gpt_core import hf  # a package of its own: installed too
from figures import channel_map_figure
from gpt_core import PlaygroundConfig, trace_attention
result = trace_attention("abc", PlaygroundConfig(heads=2, head_dim=2))
assert result.trace.weights.shape == (1, 2, 3, 3)
assert "ui" not in sys.modules and "streamlit" not in sys.modules
requires = importlib.metadata.requires("seeing-attention")
print(gpt_core.__file__, figures.__file__, hf.__file__, sorted(r.split("=")[0] for r in requires), sep="\\n")
"""
# seeing_attention without Streamlit: an import of it fails here, as where it is not installed.
NOTEBOOK = """
import sys
sys.modules["streamlit"] = None
import seeing_attention as sa
view = sa.show("abc", heads=2, head_dim=2, lang="zh")
assert view.numbers["weights"].shape == (2, 3, 3)
path = view.save_html("page.html")
assert "动手学" not in path.read_text(encoding="utf-8") and "abc" in path.read_text(encoding="utf-8")
import figures.page
print(sa.__file__, figures.page.__file__, sep="\\n")
"""


def test_pip_install_gives_gpt_core_and_figures_outside_the_repo(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    target = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    (Path(target) / "outer.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", str(ROOT)],
        check=True, timeout=INSTALL_TIMEOUT_S, cwd=tmp_path,
    )  # fmt: skip
    outside = tmp_path / "notebook"
    outside.mkdir()
    out = subprocess.run(
        [str(python), "-c", CHECK], capture_output=True, text=True, check=True, cwd=outside
    ).stdout.splitlines()  # fmt: skip
    core_file, figures_file, hf_file, requires = out
    for path in (core_file, figures_file, hf_file):
        assert path.startswith(target), f"{path} is not the installed copy in {target}"
    assert requires == str(["numpy", "plotly", "torch"])

    for path in subprocess.run([str(python), "-c", NOTEBOOK], capture_output=True, text=True, check=True,
                               cwd=outside).stdout.splitlines():
        assert path.startswith(target), f"{path} is not the installed copy in {target}"
    command = venv / "bin" / "seeing-attention"
    done = subprocess.run([str(command), "export", "--text", "hello", "--heads", "2", "-o", "hello.html"],
                          capture_output=True, text=True, cwd=outside, timeout=INSTALL_TIMEOUT_S)
    assert done.returncode == 0, done.stderr
    page = (outside / "hello.html").read_text(encoding="utf-8")
    assert page.count("<script") == 3 and '"tokens":["h","e","l","l","o"]' in page
    said = subprocess.run([str(command), "--help"], capture_output=True, text=True, check=True, cwd=outside).stdout
    assert "seeing-attention export" in said
