"""The KernelEnv client: OpenEnv's EnvClient over a WebSocket session.

    from kernel_env import KernelAction, KernelEnv
    with KernelEnv(base_url="http://localhost:8000").sync() as env:
        obs = env.reset(seed=0).observation
        result = env.step(KernelAction(code=my_source))

With MODAL_PROXY_KEY / MODAL_PROXY_SECRET set, every connection carries them as the Modal-Key /
Modal-Secret headers (Modal proxy auth).
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional

import httpx
from websockets.exceptions import ConnectionClosed
from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient

from kernel_env.models import KernelAction, KernelObservation, KernelState

# A step can queue behind other sessions' evaluations and then build a CUDA extension (~30 s)
# before correctness and timing; 60 s (OpenEnv's default) is too short.
DEFAULT_MESSAGE_TIMEOUT_S = 1800.0
# The server's close code for a session its client left idle (server/idle_sessions.py)
IDLE_CLOSE_CODE = 4408


def proxy_auth_headers(env: Optional[dict] = None) -> Dict[str, str]:
    env = os.environ if env is None else env
    key, secret = env.get("MODAL_PROXY_KEY"), env.get("MODAL_PROXY_SECRET")
    return {"Modal-Key": key, "Modal-Secret": secret} if key and secret else {}


def _idle_close(ws) -> Optional[str]:
    """The reason of the server's idle close where `ws` received one: from the close frame as
    soon as it came (the connection may still be closing; `close_code` says None until it has
    closed, and OpenEnv's client would connect again meanwhile)."""
    frame = getattr(getattr(ws, "protocol", None), "close_rcvd", None)
    return frame.reason if frame is not None and frame.code == IDLE_CLOSE_CODE else None


class KernelEnv(EnvClient[KernelAction, KernelObservation, KernelState]):
    def __init__(self, base_url: Optional[str] = None, *,
                 message_timeout_s: float = DEFAULT_MESSAGE_TIMEOUT_S,
                 headers: Optional[Dict[str, str]] = None, **kwargs: Any):
        merged = {**proxy_auth_headers(), **(headers or {})}
        super().__init__(base_url=base_url, message_timeout_s=message_timeout_s,
                         headers=merged or None, **kwargs)

    def _step_payload(self, action: KernelAction) -> Dict[str, Any]:
        return action.model_dump(exclude={"metadata"}) | {"metadata": action.metadata}

    def _parse_result(self, payload: Dict[str, Any]) -> StepResult[KernelObservation]:
        obs = KernelObservation(**{**payload.get("observation", {}),
                                   "done": payload.get("done", False),
                                   "reward": payload.get("reward")})
        return StepResult(observation=obs, reward=payload.get("reward"), done=payload.get("done", False))

    def _parse_state(self, payload: Dict[str, Any]) -> KernelState:
        return KernelState(**payload)

    async def _send_and_receive(self, message: Dict[str, Any]) -> Dict[str, Any]:
        """As EnvClient's, but a validation error names the fields and what was wrong, and a
        server that refused the session (CAPACITY_REACHED) says so even if it closed first; a
        closed connection's error carries the server's close code and reason. OpenEnv's client
        connects again for any call after the server closed its connection: a `reset` starts a
        new session there, but a `step` or `state` would meet a new session without an episode,
        so after an idle close they say what happened instead."""
        closed = _idle_close(self._ws)
        if message.get("type") != "reset" and closed is not None:
            raise RuntimeError(f"Server closed this session ({closed}); its episode is gone: "
                               "reset to start a new one")
        try:
            await self._send(message)
        except ConnectionClosed:
            pass  # the refusal, if any, is already buffered: read it below
        try:
            response = await self._receive()
        except ConnectionClosed as exc:
            raise RuntimeError(f"Server closed the connection ({exc}); past the session cap "
                               "the server answers CAPACITY_REACHED, and it closes a session "
                               "left idle past KERNEL_ENV_IDLE_TIMEOUT_S (code 4408): connect "
                               "again and reset") from None
        if response.get("type") == "error":
            data = response.get("data", {})
            details = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}"
                                for e in data.get("errors", []) or [])
            raise RuntimeError(f"Server error: {data.get('message', 'Unknown error')}"
                               + (f" ({details})" if details else "")
                               + f" (code: {data.get('code', 'UNKNOWN')})")
        return response

    def list_tasks(self) -> Dict[str, Any]:
        """Task ids by split (GET /tasks)."""
        url = self.base_url.replace("ws://", "http://").replace("wss://", "https://").rstrip("/")
        response = httpx.get(f"{url}/tasks", headers=self._headers or {}, timeout=30)
        response.raise_for_status()
        return response.json()
