"""Kernel files from tests/kernels through the gpu evaluator on a task at KernelBench's own shapes.

    python3 bench/evaluate_kernels.py --kernelbench-dir KernelBench/KernelBench
        [--repeats 2] KERNEL.py [KERNEL.py ...]

The test suite runs these kernels on the bundled tasks' small shapes; an exploit or a defence can
behave otherwise at full size (statistics over 8192 features, the profile's cost limits). Each
kernel's header names its task (`# task:`) and the verdict it must get (`# expect:`); each is
evaluated `--repeats` times through the worker pool (its first step profiles the task) and prints
the stage, error class, speedup, step time and the checks' time by kind, then whether the verdict
held every time.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.evaluators import GpuEvaluator  # noqa: E402


def header(path: Path) -> dict:
    return dict(re.findall(r"^# (task|expect): (\S+)", path.read_text(), re.M))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernelbench-dir", type=Path, required=True)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("kernels", type=Path, nargs="+")
    args = parser.parse_args()
    ev = GpuEvaluator((0,), memory_limit_gb=64.0)
    ev.pool.start(background=False)
    verdicts = []
    try:
        for path in args.kernels:
            fields = header(path)
            expected = fields.get("expect_gpu", fields["expect"])  # (the gpu evaluator's verdict)
            reference = (args.kernelbench_dir / f"{fields['task']}.py").read_text()
            held = True
            for k in range(args.repeats):
                t0 = time.perf_counter()
                r = ev.pool.evaluate(ev.request(path.read_text(), reference, fields["task"], "triton"))
                step = time.perf_counter() - t0
                got = "ok" if r.stage == "scored" and r.correct else r.error_class
                held &= got == expected
                checks = ", ".join(f"{kind} {1e3 * s:.1f}" for kind, s in
                                   sorted((r.defence_breakdown or {}).items()))
                print(f"{path.stem} #{k + 1}: {r.stage} {r.error_class or ''} speedup {r.speedup} "
                      f"step {step:.2f} s; checks ms: {checks}", flush=True)
                if r.stage != "scored":
                    print(f"  {(r.feedback or '')[:300]}", flush=True)
            verdicts.append((path.stem, fields["task"], expected, held))
    finally:
        ev.close()
    print(f"\n{'kernel':<48}{'task':<28}{'expect':<18}held every time")
    for stem, task, expect, held in verdicts:
        print(f"{stem:<48}{task:<28}{expect:<18}{'yes' if held else 'NO'}")


if __name__ == "__main__":
    main()
