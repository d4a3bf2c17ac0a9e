"""Finding and fetching a real model: the ones a server offers, a local folder or the Hugging
Face cache's copy, downloaded first (config, safetensors and tokenizer files only) when it is
not there, with every failure as a message that names the model."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from ..errors import InputError

# What a model folder needs: its config, safetensors weights and tokenizer. Never a pickle
# (*.bin, *.pt): loading one could run code.
MODEL_FILES = ("*.json", "*.safetensors", "*.txt", "*.model", "*.tiktoken")
DEFAULT_MODELS = ("gpt2", "distilgpt2", "HuggingFaceTB/SmolLM2-135M", "Qwen/Qwen2.5-0.5B")
HUB_TIMEOUT_S = 10.0
Progress = Callable[[int, int], None]  # (bytes done, bytes in all), while a model downloads


def is_folder(name: str) -> bool:
    return Path(name).expanduser().is_dir()


def short_name(name: str) -> str:
    """A name for a model a link can carry: the id itself, or a local folder's last part."""
    return Path(name).expanduser().name if is_folder(name) else name


def offered_models(setting: str | None = None) -> tuple[str, ...]:
    """The real models a server offers: ``ATTENTION_MODELS`` (comma-separated Hugging Face
    ids or local folders), or the default list. An empty setting offers none."""
    setting = os.environ.get("ATTENTION_MODELS") if setting is None else setting
    if setting is None:
        return DEFAULT_MODELS
    return tuple(dict.fromkeys(part.strip() for part in setting.split(",") if part.strip()))


# The clone's script that fetches models ahead; an installed package has no scripts/.
FETCH_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "fetch_models.py"


def fetch_command(name: str) -> str:
    """The command that fetches model ``name`` into the cache ahead, one that works here: the
    clone's script, or (installed with pip, no scripts/) this package's own ``fetch``."""
    if FETCH_SCRIPT.is_file():
        return f"python scripts/fetch_models.py {name}"
    return f'python -c "from gpt_core import hf; hf.fetch({name!r})"'


def looks_like_folder(name: str) -> bool:
    """Whether ``name`` is written as a path (a Hugging Face id is ``owner/name``, or a name)."""
    starts = ("/", "~", "./", "../", ".\\", "..\\")
    return name.startswith(starts) or "\\" in name or name.count("/") > 1 or Path(name).expanduser().exists()


def _download_error(error: BaseException, name: str) -> InputError:
    """A failed download as a message that names the model and says how to fetch it ahead."""
    from huggingface_hub import errors

    fetch = fetch_command(name)
    if isinstance(error, errors.GatedRepoError):
        return InputError("model_gated", name=name, fetch=fetch)
    if isinstance(error, errors.RepositoryNotFoundError):
        return InputError("model_not_found", name=name, fetch=fetch)
    if isinstance(error, (errors.LocalEntryNotFoundError, errors.OfflineModeIsEnabled)):
        return InputError("model_offline", name=name, fetch=fetch)
    return InputError("model_unreachable", name=name, detail=type(error).__name__, fetch=fetch)


def _wanted(path: str) -> bool:
    from fnmatch import fnmatch

    return "/" not in path and any(fnmatch(path, pattern) for pattern in MODEL_FILES)


def _hub() -> dict[str, str | None]:
    """Where the Hub and the cache are, read now (huggingface_hub reads HF_ENDPOINT and
    HF_HUB_CACHE once, when it is first imported)."""
    from huggingface_hub import constants

    endpoint = os.environ.get("HF_ENDPOINT") or constants.ENDPOINT
    cache = os.environ.get("HF_HUB_CACHE") or (
        str(Path(os.environ["HF_HOME"]) / "hub") if os.environ.get("HF_HOME") else constants.HF_HUB_CACHE
    )
    return {"endpoint": endpoint.rstrip("/"), "cache_dir": cache}


def local_folder(name: str) -> Path | None:
    """Where model ``name`` is on this computer (a folder, or the cache's complete copy), or None."""
    return Path(name).expanduser() if is_folder(name) else _cached_folder(name)


def _cached_folder(name: str) -> Path | None:
    from huggingface_hub import snapshot_download

    try:
        return Path(snapshot_download(name, allow_patterns=list(MODEL_FILES), local_files_only=True, **_hub()))
    except Exception:  # noqa: BLE001 - not cached (or cached in part): it must be fetched
        return None


def _bar_class(report: Callable[[int], None]):
    from tqdm.auto import tqdm

    class Bar(tqdm):
        def __init__(self, *args, **kwargs):
            kwargs["disable"] = True
            super().__init__(*args, **kwargs)

        def update(self, n=1):
            report(int(n or 0))
            return super().update(n)

    return Bar


def fetch(name: str, progress: Progress | None = None) -> Path:
    """The folder of model ``name``: a local folder as it is, else the Hugging Face cache's copy,
    downloaded first when it is not there (config, safetensors and tokenizer files only).
    ``progress(done, total)`` follows the bytes. Raises ``InputError`` (model_folder_missing, model_gated, model_not_found, model_offline,
    model_unreachable, model_no_files)."""
    if is_folder(name):
        return Path(name).expanduser()
    if looks_like_folder(name):  # a path to no folder: no download could help
        raise InputError("model_folder_missing", name=name)
    cached = _cached_folder(name)
    if cached is not None:
        return cached
    from huggingface_hub import HfApi, hf_hub_download
    from huggingface_hub.hf_api import RepoFile

    hub = _hub()
    try:
        api = HfApi(endpoint=hub["endpoint"])
        api.model_info(name, timeout=HUB_TIMEOUT_S)  # answers at once: no such model, gated, offline
        listing = api.list_repo_tree(name, recursive=True)
        files = [f for f in listing if isinstance(f, RepoFile) and _wanted(f.path)]
        total, done = sum(f.size or 0 for f in files), [0]

        def report(n: int) -> None:
            done[0] += n
            if progress is not None:
                progress(min(done[0], total), total)

        folder = None
        for f in files:
            folder = Path(hf_hub_download(name, f.path, tqdm_class=_bar_class(report), **hub)).parent
    except Exception as error:  # noqa: BLE001 - every failure becomes one message that names the model
        raise _download_error(error, name) from error
    if folder is None:
        raise InputError("model_no_files", name=name)
    return folder
