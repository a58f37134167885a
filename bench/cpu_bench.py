"""Step latency of the cpu evaluator (Triton interpreter) on the bundled suite.

    uv run python bench/cpu_bench.py [--repeats 3]

Prints, per legitimate kernel, the cold step (first of its task: reference profiled) and the
median warm step, with the time in each stage. Timings inside a step are not meaningful on this
evaluator; the step latency is what an RL loop on a CPU machine waits for.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.evaluators import CpuEvaluator  # noqa: E402

KERNELS = ["relu", "softmax", "frobenius_norm", "square_matmul", "gemm_multiply_leaky_relu",
           "conv2d_direct", "mlp"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    ev = CpuEvaluator()
    t0 = time.perf_counter()
    ev.pool.start(background=False)
    print(f"worker host start: {time.perf_counter() - t0:.2f} s")
    print(f"{'kernel':<26}{'cold s':>8}{'warm s':>8}{'corr s':>8}{'time s':>8}  verdict")
    for name in KERNELS:
        code = (ROOT / "tests" / "kernels" / "legit" / f"{name}.py").read_text()
        task = re.search(r"# task: (\S+)", code)[1]
        ref = (ROOT / "server" / "tasks" / "bundled" / f"{task}.py").read_text()
        runs = []
        for _ in range(args.repeats + 1):
            t = time.perf_counter()
            result = ev.evaluate(code, ref, task_id=task)
            runs.append((time.perf_counter() - t, result))
            time.sleep(0.5)  # as between an RL loop's steps: the spare process warms up
        warm = runs[1:]
        print(f"{name:<26}{runs[0][0]:>8.2f}{statistics.median(s for s, _ in warm):>8.2f}"
              f"{statistics.median(r.stage_seconds.get('correctness', 0) for _, r in warm):>8.2f}"
              f"{statistics.median(r.stage_seconds.get('timing', 0) for _, r in warm):>8.2f}"
              f"  {warm[-1][1].stage} reward={warm[-1][1].reward}")
    ev.close()


if __name__ == "__main__":
    main()
