"""A deadline for a request's headers: uvicorn's HTTP/1.1 protocol with slow-loris cut off.

uvicorn keeps a connection open for as long as its client takes to finish a request's headers:
its keep-alive timer starts only after a response and stops at the next byte, so a client
trickling a header a byte at a time, or opening connections and sending nothing, holds a file
descriptor each indefinitely (red-team pass 70: thousands of them). Here every connection must
deliver each request's headers within HEADER_SECONDS of the connection being made or of its
previous response; otherwise it is closed. A request whose headers are in (an HTTP body being
sent, a WebSocket upgraded) is not affected. `uv run server` (and the Docker image) serve with
this protocol; a server behind a proxy with its own header timeout (Modal's) does not need it.
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0  # a loopback client sends them in well under a millisecond


class HeaderDeadlineProtocol(H11Protocol):
    """H11Protocol whose connections are closed when a request's headers are overdue."""

    _header_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_deadline()

    def connection_lost(self, exc) -> None:
        self._disarm_header_deadline()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:  # a request's headers are in
            self._disarm_header_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm_header_deadline()  # the next request's headers have their own deadline

    def _arm_header_deadline(self) -> None:
        self._disarm_header_deadline()
        self._header_deadline = self.loop.call_later(HEADER_SECONDS, self._headers_overdue)

    def _disarm_header_deadline(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _headers_overdue(self) -> None:
        self._header_deadline = None
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self.transport.close()
