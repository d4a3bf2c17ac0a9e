"""Where the app's files are: beside the packages in a clone (``assets/``), or inside the installed
``seeing_attention`` package (``seeing_attention/app/assets/``) after ``pip install .``, which
copies the pages, the assets and ``.streamlit/`` there (setup.py)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent  # the seeing_attention package
CLONE_ROOT = HERE.parent
INSTALLED_APP = "app"  # the folder inside the seeing_attention package


def app_root() -> Path:
    """The folder that holds ``app.py``, ``pages/``, ``assets/`` and ``.streamlit/``."""
    if (CLONE_ROOT / "assets").is_dir() and (CLONE_ROOT / "app.py").is_file():
        return CLONE_ROOT
    return HERE / INSTALLED_APP


ASSETS = app_root() / "assets"
