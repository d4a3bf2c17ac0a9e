"""requirements.txt installs torch's CPU build, with every pin satisfied, under uv's index
rules (Streamlit Community Cloud installs with uv first) and under pip's, proved offline.

Two local sources stand in for the real ones, served over HTTP:
- "PyTorch's CPU index" at ``/whl/cpu/``: torch 2.13.0+cpu, and, as the real index does, its
  own copies of other projects at versions other than the pins (numpy 2.4.5, jinja2 3.1.0);
- "PyPI" at ``/simple/``: every distribution installed here at its installed version, and
  torch 2.13.0 as PyPI has it on Linux, the CUDA build that pulls an ``nvidia-*`` wheel.
The project's requirement files are copied with ``https://download.pytorch.org`` pointed at
the local server, and both installers resolve them with ``--dry-run``: nothing is installed.
The wheels hold metadata only (harness/package_index.py), with the real dependency trees.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from harness.file_server import serve_folder
from harness.package_index import Release, installed_releases, normalized, write_index

ROOT = Path(__file__).resolve().parents[2]
UV = Path(sys.executable).parent / "uv"
PYTORCH = "https://download.pytorch.org"
TIMEOUT_S = 300  # resolving ~70 projects from a local server, on a busy 2-core machine
CUDA_ONLY = "nvidia-cudnn-cu13"

pytestmark = pytest.mark.skipif(not UV.exists(), reason="uv is a dev requirement (requirements-dev.txt)")


def _pin(name: str) -> str:
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(rf"{name}==(\S+)", line.strip())
        if match:
            return match.group(1)
    raise AssertionError(f"requirements.txt pins no {name}")


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    """The two local sources, served at one base URL."""
    www = tmp_path_factory.mktemp("indexes")
    numpy_pin = _pin("numpy")
    assert numpy_pin != "2.4.5", "the CPU index's numpy must differ from the pin"
    write_index(
        www / "whl" / "cpu",
        [
            Release.installed("torch", "2.13.0+cpu"),
            Release.installed("numpy", "2.4.5"),
            Release.installed("jinja2", "3.1.0"),
        ],
    )
    cuda_torch = Release.installed("torch", "2.13.0")
    cuda_torch = Release(
        cuda_torch.name,
        "2.13.0",
        (*cuda_torch.requires, f"{CUDA_ONLY}==9.0.0; platform_system == 'Linux'"),
        cuda_torch.requires_python,
    )
    pypi = [r for r in installed_releases(skip={"torch"})] + [cuda_torch, Release(CUDA_ONLY, "9.0.0")]
    write_index(www / "simple", pypi)
    with serve_folder(www) as base:
        yield base


def _project(tmp_path: Path, base: str, requirements: str) -> Path:
    """The requirement file as a host would have it, pointed at the local sources."""
    path = tmp_path / "requirements.txt"
    path.write_text(requirements.replace(PYTORCH, base), encoding="utf-8")
    return path


def _clean_env(tmp_path: Path) -> dict[str, str]:
    """No pip or uv configuration of this machine: its local wheels and mirrors stay out."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "UV_"))}
    env.update(
        PIP_CONFIG_FILE=os.devnull,
        PIP_NO_CACHE_DIR="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        UV_CACHE_DIR=str(tmp_path / "uv-cache"),
        UV_NO_CONFIG="1",
        UV_PYTHON_DOWNLOADS="never",
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        UV_HTTP_RETRIES="0",
        PIP_RETRIES="0",
    )
    return env


def uv_resolve(tmp_path: Path, base: str, requirements: str) -> tuple[int, dict[str, str], str]:
    """``uv pip install --dry-run`` into a fresh venv: (exit code, {project: version}, output)."""
    env = _clean_env(tmp_path)
    target = tmp_path / "uv-target"
    subprocess.run(
        [str(UV), "venv", "-q", "--python", sys.executable, str(target)],
        env=env,
        check=True,
        capture_output=True,
        timeout=TIMEOUT_S,
    )
    done = subprocess.run(
        [
            str(UV),
            "pip",
            "install",
            "--dry-run",
            "--python",
            str(target / "bin" / "python"),
            "--default-index",
            f"{base}/simple",
            "-r",
            str(_project(tmp_path, base, requirements)),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        cwd=tmp_path,
    )
    output = done.stdout + done.stderr
    versions = {normalized(n): v for n, v in re.findall(r"^ \+ (\S+)==(\S+)$", output, re.M)}
    return done.returncode, versions, output


def pip_resolve(tmp_path: Path, base: str, requirements: str) -> tuple[int, dict[str, dict], str]:
    """``pip install --dry-run --report``: (exit code, {project: its report entry}, output)."""
    report = tmp_path / "report.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--dry-run",
            "--ignore-installed",
            "--quiet",
            "--report",
            str(report),
            "--index-url",
            f"{base}/simple",
            "-r",
            str(_project(tmp_path, base, requirements)),
        ],
        env=_clean_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        cwd=tmp_path,
    )
    items = {}
    if done.returncode == 0:
        for item in json.loads(report.read_text(encoding="utf-8"))["install"]:
            items[normalized(item["metadata"]["name"])] = item
    return done.returncode, items, done.stdout + done.stderr


def _shipped() -> str:
    return (ROOT / "requirements.txt").read_text(encoding="utf-8")


def _pins() -> dict[str, str]:
    return {normalized(n): v for n, v in re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)$", _shipped(), re.M)}


def test_uv_installs_the_cpu_build_with_every_pin(sources, tmp_path):
    code, versions, output = uv_resolve(tmp_path, sources, _shipped())
    assert code == 0, output
    assert versions["torch"] == "2.13.0+cpu"
    assert not any(name.startswith("nvidia") for name in versions), output
    for name, pin in _pins().items():
        assert versions.get(name, "").split("+")[0] == pin, f"{name}: {versions.get(name)} for the pin {pin}"


def test_pip_installs_the_cpu_build_from_pytorchs_page_and_the_rest_from_pypi(sources, tmp_path):
    code, items, output = pip_resolve(tmp_path, sources, _shipped())
    assert code == 0, output
    assert items["torch"]["metadata"]["version"] == "2.13.0+cpu"
    assert items["torch"]["download_info"]["url"].startswith(f"{sources}/whl/cpu/torch/")
    assert items["numpy"]["download_info"]["url"].startswith(f"{sources}/simple/numpy/")
    assert not any(name.startswith("nvidia") for name in items)
    for name, pin in _pins().items():
        assert items[name]["metadata"]["version"].split("+")[0] == pin, name


def test_the_extra_index_layout_fails_under_uv_and_the_simulation_sees_it(sources, tmp_path):
    """The layout this file replaced: uv takes numpy only from the first index that has it,
    PyTorch's, whose numpy is not the pin. pip, which merges indexes, resolves it: the reason a
    pip-only check missed it."""
    old = _shipped().replace(f"--find-links {PYTORCH}/whl/cpu/torch/", f"--extra-index-url {PYTORCH}/whl/cpu")
    assert old != _shipped()
    code, _, output = uv_resolve(tmp_path, sources, old)
    assert code != 0 and "numpy" in output, output
    (tmp_path / "pip").mkdir()
    code, items, output = pip_resolve(tmp_path / "pip", sources, old)
    assert code == 0 and items["torch"]["metadata"]["version"] == "2.13.0+cpu", output


def test_without_pytorchs_page_pypi_gives_the_cuda_build(sources, tmp_path):
    """The "PyPI" here is PyPI as a Linux machine sees it: torch alone brings CUDA's wheels."""
    bare = _shipped().replace(f"--find-links {PYTORCH}/whl/cpu/torch/", "")
    code, versions, output = uv_resolve(tmp_path, sources, bare)
    assert code == 0, output
    assert versions["torch"] == "2.13.0" and CUDA_ONLY in versions


def test_where_pytorchs_page_cannot_be_reached_uv_stops_and_pip_falls_back_to_pypi(sources, tmp_path):
    """What docs/hosting.md tells a host whose machine cannot reach download.pytorch.org."""
    offline = _shipped().replace(PYTORCH, "http://127.0.0.1:9")  # the discard port: refused
    code, _, output = uv_resolve(tmp_path, sources, offline)
    assert code != 0 and "127.0.0.1:9" in output, output
    (tmp_path / "pip").mkdir()
    code, items, output = pip_resolve(tmp_path / "pip", sources, offline)
    assert code == 0, output
    assert items["torch"]["metadata"]["version"] == "2.13.0" and CUDA_ONLY in items
