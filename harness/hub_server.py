"""A local stand-in for the Hugging Face Hub, for tests of model downloads (no internet).

It answers the three requests ``huggingface_hub`` makes to fetch a model file by file: the
repository's file list (``/api/models/{repo}/tree/{revision}``), its revision
(``/api/models/{repo}/revision/{revision}``) and each file (``HEAD`` and ``GET``
``/{repo}/resolve/{revision}/{path}``, with the ``X-Repo-Commit`` and ``ETag`` headers the
Hub sends). A repository is a folder ``root/{owner}/{name}``; any other id answers 404 with
the Hub's ``X-Error-Code: RepoNotFound``, and ids listed in ``gated`` answer 403 ``GatedRepo``.

    with serve_hub(root) as endpoint:      # then HF_ENDPOINT=endpoint
        ...
"""

from __future__ import annotations

import hashlib
import http.server
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote, urlparse

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*") if path.is_file())


def _etag(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class HubHandler(http.server.BaseHTTPRequestHandler):
    """The Hub's answers for the repositories under ``root`` (``_handler`` sets it, the gated
    ones and the list each request is written to)."""

    root: Path
    gated: frozenset[str]
    requests: list[str]

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass

    def _send(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, value) -> None:
        self._send(200, json.dumps(value).encode(), {"Content-Type": "application/json"})

    def _repo(self, repo: str) -> Path | None:
        if repo in self.gated:
            self._send(403, b"gated", {"X-Error-Code": "GatedRepo", "X-Error-Message": "gated"})
            return None
        folder = self.root / repo
        if not folder.is_dir():
            self._send(404, b"not found", {"X-Error-Code": "RepoNotFound", "X-Error-Message": "not found"})
            return None
        return folder

    def _api(self, parts: list[str]) -> None:
        # /api/models/{owner}/{name}/(tree|revision)/{revision}[/...]
        kind_at = next((i for i, part in enumerate(parts) if part in ("tree", "revision")), len(parts))
        folder = self._repo("/".join(parts[2:kind_at]))
        if folder is None:
            return
        files = _files(folder)
        if kind_at < len(parts) and parts[kind_at] == "tree":
            self._json(
                [
                    {"type": "file", "path": str(p.relative_to(folder)), "size": p.stat().st_size, "oid": _etag(p)[:40]}
                    for p in files
                ]
            )
            return
        self._json(
            {
                "id": "/".join(parts[2:kind_at]),
                "sha": COMMIT,
                "siblings": [{"rfilename": str(p.relative_to(folder))} for p in files],
            }
        )

    def _resolve(self, parts: list[str]) -> None:
        at = parts.index("resolve")
        folder = self._repo("/".join(parts[:at]))
        if folder is None:
            return
        path = folder / "/".join(parts[at + 2 :])
        if not path.is_file():
            self._send(404, b"no such file", {"X-Error-Code": "EntryNotFound", "X-Error-Message": "no file"})
            return
        body = path.read_bytes()
        self._send(
            200, body, {"X-Repo-Commit": COMMIT, "ETag": f'"{_etag(path)}"', "Content-Type": "application/octet-stream"}
        )

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        self.requests.append(f"{self.command} {self.path}")
        parts = [unquote(part) for part in urlparse(self.path).path.strip("/").split("/")]
        if parts[:2] == ["api", "models"]:
            self._api(parts)
        elif "resolve" in parts:
            self._resolve(parts)
        else:
            self._send(404, b"?")

    do_HEAD = do_GET  # noqa: N815 - the base class's name


def _handler(root: Path, gated: frozenset[str], requests: list[str]) -> type[HubHandler]:
    return type("Hub", (HubHandler,), {"root": root, "gated": gated, "requests": requests})


@contextmanager
def serve_hub(root: Path, gated: tuple[str, ...] = ()) -> Iterator[tuple[str, list[str]]]:
    """Serve the model folders under ``root`` as the Hub would; yields the endpoint URL and the
    list of requests it answered (for tests that check what was downloaded, and when)."""
    requests: list[str] = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(root, frozenset(gated), requests))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", requests
    finally:
        server.shutdown()
        server.server_close()
