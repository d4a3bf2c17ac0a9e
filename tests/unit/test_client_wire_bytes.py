"""The websocket client counts the bytes on the wire apart from the messages' own bytes: a
server that compresses sends fewer bytes than its messages hold, one that does not sends a
little more (the frames' headers). A stand-in server on a loopback port answers the client's
page request with one large, very compressible message and ``script_finished``."""

from __future__ import annotations

import asyncio

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from harness.streamlit_client import SUBPROTOCOL, StreamlitClient

BODY = "attention " * 20_000  # 200,000 characters that deflate to a few hundred bytes


def _messages() -> list[bytes]:
    text = ForwardMsg()
    text.delta.new_element.markdown.body = BODY
    done = ForwardMsg()
    done.script_finished = ForwardMsg.FINISHED_SUCCESSFULLY
    return [text.SerializeToString(), done.SerializeToString()]


async def _one_run(compression: str | None):
    from websockets.asyncio.server import serve

    async def answer(connection) -> None:
        await connection.recv()  # the page request
        for message in _messages():
            await connection.send(message)
        await connection.wait_closed()

    async with serve(answer, "127.0.0.1", 0, subprotocols=[SUBPROTOCOL], compression=compression) as server:
        port = server.sockets[0].getsockname()[1]
        client = StreamlitClient(f"http://127.0.0.1:{port}", "playground")
        await client.connect()
        try:
            return await client.open_page()
        finally:
            await client.close()


@pytest.mark.parametrize("compression", [None, "deflate"])
def test_the_run_counts_its_messages_and_the_bytes_on_the_wire(compression):
    result = asyncio.run(_one_run(compression))
    assert result.ok and result.messages == 2
    assert result.bytes == sum(len(message) for message in _messages())
    if compression is None:
        # each frame adds a header of 2 to 10 bytes to its message
        assert result.bytes < result.wire_bytes <= result.bytes + 2 * 10
    else:
        assert result.wire_bytes < result.bytes / 50, "the repeated text deflates"
