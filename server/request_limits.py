"""Limits on what a client may send before the app reads it.

A submission is at most 256 KiB of source (kernel_env.models), so no honest request body comes
near MAX_BODY_BYTES; a bigger one was parsed and validated whole before any answer (200 MB took
the server from 0.76 to 1.23 GB). A WebSocket message is capped at MAX_WS_MESSAGE_BYTES twice: by
uvicorn as it reads the frame (`ws_max_size`, with `uv run server`) and by NoWebSocketMcp, for
servers that do not take that setting (`uvicorn server.app:app`, Modal's ASGI server).
"""

from __future__ import annotations

import json
import re
import sys

MAX_BODY_BYTES = 4 * 1024 * 1024
DRAINED_BYTES = 64 * 1024 * 1024  # a mistaken big body gets its answer; a flood is cut off
# A step is at most 256 KiB of source: 1.5 MiB once JSON escapes every byte. A 16 MiB message of
# empty objects cost the server 435 MB while it waited (red-team pass 47).
MAX_WS_MESSAGE_BYTES = 2 * 1024 * 1024
TOO_LARGE = "request body too large: at most %d bytes (a submission is at most 256 KiB of source)"


class BodyLimit:
    """ASGI middleware: 413 for an HTTP body over the limit, by its Content-Length before
    anything is read or, without one (chunked), once the bytes received pass it."""

    def __init__(self, app, limit: int = MAX_BODY_BYTES):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            if (length.isdigit() and int(length) <= DRAINED_BYTES
                    and headers.get(b"expect", b"").lower() != b"100-continue"):
                await _drain(receive)  # read and dropped: the client then reads its 413
            return await _too_large(send, self.limit)
        received = 0

        async def limited_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    # an HTTPException: FastAPI turns other errors in a body's reading into a 400
                    from fastapi import HTTPException
                    raise HTTPException(413, TOO_LARGE % self.limit)
            return message

        await self.app(scope, limited_receive, send)


async def _drain(receive) -> None:
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body"):
            return


async def _too_large(send, limit: int) -> None:
    body = ('{"detail":"%s"}' % (TOO_LARGE % limit)).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class NoWebSocketMcp:
    """ASGI middleware: OpenEnv's WebSocket loop answers `{"type": "mcp"}` messages with its MCP
    handler, whose `openenv/session/close` freed any plain WebSocket session's slot (one client
    held seven sessions past a cap of three: red-team pass 29), as its HTTP route did before it
    was removed. Such messages are answered here with an error and never reach the loop.

    A message past MAX_WS_MESSAGE_BYTES closes the connection (1009, as uvicorn's own cap does)
    before the loop parses it: only `uv run server` passed the cap to uvicorn, and the app served
    otherwise (Modal, `uvicorn server.app:app`) parsed 16 MiB messages (red-team pass 70)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)

        async def error(message: str, code: str) -> None:
            await send({"type": "websocket.send", "text": json.dumps({"type": "error", "data": {
                "message": message, "code": code}})})

        gone = {"closed": False}  # the client disconnected, or a close was sent to it

        async def tracked_send(message):
            if message["type"] == "websocket.close":
                gone["closed"] = True
            try:
                await send(message)
            except OSError:  # uvicorn's ClientDisconnected: the client is gone
                gone["closed"] = True
                raise

        async def filtered_receive():
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    gone["closed"] = True
                if message["type"] != "websocket.receive":
                    return message
                size = len(message.get("text") or message.get("bytes") or b"")
                if size > MAX_WS_MESSAGE_BYTES:  # text in characters: what the loop would parse
                    await send({"type": "websocket.close", "code": 1009,
                                "reason": f"message too big: at most {MAX_WS_MESSAGE_BYTES} bytes"})
                    return {"type": "websocket.disconnect", "code": 1009}
                if message.get("text") is None:  # the loop reads text frames only: a binary
                    try:  # one ended the session with the message 'text' (red-team pass 47)
                        message = {"type": message["type"],
                                   "text": (message.get("bytes") or b"").decode("utf-8")}
                    except UnicodeDecodeError:
                        await error("binary frame that is not UTF-8 text; send JSON messages as "
                                    "text frames", "INVALID_JSON")
                        continue
                limit = _past_parser_limits(message["text"])
                if limit:  # the loop ends the session for any error it does not expect (its
                    # json.loads raising other than JSONDecodeError, `.get` on a list: pass 70)
                    await error(f"Invalid JSON: {limit}", "INVALID_JSON")
                    continue
                if _is_mcp(message):
                    await error("kernel_env serves no MCP tools or sessions; play episodes with "
                                "reset and step messages", "UNKNOWN_TYPE")
                    continue
                return message

        try:
            await self.app(scope, filtered_receive, tracked_send)
        except Exception as exc:  # noqa: BLE001
            if not gone["closed"]:
                raise
            # A step's reply to a client that left while it ran has nowhere to go: OpenEnv's loop
            # let the send's error out, two tracebacks a client in the log (red-team pass 80).
            print(f"kernel_env: a WebSocket session's client left before its reply "
                  f"({type(exc).__name__}: {exc})", file=sys.stderr, flush=True)


def holds_a_lone_surrogate(value) -> bool:
    """Whether any key or string in the parsed message cannot be encoded as UTF-8."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
    return False


def _is_mcp(message: dict) -> bool:
    text = message.get("text")
    # Only a message that could spell "mcp" is parsed again (a step's 2 MiB was parsed twice);
    # a \u escape can spell it too
    if not text or ("mcp" not in text and "\\u" not in text):
        return False
    try:
        parsed = json.loads(text) if text else None
    except ValueError:
        return False  # the loop answers malformed JSON itself
    return isinstance(parsed, dict) and parsed.get("type") == "mcp"


# What may be past json's limits: an integer literal longer than int()'s 4,300 digits, or enough
# brackets to nest past the recursion limit; and what does not open as an object (the loop calls
# `.get` on what it parsed). Each is found in C; a step's source in a JSON string can hold a few
# hundred brackets, which then costs one more parse (~10 ms at 2 MiB).
# (A match may start only where a run of digits does: tried at every position, `[0-9]{4300}`
# rescanned each run from each of its digits, ~5 s a 2 MiB message of 4299-digit runs, the event
# loop blocked throughout: red-team pass 80.)
_LONG_DIGITS = re.compile(r"(?<![0-9])[0-9]{4300}")
_OBJECT_OPENS = re.compile(r"\s*\{")
_BRACKETS_TO_PARSE = 256


# A UTF-16 surrogate escaped in a JSON string (`\ud800`): one without its pair parses to a str
# that cannot be encoded, and OpenEnv's loop, echoing a field that failed validation in its error
# reply, could not serialise that reply and ended the session (red-team pass 80). Pairs (what
# json.dumps makes of an emoji) are one character once parsed, and pass.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _past_parser_limits(text: str) -> str | None:
    """Why OpenEnv's loop cannot take `text` though it may be well-formed JSON (nested past
    Python's recursion limit, an integer past its digit limit, not an object, a lone surrogate
    in a string), else None."""
    surrogates = _SURROGATE_ESCAPE.search(text) is not None
    if (_OBJECT_OPENS.match(text) and text.count("[") + text.count("{") < _BRACKETS_TO_PARSE
            and not _LONG_DIGITS.search(text) and not surrogates):
        return None
    try:
        parsed = json.loads(text)
        if not isinstance(parsed, dict):
            return "a message is a JSON object with a `type` (reset, step, state or close)"
        if surrogates and holds_a_lone_surrogate(parsed):
            return ("a string holds a lone surrogate (a UTF-16 \\ud800-\\udfff escape without "
                    "its pair); strings must be valid Unicode")
    except RecursionError:
        return "nested too deeply for the server's parser; messages nest a few levels at most"
    except json.JSONDecodeError:
        return None  # the loop answers it with the parser's own message
    except ValueError as exc:  # an integer past int()'s digit limit
        return str(exc)
    return None
