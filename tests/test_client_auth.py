"""Modal proxy auth: with MODAL_PROXY_KEY/SECRET set, every connection carries the headers."""

from __future__ import annotations

import threading
import time

import pytest
import uvicorn

from kernel_env import KernelAction, KernelEnv
from kernel_env.client import proxy_auth_headers
from server.app import create_kernel_app
from server.config import load_config
from tests.conftest import BUNDLED, free_port, kernel_source

KEY, SECRET = "wk-test-key", "ws-test-secret"


class RequireProxyAuth:
    """ASGI middleware standing in for Modal's proxy: no valid headers, no connection."""

    def __init__(self, app):
        self.app, self.seen = app, []

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
            ok = headers.get("modal-key") == KEY and headers.get("modal-secret") == SECRET
            self.seen.append((scope["type"], ok))
            if not ok:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 4401})
                else:
                    await send({"type": "http.response.start", "status": 401, "headers": []})
                    await send({"type": "http.response.body", "body": b"missing proxy auth"})
                return
        await self.app(scope, receive, send)


@pytest.fixture(scope="module")
def guarded_server():
    config = load_config({"KERNEL_ENV_EVALUATOR": "mock", "KERNELBENCH_DIR": str(BUNDLED)})
    app = RequireProxyAuth(create_kernel_app(config))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield app, f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def test_headers_come_from_the_environment():
    assert proxy_auth_headers({"MODAL_PROXY_KEY": "k", "MODAL_PROXY_SECRET": "s"}) == {
        "Modal-Key": "k", "Modal-Secret": "s"}
    assert proxy_auth_headers({}) == {}


def test_client_with_credentials_plays_an_episode(guarded_server, monkeypatch):
    app, url = guarded_server
    monkeypatch.setenv("MODAL_PROXY_KEY", KEY)
    monkeypatch.setenv("MODAL_PROXY_SECRET", SECRET)
    with KernelEnv(base_url=url).sync() as env:
        obs = env.reset(task_id="level1/19_ReLU").observation
        result = env.step(KernelAction(code=kernel_source("legit", "relu")))
        tasks = env.list_tasks()
    assert obs.stage == "ready" and result.observation.stage == "scored"
    assert "MOCK" in result.observation.feedback  # the mock evaluator says its timings are fake
    assert "level1/19_ReLU" in tasks["train"] + tasks["eval"]
    assert ("websocket", True) in app.seen and ("http", True) in app.seen


def test_client_without_credentials_is_refused(guarded_server, monkeypatch):
    app, url = guarded_server
    monkeypatch.delenv("MODAL_PROXY_KEY", raising=False)
    monkeypatch.delenv("MODAL_PROXY_SECRET", raising=False)
    with pytest.raises(Exception):
        with KernelEnv(base_url=url, connect_timeout_s=5).sync() as env:
            env.reset(seed=0)
    assert ("websocket", False) in app.seen
