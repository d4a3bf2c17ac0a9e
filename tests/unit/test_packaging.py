"""`pip install .` (not editable) gives working `import gpt_core`, `import figures` and
`import seeing_attention` outside the repo, and the `seeing-attention` command: its export,
and the whole app, started from the installed copy and every page opened by a client that
speaks Streamlit's websocket protocol.

The venv under test sees this environment's packages through a .pth file (no download of
torch again), gets the project installed into it without dependencies, and imports the
two packages from a folder outside the repo: they must come from the installed copy,
and figures must not need the UI layer.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INSTALL_TIMEOUT_S = 300
SERVER_START_TIMEOUT_S = 120  # a cold start of Streamlit and torch on a busy 2-core machine
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
from gpt_core import GPT, CharVocabulary, GPTConfig
from gpt_core.sources import TinyGPT
tiny = GPTConfig(vocab_size=3, context_length=8, embedding_dim=4, heads=2, blocks=1, dropout=0.0)
generation = sa.generate(model=TinyGPT(GPT(tiny, seed=0), CharVocabulary(tuple("abc")), "tiny", "ab"), text="ab", n=2, lang="zh")
assert len(generation.steps) == 2 and "下一步" in generation.save_html("generation.html").read_text(encoding="utf-8")
import figures.page
print(sa.__file__, figures.page.__file__, sep="\\n")
"""

DEV_ONLY = {"harness", "tests", "benchmarks", "scripts", "deploy"}  # not installed


def test_pip_install_takes_every_package_the_app_imports():
    """pyproject.toml names each package (setuptools finds none by itself): a package left out
    installs an app that fails on its first import of it."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")  # no tomllib on Python 3.10
    listed = set(re.findall(r'"([\w.]+)"', re.search(r"^packages = \[(.*?)\]", pyproject, re.S | re.M).group(1)))
    packages = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for top in ROOT.glob("*/__init__.py")
        if top.parent.name not in DEV_ONLY
        for path in top.parent.rglob("__init__.py")
    }
    assert listed == packages


def _install_a_copy(tmp_path: Path) -> tuple[Path, Path, str]:
    """``pip install`` of a copy of the sources into a fresh venv that sees this one's packages
    (the requirements): the venv, its python and its site-packages folder."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    target = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(target) / "outer.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    # From a copy of the sources: a setuptools build writes build/ and *.egg-info where it runs.
    source = tmp_path / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "venv", "build", "*.egg-info", "test-artifacts", "mutants", "__pycache__", "data", ".cache"
        ),
    )
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", str(source)],
        check=True,
        timeout=INSTALL_TIMEOUT_S,
        cwd=tmp_path,
    )
    return venv, python, target


def test_pip_install_gives_gpt_core_and_figures_outside_the_repo(tmp_path):
    venv, python, target = _install_a_copy(tmp_path)
    outside = tmp_path / "notebook"
    outside.mkdir()
    out = subprocess.run(
        [str(python), "-c", CHECK], capture_output=True, text=True, check=True, cwd=outside
    ).stdout.splitlines()
    core_file, figures_file, hf_file, requires = out
    for path in (core_file, figures_file, hf_file):
        assert path.startswith(target), f"{path} is not the installed copy in {target}"
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)$", (ROOT / "requirements.txt").read_text(), re.M))
    assert requires == str(sorted(pins)), "the package's dependencies are the app's tested pins"

    for path in subprocess.run(
        [str(python), "-c", NOTEBOOK], capture_output=True, text=True, check=True, cwd=outside
    ).stdout.splitlines():
        assert path.startswith(target), f"{path} is not the installed copy in {target}"
    command = venv / "bin" / "seeing-attention"
    done = subprocess.run(
        [str(command), "export", "--text", "hello", "--heads", "2", "-o", "hello.html"],
        capture_output=True,
        text=True,
        cwd=outside,
        timeout=INSTALL_TIMEOUT_S,
    )
    assert done.returncode == 0, done.stderr
    page = (outside / "hello.html").read_text(encoding="utf-8")
    assert page.count("<script") == 3 and '"tokens":["h","e","l","l","o"]' in page
    said = subprocess.run([str(command), "--help"], capture_output=True, text=True, check=True, cwd=outside).stdout
    assert "seeing-attention export" in said

    installed_app = Path(target) / "seeing_attention" / "app"
    for name in (
        "app.py",
        "pages/1_playground.py",
        "assets/favicon.png",
        "assets/heads_experiment/results.json",
        ".streamlit/config.toml",
    ):
        assert (installed_app / name).is_file(), name
    _the_installed_app_serves_every_page(command, outside, tmp_path)


PAGES = {"": "", "playground": "seed=3", "lesson": "step=3", "train": "", "explorer": "model=h4"}


def _the_installed_app_serves_every_page(command: Path, cwd: Path, tmp_path: Path) -> None:
    from harness.server import _free_port
    from harness.streamlit_client import StreamlitClient

    port = _free_port()
    log = (tmp_path / "app.log").open("w")
    process = subprocess.Popen(
        [
            str(command),
            "app",
            "--server.port",
            str(port),
            "--server.headless",
            "true",
            "--server.address",
            "127.0.0.1",
            "--server.fileWatcherType",
            "none",
        ],
        cwd=cwd,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while True:
            assert process.poll() is None and time.monotonic() < deadline, (tmp_path / "app.log").read_text()
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                time.sleep(0.3)

        async def visit() -> dict[str, object]:
            results = {}
            for page, query in PAGES.items():
                client = StreamlitClient(url, page, query)
                await client.connect()
                try:
                    results[page] = await client.open_page()
                finally:
                    await client.close()
            return results

        # In a thread of its own: a browser test's Playwright may hold this thread's event loop.
        with ThreadPoolExecutor(1) as pool:
            results = pool.submit(asyncio.run, visit()).result()
        for page, result in results.items():
            assert result.ok, (page, result.exceptions)
        assert results["playground"].charts >= 1 and results["explorer"].charts >= 1
        said = (tmp_path / "app.log").read_text()
        assert "seeing_attention/app" in said and f":{port}" in said, "it says where it runs and its address"
    finally:
        process.terminate()
        process.wait(timeout=30)
