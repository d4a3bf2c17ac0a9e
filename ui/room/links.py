"""The student link: an address every phone in the room can open. A host that knows its
public address sets ``PUBLIC_URL`` (the app's root, as students reach it); otherwise the link
is the teacher's browser's own address, which phones can reach unless it names this machine
only (localhost, 127.0.0.1, ::1), and then the teacher's screen says so. No Streamlit here."""

from __future__ import annotations

import ipaddress
import logging
import os
from collections.abc import Mapping
from urllib.parse import urlsplit

LOG = logging.getLogger(__name__)
PUBLIC_URL_ENV = "PUBLIC_URL"
LESSON_PATH = "lesson"
# Monospace characters are about this many em wide: the projected link's type is sized so
# that its whole length fits the card's width on one line.
MONO_EM = 0.62


def public_url(env: Mapping[str, str] | None = None) -> str | None:
    """``PUBLIC_URL`` without its trailing slash, or None when unset or not an http(s)
    address with a host (said once in the log)."""
    env = os.environ if env is None else env
    raw = (env.get(PUBLIC_URL_ENV) or "").strip()
    if not raw:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        LOG.warning(
            "%s=%r is not an http(s) address of the app's root: the browser's address is used", PUBLIC_URL_ENV, raw
        )
        return None
    return raw.rstrip("/")


def only_this_machine(url: str | None) -> bool:
    """Whether ``url`` names this machine only (or nothing): no phone can open it."""
    host = urlsplit(url or "").hostname
    if not host:
        return True
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def lesson_base(browser_url: str | None, env: Mapping[str, str] | None = None) -> str:
    """The lesson page's address for students: ``PUBLIC_URL``'s, else the browser's."""
    public = public_url(env)
    if public is not None:
        return f"{public}/{LESSON_PATH}"
    return (browser_url or "").split("?")[0].split("#")[0]


def link_em(link: str) -> float:
    """How many em the link takes on one line in monospace."""
    return len(link) * MONO_EM
