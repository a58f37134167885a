"""What a fresh evaluation process pays the first time it calls a vendor library (cuBLAS, cuDNN),
and how much of that a tiny call made beforehand (while the process waits for its job) takes off.

    python bench/library_warmup.py [--device cuda:0] [--repeats 3]

Each measurement runs in a process forked from a parent that imported torch without initialising
CUDA, as the worker host forks its evaluation processes; the child creates its context, then
optionally warms up as the evaluator's spare processes do (`pipeline._warm_libraries`), then
times the first and second calls at KernelBench shapes.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from server.evaluation.pipeline import _warm_libraries  # noqa: E402

CASES = {  # name: (make inputs on the device, the call)
    "matmul 4096": (lambda d: [torch.rand(4096, 4096, device=d)] * 2, lambda a, b: a @ b),
    "linear 128x1024->512": (lambda d: [torch.rand(128, 1024, device=d), torch.rand(512, 1024, device=d)],
                             lambda x, w: F.linear(x, w)),
    "conv2d 128x3x32x32": (lambda d: [torch.rand(128, 3, 32, 32, device=d),
                                      torch.rand(16, 3, 3, 3, device=d)],
                           lambda x, w: F.conv2d(x, w)),
}


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) * 1e3


def _child(device: str, case: str, warm: bool, out) -> None:
    torch.cuda.set_device(device)
    torch.zeros(1, device=device)  # the context
    torch.cuda.synchronize()
    warm_ms = _timed(lambda: _warm_libraries(torch.device(device))) if warm else 0.0
    make, call = CASES[case]
    args = make(device)
    torch.cuda.synchronize()
    first = _timed(lambda: call(*args))
    second = _timed(lambda: call(*args))
    out.put((warm_ms, first, second))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    ctx = mp.get_context("fork")
    print(f"{'case':<24}{'warm-up':>9}{'warm ms':>9}{'first ms':>10}{'second ms':>11}")
    for case in CASES:
        for warm in (False, True):
            rows = []
            for _ in range(args.repeats):
                q = ctx.Queue()
                p = ctx.Process(target=_child, args=(args.device, case, warm, q))
                p.start()
                rows.append(q.get(timeout=120))
                p.join()
            med = [statistics.median(r[i] for r in rows) for i in range(3)]
            print(f"{case:<24}{'yes' if warm else 'no':>9}{med[0]:>9.1f}{med[1]:>10.1f}{med[2]:>11.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
