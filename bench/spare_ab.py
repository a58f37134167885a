"""When should the worker host fork the next step's process: after a step, or beside it?

    python bench/spare_ab.py [--kernelbench-dir KernelBench/KernelBench] [--steps 10] [--blocks 2]

The default forks it once a step is over; there it warms up (CUDA context and the evaluator's own
kernels, ~1 s on the H200) while the answer goes out, and a step that follows sooner waits for
the rest. `early_spare` forks it as soon as a step is handed over, so its context is made beside
the step (launching nothing), which removes most of that wait. This runs the same honest kernels
under both, in alternating blocks (after, early, after, early, ...: the GPU's slow drifts fall on
both), each block a fresh worker pool, steps 1 s apart, and prints per design and case: the
median speedup, the largest deviation from it, how many evaluations lay more than 5 % off
(outliers, with their timing diagnostics), the median harness overhead and the step's wait for
its process.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from gpu_bench import BUNDLED, LEGIT  # noqa: E402

from server.evaluators import GpuEvaluator  # noqa: E402

CASES = [  # (label, root key, task id, kernel): short kernels are the sensitive ones
    ("bundled Softmax", "bundled", "level1/23_Softmax", "softmax_online.py"),
    ("bundled Frobenius", "bundled", "level1/37_FrobeniusNorm_", "frobenius_norm.py"),
    ("KernelBench ReLU", "kernelbench", "level1/19_ReLU", "relu.py"),
]
OUTLIER = 0.05


def block(early: bool, roots: dict, steps: int, gap_s: float) -> dict:
    ev = GpuEvaluator((0,), memory_limit_gb=64.0, provenance="off", early_spare=early)
    ev.pool.start(background=False)
    rows: dict[str, list] = {}
    try:
        for label, key, task, kernel in CASES:
            if key not in roots:
                continue
            code, ref = (LEGIT / kernel).read_text(), (roots[key] / f"{task}.py").read_text()
            for i in range(steps + 1):  # the first profiles the reference: left out
                t0 = time.perf_counter()
                r = ev.pool.evaluate(ev.request(code, ref, task, "triton"))
                latency = time.perf_counter() - t0
                if r.stage != "scored":
                    print(f"  {label}: {r.error_class}: {r.feedback[:200]}", flush=True)
                    break
                if i:
                    rows.setdefault(label, []).append((latency, r))
                time.sleep(gap_s)
    finally:
        ev.close()
    return rows


def summary(rows: list) -> str:
    speedups = [r.speedup for _, r in rows]
    med = statistics.median(speedups)
    off = [(s, r.timing_detail) for s, (_, r) in zip(speedups, rows) if abs(s - med) > OUTLIER * med]
    worst = 100 * max(abs(s - med) for s in speedups) / med
    overhead = statistics.median(lat - r.candidate_seconds for lat, r in rows)
    wait = statistics.median(1e3 * r.process_seconds.get("wait", 0.0) for _, r in rows)
    text = (f"n {len(rows):>3}  speedup {med:.4f}  max dev {worst:6.2f} %  outliers {len(off):>2}  "
            f"overhead {overhead:.3f} s  wait {wait:6.1f} ms")
    return text + "".join(f"\n      outlier {s:.4f}: {d}" for s, d in off)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernelbench-dir", type=Path)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--blocks", type=int, default=2, help="blocks per design, alternating")
    parser.add_argument("--gap", type=float, default=1.0)
    args = parser.parse_args()
    roots = {"bundled": BUNDLED, **({"kernelbench": args.kernelbench_dir} if args.kernelbench_dir else {})}
    results: dict[tuple[str, str], list] = {}
    for b in range(2 * args.blocks):
        design = "early" if b % 2 else "after"
        print(f"block {b + 1}: {design}", flush=True)
        for label, rows in block(design == "early", roots, args.steps, args.gap).items():
            results.setdefault((design, label), []).extend(rows)
    print()
    for label, *_ in CASES:
        for design in ("after", "early"):
            if (design, label) in results:
                print(f"{label:<20}{design:<7}{summary(results[(design, label)])}")


if __name__ == "__main__":
    main()
