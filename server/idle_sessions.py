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
        closed = False  # a close was sent: by this middleware or by the app
        accepted = False
        pending: asyncio.Future | None = None  # the connection's next message, read ahead

        def read_ahead() -> None:
            """Once a message is handed to the app, the next is awaited while the app works on
            it (a step: seconds to minutes), so a client that leaves is seen as it leaves."""
            nonlocal pending
            pending = asyncio.ensure_future(receive())
            pending.add_done_callback(noticed)

        def noticed(future: asyncio.Future) -> None:
            if future.cancelled():
                return
            if future.exception() is not None or future.result().get("type") == "websocket.disconnect":
                departure.leave()  # its step in flight stops, queued or evaluated

        async def receive_next():
            nonlocal closed, pending
            if pending is None:
                if not accepted:  # the handshake's message: nothing to read ahead of yet
                    return await receive()
                read_ahead()
            done, _ = await asyncio.wait({pending}, timeout=self.timeout_s or None)
            if not done:
                if closed:  # the app closed and waits for the client's answer: none came
                    return {"type": "websocket.disconnect", "code": 1006}
                closed = True
                try:
                    await send({"type": "websocket.close", "code": IDLE_CLOSE_CODE,
                                "reason": idle_reason(self.timeout_s)})
                except Exception:  # noqa: BLE001 - the client went at the same moment
                    pass
                return {"type": "websocket.disconnect", "code": IDLE_CLOSE_CODE}
            message, pending = pending.result(), None
            if message.get("type") != "websocket.disconnect":
                read_ahead()
            return message

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
            if pending is not None and not pending.done():
                pending.cancel()
