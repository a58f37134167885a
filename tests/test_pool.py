"""The worker pool's slots (server/pool.py): one evaluation per worker, strict FIFO among the
waiting steps, and each request told how many steps wait behind it (the worker host warms the
next steps' processes beside a step only then)."""

import os
import threading
import time
from pathlib import Path

import pytest

from server.evaluation.protocol import EvalRequest, EvalResult
from server.pool import WorkerPool, cpu_shares


def test_steps_run_one_at_a_time_in_arrival_order_and_carry_the_backlog():
    pool = WorkerPool(["cpu"], step_timeout_s=60)
    host = pool.hosts[0]
    started, release = [], threading.Event()
    running = []

    def evaluate(req, timeout_s, departure=None):
        running.append(req.code)
        assert len(running) == 1, "two evaluations on one worker at once"
        started.append((req.code, req.backlog))
        if req.code == "first":
            release.wait(10)
        running.pop()
        return EvalResult(stage="scored")

    host.evaluate = evaluate
    threads = []

    def submit(name):
        t = threading.Thread(target=pool.evaluate, args=(EvalRequest(code=name, reference_source=""),))
        t.start()
        threads.append(t)

    submit("first")
    while not started:
        time.sleep(0.01)
    for name in ("second", "third", "fourth"):
        submit(name)
        while len(pool._waiters) < len(threads) - 1:  # queued in this order
            time.sleep(0.01)
    release.set()
    for t in threads:
        t.join(10)
    assert started == [("first", 0), ("second", 2), ("third", 1), ("fourth", 0)]


def test_each_gpu_runs_its_own_step_at_once_and_says_which_it_was():
    """Two GPUs: two steps run at the same time, one on each; a third waits for the first GPU
    free; every result names its slot (the pool's, whatever the evaluation said)."""
    pool = WorkerPool(["cuda:0", "cuda:1"], step_timeout_s=60, visible=("GPU-aa", "GPU-bb"))
    running, both, release = set(), threading.Event(), threading.Event()
    lock = threading.Lock()

    def evaluating(host):
        def evaluate(req, timeout_s, departure=None):
            with lock:
                assert host.slot not in running, "two evaluations on one GPU at once"
                running.add(host.slot)
                if len(running) == 2:
                    both.set()
            if req.code != "third":
                release.wait(10)
            with lock:
                running.discard(host.slot)
            return EvalResult(stage="scored", worker="cuda:7")  # an evaluation's own claim
        return evaluate

    for host in pool.hosts:
        host.evaluate = evaluating(host)
    results = {}

    def submit(name):
        results[name] = pool.evaluate(EvalRequest(code=name, reference_source=""))

    threads = [threading.Thread(target=submit, args=(n,)) for n in ("first", "second")]
    for t in threads:
        t.start()
    assert both.wait(10), "the second step waited although a GPU was free"
    third = threading.Thread(target=submit, args=("third",))
    third.start()
    while not pool._waiters:
        time.sleep(0.01)
    time.sleep(1)
    release.set()
    for t in threads + [third]:
        t.join(10)
    assert sorted(results[n].worker for n in ("first", "second")) == ["cuda:0", "cuda:1"]
    assert results["third"].worker in ("cuda:0", "cuda:1")
    assert results["first"].queue_seconds < 1 <= results["third"].queue_seconds  # it waited for a GPU
    assert [h.visible for h in pool.hosts] == ["GPU-aa", "GPU-bb"]


def test_cpu_shares_split_the_servers_cpus_into_disjoint_contiguous_parts():
    assert cpu_shares(2, {0, 1, 2, 3, 4}) == [(0, 1, 2), (3, 4)]
    assert cpu_shares(3, {8, 2, 5, 9, 11, 3}) == [(2, 3), (5, 8), (9, 11)]
    assert cpu_shares(1, {0, 1}) == [(0, 1)]
    assert cpu_shares(3, {0, 1}) is None  # fewer CPUs than hosts: nothing to split


def _affinity(pid: int) -> set[int]:
    return os.sched_getaffinity(pid)


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs two CPUs and Linux affinity")
def test_each_worker_host_and_its_evaluations_run_on_their_own_cpus():
    """Two worker hosts on a machine of two CPUs or more: each is pinned to its own share of the
    server's CPUs, and so is an evaluation process it forks (its warm spare), whose torch sizes
    its thread pool to that share: one slot's builds or threads cannot slow another's timings,
    nor a reference's profile there (red-team pass 71)."""
    pool = WorkerPool(["cpu", "cpu"], step_timeout_s=120)
    shares = cpu_shares(2)
    try:
        pool.start(background=False)
        hosts = [h.proc.pid for h in pool.hosts]
        assert [_affinity(pid) for pid in hosts] == [set(s) for s in shares]
        assert not set(shares[0]) & set(shares[1])
        for pid, share in zip(hosts, shares):
            deadline = time.monotonic() + 60
            children = []
            while not children and time.monotonic() < deadline:  # the spare forks after start-up
                children = [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
                time.sleep(0.1)
            assert children, "the host forked no spare evaluation process"
            assert all(_affinity(c) == set(share) for c in children)
    finally:
        pool.shutdown()


def test_a_host_that_never_reports_ready_is_stopped_and_the_step_answered(monkeypatch, tmp_path):
    """A worker host hung before its ready line (red-team pass 80, read in the code: start-up
    waited without a limit, holding its slot and every step queued for it)."""
    import types

    from server import pool as pool_module

    hung = tmp_path / "hung_python"
    hung.write_text("#!/bin/sh\nexec sleep 60\n")
    hung.chmod(0o755)
    monkeypatch.setattr(pool_module, "START_TIMEOUT_S", 1.0)
    monkeypatch.setattr(pool_module, "sys", types.SimpleNamespace(executable=str(hung), stderr=None))
    pool = WorkerPool(["cpu"], step_timeout_s=60)
    host = pool.hosts[0]
    started = time.monotonic()
    result = pool.evaluate(EvalRequest(code="x", reference_source="", task_id="t", device="cpu"))
    assert time.monotonic() - started < 30
    assert result.error_class == "internal_error" and "did not report ready" in result.feedback
    assert host.proc is None  # the hung process killed, its slot free for the next step
