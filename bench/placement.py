"""Does where a full-size kernel's input and output sit in device memory move its time?

    python bench/placement.py [--processes 3] [--buffers 4]

Earlier runs (bench/results/*timing-bias*) saw the same full-size ReLU at 3.02 ms in one process
and 3.09 ms in another, and the same process switch modes when only its output's block changed.
Here each process (forked like the worker's) allocates --buffers inputs and as many output
buffers of KernelBench's ReLU shape and times an eager clamp (ReLU's memory traffic, writing into a
chosen output) for every (input, output) pair, with the evaluation's own timer. Prints each pair's
median and the offset between the two buffers, then how far apart the pairs of a process are.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from bench.kernel_names import in_child  # noqa: E402

SHAPE = (4096, 393216)
TRIALS = 30


def pairs(buffers: int) -> str:
    from server.evaluation.timing import time_forward

    device = torch.device("cuda")
    xs = [torch.rand(*SHAPE, device=device) for _ in range(buffers)]
    outs = [torch.empty(*SHAPE, device=device) for _ in range(buffers)]
    rows = []
    for i, x in enumerate(xs):
        for j, o in enumerate(outs):
            t = time_forward(lambda: torch.clamp(x, min=0.0, out=o), device, trials=TRIALS)
            offset_mib = (o.data_ptr() - x.data_ptr()) / (1 << 20)
            rows.append(f"x{i}o{j}={t.median_ms:.4f}@{offset_mib:.0f}")
    return " ".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--buffers", type=int, default=4)
    args = parser.parse_args()
    print(f"{'process':<8}{'fastest ms':>11}{'slowest ms':>11}{'max-min %':>10}  pairs (ms @ output-input MiB)")
    for p in range(args.processes):
        line = in_child(pairs, args.buffers)
        times = [float(item.split("=")[1].split("@")[0]) for item in line.split() if "=" in item]
        lo, hi = min(times), max(times)
        print(f"{p:<8}{lo:>11.4f}{hi:>11.4f}{100 * (hi - lo) / statistics.median(times):>10.2f}  {line}",
              flush=True)


if __name__ == "__main__":
    main()
