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


BIG = 1 << 20  # the response to GET /big


async def app(scope, receive, send):
    if scope["type"] == "http":
        while (await receive()).get("more_body"):
            pass
        body = b"x" * BIG if scope["path"] == "/big" else b"ok"
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
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
        for name in ("HEADER_SECONDS", "BODY_SECONDS", "WRITE_STALL_SECONDS"):
            patch.setattr(header_deadline, name, DEADLINE)
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


def test_a_body_that_never_comes_is_cut_off_and_a_prompt_one_is_answered(served):
    """Headers in, `Content-Length` promised, the body trickled or never sent (red-team pass
    80: each such connection held a descriptor for as long as the client liked)."""
    with socket.create_connection(("127.0.0.1", served)) as stalled:
        stalled.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4000000\r\n\r\n")
        start = time.monotonic()
        assert _closed_after(stalled, DEADLINE * 10)
        assert DEADLINE * 0.8 < time.monotonic() - start < DEADLINE * 8
    with socket.create_connection(("127.0.0.1", served)) as prompt:
        prompt.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n")
        time.sleep(DEADLINE * 0.5)
        prompt.sendall(b"hello")
        assert _response(prompt).startswith(b"HTTP/1.1 200")


def test_a_client_that_does_not_read_its_responses_is_cut_off(served):
    """Pipelined requests whose responses are never read fill the server's send buffer (pass
    80: 3,000 of them held 38 MB): past the write-stall deadline the connection is aborted,
    not left to wait for a reader."""
    pipelined = 64  # 64 MiB of responses: far past every buffer between server and client
    with socket.socket() as greedy:
        greedy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        greedy.connect(("127.0.0.1", served))
        greedy.sendall(b"GET /big HTTP/1.1\r\nHost: x\r\n\r\n" * pipelined)
        time.sleep(DEADLINE * 6)  # not reading: the server waits to write, then gives up
        received = 0
        greedy.settimeout(DEADLINE * 10)
        try:
            while chunk := greedy.recv(1 << 20):
                received += len(chunk)
        except ConnectionResetError:
            pass
        assert received < pipelined * BIG / 2, received
