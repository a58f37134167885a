"""Close a WebSocket session its client has left idle, so that its slot is freed.

A session lasts as long as its connection (app.py: OpenEnv's idle reaper freed the slots of live
sessions, so it is off). A client that keeps its connection open but plays no more held its slot
for good: an RL loop that drops environment objects without `close()` keeps their connections up
(the client's background loop answers the server's pings), and once KERNEL_ENV_MAX_SESSIONS of
them were left every new client got CAPACITY_REACHED until the trainer restarted. Here a session
whose client sends nothing for KERNEL_ENV_IDLE_TIMEOUT_S is closed with IDLE_CLOSE_CODE and a
reason that says why. The clock runs only while the session waits for its client's next message:
a step queued behind other sessions or evaluated for an hour is never idle, and the clock starts
again when its answer has been sent.

While the app works on a message, the connection's next one is read ahead: a client that leaves
mid-step is seen as it leaves, and the connection's Departure (server/departure.py) stops that
step's evaluation, queued or running.
"""

from __future__ import annotations

import asyncio
import collections
import json

from server.departure import CURRENT, Departure

IDLE_CLOSE_CODE = 4408  # private-use range; 408 as HTTP's Request Timeout
DEFAULT_IDLE_TIMEOUT_S = 1800.0


def idle_reason(timeout_s: float) -> str:
    return (f"no message for {timeout_s:g} s: session closed to free its slot "
            "(KERNEL_ENV_IDLE_TIMEOUT_S); connect again and reset")


class OpenSessions:
    """WebSocket connections open now (GET /status): each is a session, or was refused one and
    is closing. Counted on the event loop's thread only."""

    def __init__(self):
        self.open = 0


class IdleClose:
    """ASGI middleware: a WebSocket session whose app waits more than `timeout_s` for the
    client's next message is closed, and the app is told the client disconnected (OpenEnv's
    loop then frees the session). `timeout_s` 0: never. `counter` counts the WebSocket
    connections open, whatever the timeout."""

    def __init__(self, app, timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
                 counter: OpenSessions | None = None):
        self.app, self.timeout_s = app, timeout_s
        self.counter = counter or OpenSessions()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        self.counter.open += 1
        try:
            await self._serve(scope, receive, send)
        finally:
            self.counter.open -= 1

    async def _serve(self, scope, receive, send):
        departure = Departure()
        context = CURRENT.set(departure)  # the app's task sees it: KernelEnvironment.step_async
        inbox = _Inbox(receive, departure)
        closed = False  # a close was sent: by this middleware or by the app
        accepted = False

        async def receive_next():
            nonlocal closed
            if not accepted:  # the handshake's message: nothing to read ahead of yet
                return await receive()
            message = await inbox.next(self.timeout_s or None)
            if message is not None:
                return message
            if closed:  # the app closed and waits for the client's answer: none came
                return {"type": "websocket.disconnect", "code": 1006}
            closed = True
            try:
                await send({"type": "websocket.close", "code": IDLE_CLOSE_CODE,
                            "reason": idle_reason(self.timeout_s)})
            except Exception:  # noqa: BLE001 - the client went at the same moment
                pass
            return {"type": "websocket.disconnect", "code": IDLE_CLOSE_CODE}

        async def send_unless_closed(message):
            nonlocal closed, accepted
            if closed:  # the app's close (or a late reply) after this middleware's: the
                return  # connection is already closing, and a second close is an ASGI error
            if message["type"] == "websocket.close":
                closed = True
            elif message["type"] == "websocket.accept":
                accepted = True
            await send(message)

        try:
            await self.app(scope, receive_next, send_unless_closed)
        finally:
            CURRENT.reset(context)
            departure.leave()  # the session is over: nothing of it may run on
            inbox.close()


# Messages read ahead of the app at most. A client may send a message or two after its step
# before it leaves (OpenEnv's client sends {"type": "close"} ahead of its close frame), and the
# disconnect behind them must still be seen; bounded, as each may be 2 MiB.
READ_AHEAD = 4


class _Inbox:
    """A connection's messages, read ahead of its app while it works (a step: seconds to
    minutes), so that a client that leaves is seen as it leaves: its Departure is told."""

    def __init__(self, receive, departure: Departure):
        self.receive, self.departure = receive, departure
        self.messages: collections.deque = collections.deque()  # (a failed receive's error too)
        self.reader: asyncio.Future | None = None
        self.arrived = asyncio.Event()
        self.ended = False  # the disconnect came (or receive failed): nothing more to read

    def fill(self) -> None:
        if self.reader is None and not self.ended and len(self.messages) < READ_AHEAD:
            self.reader = asyncio.ensure_future(self.receive())
            self.reader.add_done_callback(self._arrive)

    def _arrive(self, reader: asyncio.Future) -> None:
        self.reader = None
        if reader.cancelled():
            return
        error = reader.exception()
        message = error if error is not None else reader.result()
        self.messages.append(message)
        if error is not None or message.get("type") == "websocket.disconnect":
            self.ended = True
            self.departure.leave()  # its step in flight stops, queued or evaluated
        elif _says_goodbye(message):
            self.departure.leave()
        self.arrived.set()
        self.fill()

    async def next(self, timeout_s: float | None) -> dict | None:
        """The next message, in order; None if none came within `timeout_s` (None: no limit)."""
        while not self.messages:
            if self.ended:
                return {"type": "websocket.disconnect", "code": 1006}
            self.arrived.clear()
            self.fill()
            try:
                await asyncio.wait_for(self.arrived.wait(), timeout_s)
            except asyncio.TimeoutError:
                return None
        message = self.messages.popleft()
        self.fill()
        if isinstance(message, BaseException):
            raise message
        return message

    def close(self) -> None:
        if self.reader is not None and not self.reader.done():
            self.reader.cancel()


def _says_goodbye(message: dict) -> bool:
    """OpenEnv's client's last message before its close frame: {"type": "close"}."""
    text = message.get("text")
    if not isinstance(text, str) or len(text) > 64:
        return False
    try:
        said = json.loads(text)
    except ValueError:
        return False
    return isinstance(said, dict) and said.get("type") == "close"
