"""Tiny Shakespeare on first use: downloaded over HTTP from a server on 127.0.0.1 (the real
file when this machine has it), a corrupted copy refused, no server an offline message."""

from __future__ import annotations

import hashlib
import shutil

import pytest

import gpt_core.data
from gpt_core import InputError, corpus_cache_dir, download_tiny_shakespeare, find_tiny_shakespeare
from gpt_core.data import TINY_SHAKESPEARE_FILE, TINY_SHAKESPEARE_SHA256
from harness.file_server import serve_folder, unused_local_url

SMALL = "First Citizen:\nBefore we proceed any further, hear me speak.\n"


@pytest.fixture
def served(tmp_path):
    """A folder served over HTTP holding a good and a corrupted copy; (base URL, sha256)."""
    folder = tmp_path / "www"
    folder.mkdir()
    real = find_tiny_shakespeare()
    if real is not None:
        shutil.copy(real, folder / TINY_SHAKESPEARE_FILE)
        digest = TINY_SHAKESPEARE_SHA256
    else:  # the same checks with a small stand-in and its own checksum
        (folder / TINY_SHAKESPEARE_FILE).write_text(SMALL, encoding="utf-8")
        digest = hashlib.sha256(SMALL.encode()).hexdigest()
    good = (folder / TINY_SHAKESPEARE_FILE).read_bytes()
    (folder / "corrupted.txt").write_bytes(good[:-10] + b"0123456789")
    with serve_folder(folder) as url:
        yield url, digest


def test_download_over_http_is_verified_and_kept_once(served, tmp_path):
    url, digest = served
    cache = tmp_path / "cache"
    path = download_tiny_shakespeare(cache, url=f"{url}/{TINY_SHAKESPEARE_FILE}", sha256=digest)
    assert path == cache / TINY_SHAKESPEARE_FILE
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    # Kept: a second call does not need the server.
    assert download_tiny_shakespeare(cache, url=unused_local_url(), sha256=digest) == path


def test_a_corrupted_copy_is_refused_and_deleted(served, tmp_path):
    url, digest = served
    cache = tmp_path / "cache"
    with pytest.raises(InputError) as info:
        download_tiny_shakespeare(cache, url=f"{url}/corrupted.txt", sha256=digest)
    assert info.value.code == "checksum_mismatch"
    assert list(cache.iterdir()) == [], "nothing of a wrong download is kept"


def test_no_server_gives_the_offline_message(tmp_path):
    with pytest.raises(InputError) as info:
        download_tiny_shakespeare(tmp_path / "cache", url=unused_local_url())
    assert info.value.code == "download_failed"
    assert "offline" in str(info.value) and "127.0.0.1" in str(info.value)
    assert not list((tmp_path / "cache").iterdir())


def test_the_cache_folder_is_configurable_and_searched(monkeypatch, tmp_path):
    monkeypatch.setenv("GPT_CACHE_DIR", str(tmp_path / "mine"))
    assert corpus_cache_dir() == tmp_path / "mine"
    assert tmp_path / "mine" / TINY_SHAKESPEARE_FILE in gpt_core.data.tiny_shakespeare_candidates()
    monkeypatch.delenv("GPT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert corpus_cache_dir() == tmp_path / "xdg" / "seeing-attention"


def test_the_download_url_can_be_set_in_the_environment(monkeypatch):
    monkeypatch.delenv("TINY_SHAKESPEARE_URL", raising=False)
    assert gpt_core.data.tiny_shakespeare_url() == gpt_core.data.TINY_SHAKESPEARE_URL
    monkeypatch.setenv("TINY_SHAKESPEARE_URL", "http://127.0.0.1:9/mirror.txt")
    assert gpt_core.data.tiny_shakespeare_url() == "http://127.0.0.1:9/mirror.txt"


def test_the_corpus_is_searched_first_where_the_user_says(monkeypatch, tmp_path):
    monkeypatch.setenv("TINY_SHAKESPEARE", str(tmp_path / "mine.txt"))
    monkeypatch.setenv("GPT_DATA_DIR", str(tmp_path / "data"))
    candidates = gpt_core.data.tiny_shakespeare_candidates()
    assert candidates[:2] == [tmp_path / "mine.txt", tmp_path / "data" / TINY_SHAKESPEARE_FILE]


def test_only_a_file_with_the_right_checksum_is_found(monkeypatch, tmp_path):
    right, wrong = tmp_path / "right.txt", tmp_path / "wrong.txt"
    right.write_text(SMALL, encoding="utf-8")
    wrong.write_text(SMALL + "!", encoding="utf-8")
    monkeypatch.setattr(gpt_core.data, "TINY_SHAKESPEARE_SHA256", hashlib.sha256(SMALL.encode()).hexdigest())
    monkeypatch.setattr(gpt_core.data, "tiny_shakespeare_candidates", lambda: [tmp_path / "absent.txt", wrong, right])
    assert find_tiny_shakespeare() == right
    assert gpt_core.data.load_tiny_shakespeare() == SMALL
    monkeypatch.setattr(gpt_core.data, "tiny_shakespeare_candidates", lambda: [wrong])
    assert find_tiny_shakespeare() is None


def test_a_wrong_file_in_the_cache_is_replaced_by_a_verified_download(served, tmp_path):
    url, digest = served
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / TINY_SHAKESPEARE_FILE).write_text("a stale, wrong file", encoding="utf-8")
    path = download_tiny_shakespeare(cache, url=f"{url}/{TINY_SHAKESPEARE_FILE}", sha256=digest)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest


def test_a_cache_folder_that_cannot_be_made_is_a_readable_error(tmp_path):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder", encoding="utf-8")
    with pytest.raises(InputError) as info:
        download_tiny_shakespeare(blocker / "cache", url=unused_local_url())
    assert info.value.code == "cache_unwritable"
    assert info.value.params["path"] == str(blocker / "cache") and info.value.params["reason"]


# --- the details mutation testing found untested (docs/benchmarks.md, "Mutation score") ------


def test_the_cache_folder_is_made_with_its_parents(served, tmp_path):
    url, digest = served
    cache = tmp_path / "a" / "b" / "cache"
    assert download_tiny_shakespeare(cache, url=f"{url}/{TINY_SHAKESPEARE_FILE}", sha256=digest).is_file()


def test_a_cache_that_cannot_be_made_says_why(tmp_path, monkeypatch):
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    with pytest.raises(InputError) as info:
        download_tiny_shakespeare(blocked / "cache", url=unused_local_url())
    assert info.value.code == "cache_unwritable"
    assert info.value.params == {"path": str(blocked / "cache"), "reason": "Not a directory"}

    def refuse(*_, **__):
        raise OSError("the disk is read-only")  # no errno: its words are the reason

    monkeypatch.setattr(gpt_core.data.Path, "mkdir", refuse)
    with pytest.raises(InputError) as info:
        download_tiny_shakespeare(tmp_path / "cache", url=unused_local_url())
    assert info.value.params["reason"] == "the disk is read-only"


def test_a_failed_download_names_the_cause_not_the_wrapper(tmp_path):
    """A refused connection says 'Connection refused' (URLError's reason); a URL that is no
    URL says what is wrong with it."""
    url = unused_local_url()
    with pytest.raises(InputError) as info:
        download_tiny_shakespeare(tmp_path / "cache", url=url)
    assert info.value.params["url"] == url and info.value.params["reason"].endswith("] Connection refused")
    assert not info.value.params["reason"].startswith("<urlopen error"), "the cause, not its wrapper"
    with pytest.raises(InputError) as info:
        download_tiny_shakespeare(tmp_path / "cache", url="nope")
    assert info.value.params == {"url": "nope", "reason": "unknown url type: 'nope'"}


def test_a_wrong_download_says_both_checksums_and_where_it_came_from(served, tmp_path):
    url, digest = served
    corrupted = (tmp_path / "www" / "corrupted.txt").read_bytes()
    with pytest.raises(InputError) as info:
        download_tiny_shakespeare(tmp_path / "cache", url=f"{url}/corrupted.txt", sha256=digest)
    assert info.value.params == {
        "path": f"{url}/corrupted.txt",
        "expected": digest[:12],
        "actual": hashlib.sha256(corrupted).hexdigest()[:12],
    }


def test_a_download_reads_at_most_the_corpus_limit(tmp_path, monkeypatch):
    """A server sending more than MAX_CORPUS_BYTES is cut there: the cut file cannot match the
    whole file's checksum, so it is refused (never a larger file in memory)."""
    folder = tmp_path / "www"
    folder.mkdir()
    whole = SMALL.encode() * 4
    (folder / TINY_SHAKESPEARE_FILE).write_bytes(whole)
    monkeypatch.setattr(gpt_core.data, "MAX_CORPUS_BYTES", len(whole) // 2)
    with serve_folder(folder) as url, pytest.raises(InputError) as info:
        download_tiny_shakespeare(
            tmp_path / "cache", url=f"{url}/{TINY_SHAKESPEARE_FILE}", sha256=hashlib.sha256(whole).hexdigest()
        )
    assert info.value.code == "checksum_mismatch"
    assert info.value.params["actual"] == hashlib.sha256(whole[: len(whole) // 2]).hexdigest()[:12]


def test_a_server_that_never_answers_times_out(tmp_path, monkeypatch):
    import socket
    import time

    monkeypatch.setattr(gpt_core.data, "DOWNLOAD_TIMEOUT_S", 0.5)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()  # accepts the connection, never sends a byte
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/{TINY_SHAKESPEARE_FILE}"
        started = time.monotonic()
        with pytest.raises(InputError) as info:
            download_tiny_shakespeare(tmp_path / "cache", url=url)
    assert info.value.code == "download_failed" and info.value.params["reason"] == "timed out"
    assert time.monotonic() - started < 20, "the timeout, not a hang"


def test_the_places_searched_are_the_apps_own(monkeypatch, tmp_path):
    """Without settings: data/ beside app.py, the cache (~/.cache/seeing-attention), then the
    course's shared folder beside the checkout; the paths written out from this file's place."""
    from pathlib import Path

    for name in ("TINY_SHAKESPEARE", "GPT_DATA_DIR", "GPT_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    root = Path(__file__).resolve().parents[2]
    assert corpus_cache_dir() == tmp_path / ".cache" / "seeing-attention"
    assert gpt_core.data.tiny_shakespeare_candidates() == [
        root / "data" / "tinyshakespeare.txt",
        tmp_path / ".cache" / "seeing-attention" / "tinyshakespeare.txt",
        root.parent / "shared" / "data" / "tinyshakespeare.txt",
    ]
