"""deploy/: the nginx configuration the cluster script writes, and stopping by process id."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from deploy.cluster import MAIN_CONFIG, SITE_CONFIG, _end, _is, nginx_binary, site_config


def test_site_config_lists_exactly_the_given_processes_and_port():
    text = site_config([9101, 9102, 9103], 9200)
    assert re.findall(r"server 127\.0\.0\.1:(\d+) max_fails", text) == ["9101", "9102", "9103"]
    assert "listen 127.0.0.1:9200;" in text and "listen 8080;" not in text
    assert "gzip on;" in text and "gzip on;" not in site_config([9101], 9200, gzip=False)


def test_the_shipped_file_keeps_the_parts_a_class_needs():
    text = SITE_CONFIG.read_text(encoding="utf-8")
    assert "hash $sa_route consistent;" in text, "sticky sessions"
    assert "proxy_set_header Upgrade $http_upgrade;" in text, "websocket upgrade"
    assert re.search(r"gzip_types[^;]*application/javascript", text)
    assert "client_max_body_size 6m;" in text, "Streamlit's 5 MB uploads fit"


LINK_OVERHEAD_BYTES = 200  # the path, the language, presentation mode, the numbers version, separators


def _longest_value_bytes(param) -> int:
    from links.rules import LINK_TEXT_CHARS, URL_BYTES_PER_CHAR

    if param.kind == "text":  # write_url leaves out a longer one
        return min(param.max_chars, LINK_TEXT_CHARS) * URL_BYTES_PER_CHAR
    if param.kind == "choice" and not callable(param.choices):
        return max(len(param.to_url(option)) * URL_BYTES_PER_CHAR for option in param.options())
    if param.kind in ("int", "float"):
        return max(len(param.to_url(param.low)), len(param.to_url(param.high))) + 4  # a float's decimals
    return 64  # a bool, or a choice known only while the page runs (a model's key)


def test_nginx_accepts_the_longest_link_any_page_writes():
    """A link the app writes must never get nginx's 414: the request line buffer holds every
    page's longest link, each text at the most a link carries and every character CJK."""
    from links.explorer import PARAMS as EXPLORER
    from links.playground import PARAMS as PLAYGROUND
    from ui.lesson.page import PAGE as LESSON
    from ui.train.state import PARAMS as TRAIN

    number, unit = re.search(
        r"^\s*large_client_header_buffers\s+\d+\s+(\d+)([km]?);", site_config([9101], 9200), re.M
    ).groups()
    buffer = int(number) * {"": 1, "k": 1024, "m": 1024 * 1024}[unit]
    for page, params in (
        ("playground", PLAYGROUND),
        ("explorer", EXPLORER),
        ("train", TRAIN),
        ("lesson", LESSON.params),
    ):
        longest = LINK_OVERHEAD_BYTES + sum(len(p.name) + 2 + _longest_value_bytes(p) for p in params if p.in_url)
        assert longest <= buffer, f"{page}: a link of {longest} bytes, nginx takes {buffer}"


@pytest.mark.skipif(nginx_binary() is None, reason="no nginx (apt-get install nginx)")
def test_nginx_accepts_the_written_configuration(tmp_path):
    (tmp_path / "tmp").mkdir()
    (tmp_path / "site.conf").write_text(site_config([9101, 9102], 9200))
    (tmp_path / "nginx.conf").write_text(MAIN_CONFIG.format(run=tmp_path))
    check = subprocess.run(
        [nginx_binary(), "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stderr


def test_stop_leaves_a_process_alone_when_its_id_now_belongs_to_another_program():
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        deadline = time.monotonic() + 30
        while not _is(other.pid, "time.sleep") and time.monotonic() < deadline:
            time.sleep(0.05)  # until the program has started (slow on a loaded machine)
        _end(other.pid, "streamlit")  # a recorded id, reused by a program that is not the app
        assert other.poll() is None
        _end(other.pid, "time.sleep")
        assert other.wait(timeout=30) is not None
    finally:
        other.kill()


def test_every_process_of_a_cluster_is_given_one_room_store(tmp_path, monkeypatch):
    from deploy.cluster import room_store_for

    monkeypatch.delenv("ROOM_STORE", raising=False)
    assert room_store_for(tmp_path) == f"sqlite:///{tmp_path / 'rooms.sqlite3'}", "a file in the run folder"
    assert room_store_for(tmp_path, env={"ROOM_STORE": "redis://r:6379/0"}) == "redis://r:6379/0"
    monkeypatch.setenv("ROOM_STORE", "redis://elsewhere:6379/1")
    assert room_store_for(tmp_path) == "redis://elsewhere:6379/1"
    assert room_store_for(tmp_path, "sqlite:////x/rooms.sqlite3") == "sqlite:////x/rooms.sqlite3", "--room-store wins"


def test_the_kubernetes_recipe_gives_every_pod_the_same_redis_for_rooms():
    text = (Path(__file__).resolve().parents[2] / "deploy" / "kubernetes.yaml").read_text(encoding="utf-8")
    urls = re.findall(r"name: ROOM_STORE, value: \"(redis://[^\"]+)\"", text)
    assert urls == ["redis://seeing-attention-rooms:6379/0"]
    documents = text.split("\n---\n")
    kinds = {re.search(r"^kind: (\w+)", d, re.M)[1] for d in documents if "name: seeing-attention-rooms" in d}
    assert kinds == {"Deployment", "Service", "PersistentVolumeClaim"}, "a Redis, its name and its volume"
    (service,) = [d for d in documents if "kind: Service" in d and "name: seeing-attention-rooms" in d]
    assert "port: 6379" in service


def test_every_location_that_sets_headers_forwards_who_the_client_is():
    """nginx gives a location with any proxy_set_header of its own none of the server's: each
    such location must repeat the client's address (the rooms' limits read it)."""
    text = SITE_CONFIG.read_text(encoding="utf-8")
    blocks = re.findall(r"location [^{]*\{([^}]*)\}", text)
    assert blocks, "the file's locations"
    for block in blocks:
        if "proxy_set_header" in block and "/_stcore/health" not in block:
            assert "proxy_set_header X-Real-IP $remote_addr;" in block, block
            assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in block, block
