"""The header deadline of `uv run server`'s HTTP protocol (server/header_deadline.py), on a real
uvicorn over loopback: slow or absent headers cost their connection, nothing else does."""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest
import uvicorn
import websockets

from server import header_deadline
from server.header_deadline import HeaderDeadlineProtocol

DEADLINE = 0.5


async def app(scope, receive, send):
    if scope["type"] == "http":
        await receive()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})
    elif scope["type"] == "websocket":
        await receive()  # connect
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                return
            await send({"type": "websocket.send", "text": message["text"]})


@pytest.fixture(scope="module")
def served():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(header_deadline, "HEADER_SECONDS", DEADLINE)
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error",
                                               http=HeaderDeadlineProtocol, lifespan="off"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)
        yield port
        server.should_exit = True
        thread.join(10)


def _response(sock: socket.socket) -> bytes:
    sock.settimeout(5)
    got = b""
    while not got.endswith(b"\r\n\r\nok"):
        chunk = sock.recv(4096)
        assert chunk, got
        got += chunk
    return got


def _closed_after(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes `sock` within `seconds` (reading EOF or a reset)."""
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
        return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_a_connection_that_sends_no_headers_is_closed_at_the_deadline(served):
    with socket.create_connection(("127.0.0.1", served)) as idle:
        start = time.monotonic()
        assert _closed_after(idle, DEADLINE * 10)
        assert DEADLINE * 0.8 < time.monotonic() - start < DEADLINE * 8


def test_headers_trickled_a_byte_at_a_time_are_cut_off(served):
    """Every byte stopped uvicorn's own keep-alive timer; the deadline holds for the whole
    header, on a fresh connection and on the next request of a kept-alive one."""
    request = b"GET / HTTP/1.1\r\nHost: x\r\n"
    for kept_alive in (False, True):
        with socket.create_connection(("127.0.0.1", served)) as slow:
            if kept_alive:
                slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                assert _response(slow).startswith(b"HTTP/1.1 200")
            start, closed = time.monotonic(), False
            for byte in request * 20:
                try:
                    slow.sendall(bytes([byte]))
                except OSError:
                    closed = True
                    break
                if _closed_after(slow, DEADLINE / 10):
                    closed = True
                    break
            assert closed and time.monotonic() - start < DEADLINE * 8, kept_alive


def test_prompt_requests_and_a_quiet_websocket_outlive_the_deadline(served):
    with socket.create_connection(("127.0.0.1", served)) as kept:
        for _ in range(3):  # one connection, requests spaced within the deadline each time
            kept.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert _response(kept).startswith(b"HTTP/1.1 200")
            time.sleep(DEADLINE * 0.6)

    async def quiet():
        async with websockets.connect(f"ws://127.0.0.1:{served}/ws") as ws:
            await asyncio.sleep(DEADLINE * 3)  # an episode's step can take minutes
            await ws.send("still here")
            return await ws.recv()
    assert asyncio.run(quiet()) == "still here"
