"""The rooms' limits count per client: the connection's address, or, from a proxy this host
trusts, the address the proxy says; a client cannot name itself another by its headers. The
stores count per client and window alike (SQLite and Redis), and keep no address."""

from __future__ import annotations

from classroom.model import client_hash
from ui.room.clients import client_address, trusted_proxies

from .room_stores import DEFAULTS, FakeClock

LOCAL = trusted_proxies({})  # the default: nginx on this machine


def test_behind_the_trusted_proxy_the_client_is_the_address_the_proxy_gives():
    assert client_address(None, {"X-Real-IP": "203.0.113.7"}, LOCAL) == "203.0.113.7"
    assert client_address("127.0.0.1", {"x-forwarded-for": "203.0.113.7"}, LOCAL) == "203.0.113.7"
    # A client that sent its own X-Forwarded-For: nginx appends the address it saw, the last hop.
    assert client_address(None, {"X-Forwarded-For": "10.9.9.9, 203.0.113.7"}, LOCAL) == "203.0.113.7"
    assert client_address("::1", {}, LOCAL) == "::1"


def test_a_client_talking_to_the_app_directly_is_its_own_address_whatever_it_sends():
    forged = {"X-Real-IP": "198.51.100.1", "X-Forwarded-For": "198.51.100.1"}
    assert client_address("203.0.113.7", forged, LOCAL) == "203.0.113.7"
    cluster = trusted_proxies({"ROOM_TRUSTED_PROXIES": "10.0.0.0/8, not-an-address"})
    assert client_address("10.1.2.3", forged, cluster) == "198.51.100.1", "the cluster's ingress is trusted"
    assert client_address("203.0.113.7", forged, cluster) == "203.0.113.7"
    assert client_address(None, forged, cluster) == "127.0.0.1", "this machine is not trusted there"


def test_stores_count_per_client_and_window_and_keep_no_address(stores):
    clock = FakeClock()
    clock.now = 1_000_000 * 60.0 + 5  # 5 s into a minute
    store = stores.open(DEFAULTS, clock)
    one, other = client_hash("203.0.113.7"), client_hash("203.0.113.8")
    assert store.counted("joins", one, 60.0, add=False) == 0
    assert [store.counted("joins", one, 60.0, add=True) for _ in range(3)] == [1, 2, 3]
    assert store.counted("joins", one, 60.0, add=False) == 3, "reading adds nothing"
    assert store.counted("joins", other, 60.0, add=True) == 1, "another client: its own count"
    assert store.counted("rooms", one, 3600.0, add=True) == 1, "another kind: its own count"
    clock.now += 54.0  # the same minute
    assert store.counted("joins", one, 60.0, add=True) == 4
    clock.now += 1.0  # the next minute
    assert store.counted("joins", one, 60.0, add=False) == 0
    assert store.counted("rooms", one, 3600.0, add=False) == 1, "the hour goes on"
    assert "203.0.113" not in stores.everything(), "no address kept"
