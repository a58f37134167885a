"""A WebSocket session's client leaving while its step is queued or evaluated.

A step whose client disconnected ran on to its end, or to every stage's limit, holding its place
in the GPU's queue and then the GPU itself (a red-team pass held a 4-session server for ~40 s
with four abandoned infinite loops; an RL trainer restarted mid-rollout leaves a batch of such
steps). idle_sessions.IdleClose reads each connection's next messages while its app works, so a
disconnect is seen as it happens; it tells the connection's Departure, which a step in flight
has asked to stop its evaluation (pool.WorkerPool: a queued step leaves the queue, a running one
is stopped by its worker host). The step's answer, which nobody reads, is logged as `cancelled`.
"""

from __future__ import annotations

import contextvars
import threading
from typing import Callable

# The Departure of the WebSocket connection whose app runs in this context (None: not one, as
# for HTTP requests, direct use and tests of the environment alone).
CURRENT: contextvars.ContextVar["Departure | None"] = contextvars.ContextVar(
    "kernel_env_departure", default=None)


class Departure:
    """Whether a connection's client has left; what to run when it does. Thread-safe: the event
    loop tells it, a step's thread asks it."""

    def __init__(self):
        self._lock = threading.Lock()
        self._gone = False
        self._hooks: list[Callable[[], None]] = []

    @property
    def gone(self) -> bool:
        return self._gone

    def on_leave(self, hook: Callable[[], None]) -> Callable[[], None]:
        """Run `hook` when the client leaves (at once if it has); returns what unregisters it."""
        with self._lock:
            if not self._gone:
                self._hooks.append(hook)
                return lambda: self._remove(hook)
        hook()
        return lambda: None

    def leave(self) -> None:
        with self._lock:
            if self._gone:
                return
            self._gone = True
            hooks, self._hooks = self._hooks, []
        for hook in hooks:
            try:
                hook()
            except Exception:  # noqa: BLE001 - one step's cleanup must not stop another's
                pass

    def _remove(self, hook) -> None:
        with self._lock:
            if hook in self._hooks:
                self._hooks.remove(hook)
