"""Deadlines for a request's headers and body, and for a client reading its responses: uvicorn's
HTTP/1.1 protocol with slow-loris cut off.

uvicorn keeps a connection open for as long as its client takes to finish a request's headers:
its keep-alive timer starts only after a response and stops at the next byte, so a client
trickling a header a byte at a time, or opening connections and sending nothing, holds a file
descriptor each indefinitely (red-team pass 70: thousands of them). Here every connection must
deliver each request's headers within HEADER_SECONDS of the connection being made or of its
previous response, and then the request's body within BODY_SECONDS (red-team pass 80: headers
with `Content-Length: 4000000` and a body that never came held a descriptor each, and 60 of
them locked honest clients out of a server limited to 64 descriptors); and a client that stops
reading its responses (3,000 pipelined requests never read held 38 MB of the server's send
buffers) is cut off once the server has waited WRITE_STALL_SECONDS to write. An overdue
connection is aborted, not closed: a close waits for a send buffer the client never drains.
A request whose whole body is in (the app at work on it, a WebSocket upgraded) is not affected.
`uv run server` (and the Docker image) serve with this protocol; a server behind a proxy with
its own timeouts (Modal's) does not need it.
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0  # a loopback client sends them in well under a millisecond
BODY_SECONDS = 60.0  # a body is 4 MiB at most (request_limits.MAX_BODY_BYTES): 70 KB/s
WRITE_STALL_SECONDS = 30.0  # a response the client has not read for this long


class HeaderDeadlineProtocol(H11Protocol):
    """H11Protocol whose connections are aborted when a request's headers or body are overdue,
    or when the client has not read a response for WRITE_STALL_SECONDS."""

    _request_deadline: asyncio.TimerHandle | None = None
    _body_timed = False  # the deadline running now is the body's
    _write_stall: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(HEADER_SECONDS)

    def connection_lost(self, exc) -> None:
        self._disarm()
        self._unstall()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        state = self.conn.their_state
        if self.transport.get_protocol() is not self:  # upgraded: the WebSocket's own now
            self._disarm()  # (h11 saw its request's headers only: SEND_BODY still)
            self._unstall()
        elif state is h11.SEND_BODY:  # the headers are in: the body has its own deadline, once
            if not self._body_timed:
                self._arm(BODY_SECONDS)
                self._body_timed = True
        elif state is not h11.IDLE:  # the whole request is in, or the protocol switched
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm(HEADER_SECONDS)  # the next request's headers have their own deadline

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._write_stall is None:
            self._write_stall = self.loop.call_later(WRITE_STALL_SECONDS, self._abort)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._unstall()

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._request_deadline = self.loop.call_later(seconds, self._request_overdue)

    def _disarm(self) -> None:
        self._body_timed = False
        if self._request_deadline is not None:
            self._request_deadline.cancel()
            self._request_deadline = None

    def _unstall(self) -> None:
        if self._write_stall is not None:
            self._write_stall.cancel()
            self._write_stall = None

    def _request_overdue(self) -> None:
        self._request_deadline = None
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and self.transport.get_protocol() is self:
            self._abort()

    def _abort(self) -> None:
        self._write_stall = None
        if self.transport.get_protocol() is self:  # (never a connection handed to a WebSocket)
            self.transport.abort()  # (closing already, it may still wait on an unread buffer)
