"""Does another process creating its CUDA context disturb a kernel being timed?

    python bench/context_overlap.py [--rounds 6]

Why the worker host forks the next step's process only after a step, not while it evaluates
(where its CUDA context would be made beside the step's timing). This times eager ReLU at the bundled shape (16 x 4096)
and at KernelBench's (4096 x 393216) with the evaluator's own timer, in rounds that alternate
between a quiet GPU and one where other processes (forked, like the worker's, from a parent
with torch imported and CUDA untouched) create a context, one after another, all round long.
Prints each round's median and, per shape, the quiet and the disturbed medians side by side, and
how long a context took to create.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

SHAPES = {"bundled 16x4096": (16, 4096), "KernelBench 4096x393216": (4096, 393216)}
ROUND_S = 2.0


def make_contexts(stop: threading.Event, took: list) -> None:
    """Fork processes that each create a CUDA context and exit, until told to stop."""
    while not stop.is_set():
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            t0 = time.monotonic()
            torch.cuda.synchronize()
            os.write(w, f"{time.monotonic() - t0:.4f}".encode())
            os._exit(0)
        os.close(w)
        took.append(float(os.read(r, 64) or b"nan"))
        os.close(r)
        os.waitpid(pid, 0)


def timer(requests: int, replies: int, rounds: int) -> None:
    """In a forked child: time the shapes, asking the parent for a quiet or a busy round."""
    from server.evaluation.timing import time_forward

    device = torch.device("cuda")
    inputs = {name: torch.rand(*shape, device=device) for name, shape in SHAPES.items()}
    results: dict[tuple[str, str], list[float]] = {}
    for i in range(2 * rounds):
        mode = "busy" if i % 2 else "quiet"
        os.write(requests, mode[0].encode())
        os.read(replies, 1)  # the parent has started (or stopped) the context makers
        for name, x in inputs.items():
            t0, medians = time.monotonic(), []
            while time.monotonic() - t0 < ROUND_S / len(inputs):
                medians.append(time_forward(lambda: torch.relu(x), device).median_ms)
            results.setdefault((name, mode), []).append(statistics.median(medians))
            print(f"round {i:>2} {mode:<5} {name:<26} median {statistics.median(medians):.4f} ms "
                  f"over {len(medians)} timings", flush=True)
    os.write(requests, b"e")
    print(f"\n{'shape':<26}{'quiet ms':>10}{'busy ms':>10}{'busy/quiet':>12}")
    for name in SHAPES:
        quiet = statistics.median(results[(name, "quiet")])
        busy = statistics.median(results[(name, "busy")])
        print(f"{name:<26}{quiet:>10.4f}{busy:>10.4f}{busy / quiet:>12.4f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            timer(req_w, rep_r, args.rounds)
        finally:
            sys.stdout.flush()
            os._exit(0)
    took: list[float] = []
    stop, maker = threading.Event(), None
    while (mode := os.read(req_r, 1)) not in (b"e", b""):
        if maker is not None:
            stop.set()
            maker.join()
            maker = None
        if mode == b"b":
            stop = threading.Event()
            maker = threading.Thread(target=make_contexts, args=(stop, took))
            maker.start()
        os.write(rep_w, b"k")
    if maker is not None:
        stop.set()
        maker.join()
    os.waitpid(pid, 0)
    if took:
        print(f"contexts created meanwhile: {len(took)}, each {statistics.median(took):.3f} s "
              f"(median; {min(took):.3f}-{max(took):.3f})")


if __name__ == "__main__":
    main()
