import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gpt_core.reproduce import COMPUTE_THREADS, use_compute_threads  # noqa: E402

BROWSER_TESTS = ROOT / "tests" / "browser"


def pytest_configure(config):
    """Every test computes with the app's torch thread count (gpt_core/reproduce.py): the
    numbers a test expects are then the ones the app computes, whichever tests ran before
    (a different count changes the last bits). Pages run in this process (AppTest) leave
    its threads on every core (ui/runtime.py ``pin_interpreter``), and so do the servers
    the tests start, unless a test asks for it (tests/unit/test_runtime.py); nor do they
    freeze the collector's heap (``freeze_heap``, tested there in a process of its own)."""
    use_compute_threads()
    os.environ["ATTENTION_CPU"] = "off"
    os.environ["ATTENTION_GC_FREEZE"] = "off"  # this process's objects stay collectable (ui/runtime.py)


@pytest.fixture(autouse=True)
def app_thread_count():
    """Each test starts with the app's thread count, and one that changed it is put back."""
    use_compute_threads()
    yield
    import torch

    if torch.get_num_threads() != COMPUTE_THREADS:
        torch.set_num_threads(COMPUTE_THREADS)


def pytest_collection_modifyitems(config, items):
    """Every test under tests/browser drives a real Chromium: mark it so `-m "not browser"`
    leaves them out."""
    for item in items:
        if BROWSER_TESTS in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def tiny_model_folders(tmp_path_factory) -> dict:
    """Tiny random GPT-2, Llama and Qwen2 models with their own BPE tokenizer, saved with
    save_pretrained (harness/tiny_models.py): real models' stand-ins, built offline. Two more
    by family: "llama-sp" (a SentencePiece-style tokenizer: ▁, <0xE5> byte pieces) and
    "qwen2-padded" (37 embedding rows its tokenizer has no token for)."""
    from harness.tiny_models import build_tiny_models

    return build_tiny_models(tmp_path_factory.mktemp("tiny_models"))


@pytest.fixture(scope="session")
def tiny_models(tiny_model_folders) -> dict:
    """The tiny models loaded through gpt_core.hf, by family."""
    from gpt_core import hf

    return {family: hf.load(str(folder)) for family, folder in tiny_model_folders.items()}


@pytest.fixture
def stand_in_shakespeare(monkeypatch, tmp_path) -> str:
    """This test's server has "Tiny Shakespeare": a generated stand-in (harness/stand_in.py)
    found where the app looks and verified against its own checksum, whether or not the real
    file is on this machine. Tests whose subject is the real file use it directly and skip
    with a reason naming TINY_SHAKESPEARE where it is absent."""
    import hashlib

    import gpt_core.data
    from harness.stand_in import stand_in_shakespeare as generated

    text = generated()
    path = tmp_path / gpt_core.data.TINY_SHAKESPEARE_FILE
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(gpt_core.data, "tiny_shakespeare_candidates", lambda: [path])
    monkeypatch.setattr(gpt_core.data, "TINY_SHAKESPEARE_SHA256", hashlib.sha256(text.encode("utf-8")).hexdigest())
    _clear_corpus_caches()
    yield text
    _clear_corpus_caches()


def _clear_corpus_caches() -> None:
    """The app's shared corpus caches (st.cache_resource), so the next session reads anew."""
    if "ui.shared.resources" in sys.modules:
        resources = sys.modules["ui.shared.resources"]
        resources.tiny_shakespeare.clear()
        resources.shared_corpus.clear()
