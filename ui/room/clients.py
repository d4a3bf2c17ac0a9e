"""Whose request this is, for the rooms' limits: the address of the client, as the connection
gives it, or, where the connection comes from a proxy this host trusts (nginx on this
machine, by default), as that proxy says (``X-Real-IP``, else the last ``X-Forwarded-For``
hop: the one the proxy added). A client that talks to a process directly cannot pass
itself off as another by sending those headers. No Streamlit here."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping

TRUSTED_ENV = "ROOM_TRUSTED_PROXIES"
DEFAULT_TRUSTED = "127.0.0.1,::1"
LOOPBACK = "127.0.0.1"  # Streamlit gives no address for a connection from this machine


def trusted_proxies(env: Mapping[str, str] | None = None) -> list:
    """The networks whose requests carry the client's address in their headers
    (``ROOM_TRUSTED_PROXIES``: addresses or networks, separated by commas)."""
    env = os.environ if env is None else env
    networks = []
    for part in (env.get(TRUSTED_ENV) or DEFAULT_TRUSTED).split(","):
        try:
            networks.append(ipaddress.ip_network(part.strip(), strict=False))
        except ValueError:
            continue
    return networks


def _address(text: str | None):
    try:
        return ipaddress.ip_address((text or "").strip())
    except ValueError:
        return None


def client_address(peer: str | None, headers: Mapping[str, str], trusted: list) -> str:
    """The client's address: ``peer`` (the connection's; None for this machine), or the one
    a trusted proxy put in ``headers``."""
    connection = _address(peer or LOOPBACK)
    if connection is None or not any(connection in network for network in trusted):
        return str(connection or peer)
    lowered = {name.lower(): value for name, value in headers.items()}
    real = _address(lowered.get("x-real-ip"))
    if real is not None:
        return str(real)
    hops = [hop for hop in (lowered.get("x-forwarded-for") or "").split(",") if hop.strip()]
    last = _address(hops[-1]) if hops else None
    return str(last) if last is not None else str(connection)
