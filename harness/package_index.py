"""Local PEP 503 package indexes made of metadata-only wheels, for tests of how installers
resolve the project's requirement files (no network).

A wheel here holds only its ``.dist-info`` (METADATA, WHEEL, RECORD): enough for a resolver
and for ``--dry-run``, which never installs. Its metadata is copied from a distribution
installed in the running interpreter, so the dependency tree is the real one.
"""

from __future__ import annotations

import base64
import hashlib
import html
import importlib.metadata
import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path


def normalized(name: str) -> str:
    """PEP 503's normalized project name."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Release:
    name: str
    version: str
    requires: tuple[str, ...] = ()
    requires_python: str | None = None

    @classmethod
    def installed(cls, name: str, version: str | None = None) -> Release:
        """The release as installed here (its dependencies), optionally under another version."""
        meta = importlib.metadata.distribution(name).metadata
        return cls(
            name=meta["Name"],
            version=version or meta["Version"],
            requires=tuple(meta.get_all("Requires-Dist") or ()),
            requires_python=meta.get("Requires-Python"),
        )

    @property
    def filename(self) -> str:
        stem = re.sub(r"[-_.]+", "_", self.name)
        return f"{stem}-{self.version}-py3-none-any.whl"

    def metadata(self) -> str:
        lines = ["Metadata-Version: 2.1", f"Name: {self.name}", f"Version: {self.version}"]
        if self.requires_python:
            lines.append(f"Requires-Python: {self.requires_python}")
        lines += [f"Requires-Dist: {requirement}" for requirement in self.requires]
        return "\n".join(lines) + "\n"

    def wheel_bytes(self) -> bytes:
        info = f"{re.sub(r'[-_.]+', '_', self.name)}-{self.version}.dist-info"
        files = {
            f"{info}/METADATA": self.metadata().encode(),
            f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: seeing-attention tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        }
        record = []
        for path, data in files.items():
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{path},sha256={digest},{len(data)}")
        record.append(f"{info}/RECORD,,")
        files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for path, data in files.items():
                archive.writestr(path, data)
        return buffer.getvalue()


def write_index(folder: Path, releases: list[Release]) -> None:
    """A PEP 503 simple index at ``folder``: ``folder/<project>/index.html`` and the wheels
    beside it (each link carries its sha256)."""
    folder.mkdir(parents=True, exist_ok=True)
    projects: dict[str, list[Release]] = {}
    for release in releases:
        projects.setdefault(normalized(release.name), []).append(release)
    for project, items in projects.items():
        page = folder / project
        page.mkdir(exist_ok=True)
        anchors = []
        for release in items:
            data = release.wheel_bytes()
            (page / release.filename).write_bytes(data)
            digest = hashlib.sha256(data).hexdigest()
            href = html.escape(release.filename.replace("+", "%2B"))
            anchors.append(f'<a href="{href}#sha256={digest}">{html.escape(release.filename)}</a><br/>')
        (page / "index.html").write_text(
            "<!DOCTYPE html><html><body>\n" + "\n".join(anchors) + "\n</body></html>\n", encoding="utf-8"
        )
    links = "\n".join(f'<a href="{p}/">{p}</a><br/>' for p in sorted(projects))
    (folder / "index.html").write_text(f"<!DOCTYPE html><html><body>\n{links}\n</body></html>\n", encoding="utf-8")


def installed_releases(skip: set[str] = frozenset()) -> list[Release]:
    """Every distribution installed in this interpreter, as it is installed."""
    seen: dict[str, Release] = {}
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"]
        if name and normalized(name) not in skip and normalized(name) not in seen:
            seen[normalized(name)] = Release(
                name=name,
                version=dist.metadata["Version"],
                requires=tuple(dist.metadata.get_all("Requires-Dist") or ()),
                requires_python=dist.metadata.get("Requires-Python"),
            )
    return list(seen.values())
