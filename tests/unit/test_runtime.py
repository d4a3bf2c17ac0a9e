"""The server process's settings: TCP_NODELAY on every websocket connection of the server."""

from __future__ import annotations

import asyncio
import socket
from concurrent.futures import ThreadPoolExecutor

from ui import runtime


def _nodelay(sock: socket.socket) -> bool:
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0


def _listener_like_streamlit() -> socket.socket:
    """A listening socket made as Streamlit makes its own: ``socket.socket(family)``, proto 0."""
    sock = socket.socket(family=socket.AF_INET)
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sock.setblocking(False)
    return sock


async def _accepted_nodelay(listener: socket.socket) -> bool:
    """Whether asyncio's server gives an accepted connection TCP_NODELAY."""
    accepted: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

    def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set_result(_nodelay(writer.get_extra_info("socket")))
        writer.close()

    server = await asyncio.start_server(on_connect, sock=listener)
    try:
        _, writer = await asyncio.open_connection(*listener.getsockname()[:2])
        result = await asyncio.wait_for(accepted, 10)
        writer.close()
        return result
    finally:
        server.close()
        await server.wait_closed()


def _run(coroutine_function, *args):
    """asyncio.run in a thread of its own: another test's Playwright may hold a running loop here."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(coroutine_function(*args))).result()


def test_disable_nagle_sets_nodelay_on_connections_accepted_afterwards(monkeypatch):
    monkeypatch.setattr(asyncio.base_events, "_set_nodelay", runtime.ASYNCIO_SET_NODELAY)
    # The trap itself: with asyncio's own rule a proto-0 listener's connections keep Nagle.
    assert _run(_accepted_nodelay, _listener_like_streamlit()) is False
    runtime.disable_nagle()
    assert _run(_accepted_nodelay, _listener_like_streamlit()) is True


def test_disable_nagle_sets_nodelay_on_open_connections(monkeypatch):
    monkeypatch.setattr(asyncio.base_events, "_set_nodelay", runtime.ASYNCIO_SET_NODELAY)
    listener = socket.socket(family=socket.AF_INET)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    client = socket.create_connection(listener.getsockname())
    served, _ = listener.accept()
    try:
        assert not _nodelay(served)
        runtime.disable_nagle()
        assert _nodelay(served) and _nodelay(client)
    finally:
        for sock in (client, served, listener):
            sock.close()


class _RecordingSocket:
    """A socket stand-in that records every option set on it."""

    def __init__(self, family: int, kind: int) -> None:
        self.family, self.type = family, kind
        self.options: list[tuple[int, int, int]] = []

    def setsockopt(self, level: int, option: int, value: int) -> None:
        self.options.append((level, option, value))


def test_set_nodelay_sets_the_option_on_tcp_sockets_only():
    unix = _RecordingSocket(socket.AF_UNIX, socket.SOCK_STREAM)
    udp = _RecordingSocket(socket.AF_INET, socket.SOCK_DGRAM)
    tcp = _RecordingSocket(socket.AF_INET6, socket.SOCK_STREAM)
    for sock in (unix, udp, tcp):
        runtime.set_nodelay(sock)  # type: ignore[arg-type]
    assert unix.options == [] and udp.options == [], "no TCP option on a socket that is not TCP"
    assert tcp.options == [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]


def test_set_nodelay_on_a_real_tcp_socket_and_a_unix_one():
    left, right = socket.socketpair()  # Unix sockets: no TCP option to set, and no error
    listener = socket.socket(family=socket.AF_INET)
    try:
        runtime.set_nodelay(left)
        runtime.set_nodelay(listener)
        assert _nodelay(listener)
    finally:
        for sock in (left, right, listener):
            sock.close()


def test_set_nodelay_survives_a_socket_closed_meanwhile():
    sock = socket.socket(family=socket.AF_INET)
    sock.close()
    runtime.set_nodelay(sock)  # OSError (bad file descriptor) is expected and ignored
