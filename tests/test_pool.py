"""The worker pool's slots (server/pool.py): one evaluation per worker, strict FIFO among the
waiting steps, and each request told how many steps wait behind it (the worker host warms the
next steps' processes beside a step only then)."""

import threading
import time

from server.evaluation.protocol import EvalRequest, EvalResult
from server.pool import WorkerPool


def test_steps_run_one_at_a_time_in_arrival_order_and_carry_the_backlog():
    pool = WorkerPool(["cpu"], step_timeout_s=60)
    host = pool.hosts[0]
    started, release = [], threading.Event()
    running = []

    def evaluate(req, timeout_s):
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
