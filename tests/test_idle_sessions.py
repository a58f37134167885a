"""A WebSocket session left idle is closed and its slot freed; a long step is never idle."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets

from kernel_env import KernelAction, KernelEnv
from server.idle_sessions import IDLE_CLOSE_CODE
from tests.conftest import kernel_source, running_server

IDLE_S = 0.6  # an interpreted matmul step takes 1.7 s on a 2-core host


@pytest.fixture(scope="module")
def idle_server():
    """The cpu evaluator, one session at most, sessions closed after IDLE_S without a message."""
    with running_server({"KERNEL_ENV_MAX_SESSIONS": "1",
                         "KERNEL_ENV_IDLE_TIMEOUT_S": str(IDLE_S)}) as url:
        yield url.replace("http://", "ws://") + "/ws"


def test_an_idle_session_is_closed_with_a_reason_and_its_slot_freed(idle_server):
    async def run():
        async with websockets.connect(idle_server) as ws:
            await ws.send(json.dumps({"type": "reset", "data": {"task_id": "level1/19_ReLU"}}))
            assert json.loads(await ws.recv())["type"] == "observation"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), IDLE_S + 30)
            return closed.value.rcvd
    received = asyncio.run(run())
    assert received.code == IDLE_CLOSE_CODE
    assert "KERNEL_ENV_IDLE_TIMEOUT_S" in received.reason and "reset" in received.reason
    # the one slot is free again (the session cap is 1)
    with KernelEnv(base_url=idle_server.replace("ws://", "http://")[:-3]).sync() as env:
        assert env.reset(task_id="level1/19_ReLU").observation.stage == "ready"


def test_a_step_longer_than_the_idle_limit_is_answered_and_the_session_goes_on(idle_server):
    """The clock runs only while the session waits for its client: a step evaluated (or queued)
    for longer than the limit is answered, and the next message within it is served."""
    async def run():
        async with websockets.connect(idle_server, max_size=None) as ws:
            await ws.send(json.dumps({"type": "reset", "data": {
                "task_id": "level1/1_Square_matrix_multiplication_"}}))
            assert json.loads(await ws.recv())["type"] == "observation"
            started = time.monotonic()
            await ws.send(json.dumps({"type": "step", "data": {  # (autotuned: seconds a step)
                "code": kernel_source("legit", "matmul_autotune")}}))
            reply = json.loads(await asyncio.wait_for(ws.recv(), 300))
            took = time.monotonic() - started
            await asyncio.sleep(IDLE_S / 3)
            await ws.send(json.dumps({"type": "state"}))
            state = json.loads(await ws.recv())
            return reply, took, state
    reply, took, state = asyncio.run(run())
    assert took > 2 * IDLE_S  # (else this test showed nothing: an interpreted step takes seconds)
    assert reply["type"] == "observation"
    assert reply["data"]["observation"]["stage"] == "scored", reply["data"]["observation"]["feedback"]
    assert state["type"] == "state"


def test_the_client_says_its_episode_is_gone_and_a_reset_plays_on(idle_server):
    """A step after an idle close would reach a new session with no episode (OpenEnv's client
    connects again by itself): it says what happened; a reset starts a new episode."""
    from kernel_env.client import IDLE_CLOSE_CODE as CLIENT_CODE

    assert CLIENT_CODE == IDLE_CLOSE_CODE
    with KernelEnv(base_url=idle_server.replace("ws://", "http://")[:-3]).sync() as env:
        env.reset(task_id="level1/19_ReLU")
        time.sleep(IDLE_S + 1.5)
        with pytest.raises(RuntimeError, match="KERNEL_ENV_IDLE_TIMEOUT_S.*reset to start a new"):
            env.step(KernelAction(code=kernel_source("legit", "relu")))
        assert env.reset(task_id="level1/19_ReLU").observation.stage == "ready"


def test_status_shows_the_slots_the_queue_and_the_open_sessions(idle_server):
    import httpx

    base = idle_server.replace("ws://", "http://")[:-3]

    def status():
        return httpx.get(f"{base}/status", timeout=30).json()

    async def run():
        async with websockets.connect(idle_server, max_size=None) as ws:
            await ws.send(json.dumps({"type": "reset", "data": {
                "task_id": "level1/1_Square_matrix_multiplication_"}}))
            await ws.recv()
            during_reset = await asyncio.to_thread(status)
            await ws.send(json.dumps({"type": "step", "data": {
                "code": kernel_source("legit", "matmul_autotune")}}))
            busy = False
            for _ in range(200):  # the step takes seconds
                now = await asyncio.to_thread(status)
                if now["slots"][0]["busy"]:
                    busy = True
                    break
                await asyncio.sleep(0.02)
            await asyncio.wait_for(ws.recv(), 300)
            return during_reset, busy
    during, busy = asyncio.run(run())
    assert during["evaluator"] == "cpu" and during["tasks"] == "bundled"
    assert during["sessions"] == {"open": 1, "max": 1} and during["queued_steps"] == 0
    assert during["slots"] == [{"slot": "cpu:0", "busy": False, "up": True}]
    assert busy
    for _ in range(100):  # the connection's end reaches the server a moment later
        after = status()
        if after["sessions"]["open"] == 0:
            break
        time.sleep(0.05)
    assert after["sessions"]["open"] == 0 and not after["slots"][0]["busy"]
