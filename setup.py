"""`pip install .` installs the whole app: besides the packages pyproject.toml lists, the build
copies the app's own files (app.py, pages/, assets/, .streamlit/config.toml) into
seeing_attention/app/, where `seeing-attention app` runs them (seeing_attention/paths.py finds them there).
Everything else is in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
APP_FILES = ("app.py", "pages", "assets", ".streamlit/config.toml")


class BuildWithApp(build_py):
    def run(self):
        super().run()
        target = Path(self.build_lib) / "seeing_attention" / "app"
        for name in APP_FILES:
            source, destination = ROOT / name, target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.copytree(
                    source, destination, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
                )
            else:
                shutil.copy2(source, destination)


setup(cmdclass={"build_py": BuildWithApp})
