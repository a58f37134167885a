"""A step whose client leaves is stopped, queued or running, and its GPU slot goes to the next."""

from __future__ import annotations

import asyncio
import json
import os
import time

import httpx
import pytest
import websockets

from kernel_env import KernelAction, KernelEnv
from server.departure import Departure
from server.evaluation.children import CancelPipe
from server.evaluation.stages import CANCELLED
from tests.conftest import kernel_source, running_server

# Without the cancel, the abandoned infinite loop would hold the one slot this long.
CORRECTNESS_LIMIT_S = 300


@pytest.fixture(scope="module")
def one_slot_server(tmp_path_factory):
    log = tmp_path_factory.mktemp("log") / "eval.jsonl"
    with running_server({"KERNEL_ENV_EVAL_LOG": str(log),
                         "KERNEL_ENV_STAGE_TIMEOUTS": f"correctness={CORRECTNESS_LIMIT_S}"}) as url:
        yield url, log


def _status(url: str) -> dict:
    return httpx.get(f"{url}/status", timeout=10).json()


async def _until(predicate, within_s: float, what: str) -> float:
    """Seconds until `predicate()` held (polled); fails after `within_s`."""
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > within_s:
            raise AssertionError(f"{what}: not within {within_s} s")
        await asyncio.sleep(0.1)
    return time.monotonic() - start


async def _session_stepping(ws_url: str, code: str):
    ws = await websockets.connect(ws_url, max_size=None)
    await ws.send(json.dumps({"type": "reset", "data": {"task_id": "level1/19_ReLU"}}))
    assert json.loads(await ws.recv())["type"] == "observation"
    await ws.send(json.dumps({"type": "step", "data": {"code": code}}))
    return ws


def test_a_step_whose_client_leaves_is_stopped_queued_or_running(one_slot_server):
    """One slot: a client's step spins forever (it would hold the slot for the correctness
    limit), a second client's step queues behind it. The second client leaves: its step leaves
    the queue, unevaluated, and the first still runs. The first leaves: its evaluation is
    stopped and the slot is free within seconds; a new client's step is scored. Both steps are
    logged `cancelled`."""
    url, log = one_slot_server
    ws_url = url.replace("http://", "ws://") + "/ws"
    _scored_step(url)  # the task's reference profiled (once a task): the next step's job starts at once

    async def run() -> float:
        spinning = await _session_stepping(ws_url, kernel_source("adversarial", "infinite_loop"))
        await _until(lambda: _status(url)["slots"][0]["busy"], 60, "the first step running")
        await asyncio.sleep(3)  # into its correctness trials (static check and compile: ~1 s)
        queued = await _session_stepping(ws_url, kernel_source("legit", "relu"))
        await _until(lambda: _status(url)["queued_steps"] == 1, 30, "the second step queued")
        await queued.close()
        await _until(lambda: _status(url)["queued_steps"] == 0, 10, "the queued step gone")
        assert _status(url)["slots"][0]["busy"]  # the first one still runs
        await spinning.close()
        return await _until(lambda: not _status(url)["slots"][0]["busy"], 30, "the slot freed")

    freed_in = asyncio.run(run())
    assert freed_in < 30 < CORRECTNESS_LIMIT_S
    _scored_step(url)
    steps = [json.loads(line) for line in log.read_text().splitlines()]
    cancelled = [s for s in steps if s.get("event") == "step" and s.get("error_class") == CANCELLED]
    # the queued one never reached a stage; the running one was stopped in its trials
    assert sorted(s["stage"] for s in cancelled) == ["correctness", "static_check"], cancelled


def test_the_kernelenv_clients_own_close_mid_step_stops_the_step(one_slot_server):
    """OpenEnv's client says goodbye ({"type": "close"}) before its close frame: that message,
    read ahead while the step runs, is enough, and the disconnect behind it is seen too."""
    url, log = one_slot_server
    _scored_step(url)

    async def run() -> float:
        env = KernelEnv(base_url=url)
        await env.reset(task_id="level1/19_ReLU")
        step = asyncio.create_task(env.step(KernelAction(code=kernel_source("adversarial", "infinite_loop"))))
        await _until(lambda: _status(url)["slots"][0]["busy"], 60, "the step running")
        await asyncio.sleep(3)
        await env.close()
        freed = await _until(lambda: not _status(url)["slots"][0]["busy"], 30, "the slot freed")
        step.cancel()
        return freed

    assert asyncio.run(run()) < 30 < CORRECTNESS_LIMIT_S
    last = [json.loads(line) for line in log.read_text().splitlines()][-1]
    assert (last["stage"], last["error_class"]) == ("correctness", CANCELLED), last


def test_an_http_step_naming_a_departure_is_refused_as_before(one_slot_server):
    """A request's extra fields reach `step`'s keywords: `departure` is not one of them."""
    url, _ = one_slot_server
    reply = httpx.post(f"{url}/step", json={"action": {"code": "x = 1"}, "departure": 1}, timeout=30)
    assert reply.status_code == 400 and "reset" in reply.text, reply.text


def _scored_step(url: str) -> None:
    with KernelEnv(base_url=url).sync() as env:
        env.reset(task_id="level1/19_ReLU")
        result = env.step(KernelAction(code=kernel_source("legit", "relu")))
        assert result.observation.stage == "scored", result.observation.feedback


def test_the_cancel_pipe_stops_only_the_job_it_names():
    """The numbers of cancelled jobs only grow: a cancel that came too late for its own job
    (written as it finished) cannot stop the next; a closed pipe is not read again."""
    read_fd, write_fd = os.pipe()
    pipe = CancelPipe(read_fd)
    pipe.begin(3)
    assert not pipe.cancelled()
    os.write(write_fd, b"2\n")  # the job before, already over
    assert not pipe.cancelled()
    os.write(write_fd, b"3")  # half a line: not yet
    assert not pipe.cancelled()
    os.write(write_fd, b"\n")
    assert pipe.cancelled()
    pipe.begin(4)
    assert not pipe.cancelled()
    pipe.begin(None)  # a job no cancel can name (a request without a number)
    os.write(write_fd, b"99\n")
    assert not pipe.cancelled()
    os.close(write_fd)
    pipe.cancelled()
    assert not pipe.open
    os.close(read_fd)


def test_a_departure_runs_its_hooks_once_and_at_once_when_already_gone():
    departure, calls = Departure(), []
    forget = departure.on_leave(lambda: calls.append("a"))
    departure.on_leave(lambda: calls.append("b"))
    forget()
    departure.leave()
    departure.leave()
    assert calls == ["b"] and departure.gone
    departure.on_leave(lambda: calls.append("c"))
    assert calls == ["b", "c"]
