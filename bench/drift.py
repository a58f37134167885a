"""Does a full-size kernel's time drift within one process, and with what?

    python bench/drift.py [--seconds 10]

bench/placement.py saw one process time every (input, output) pair of full-size ReLU at 3.09-3.12
ms and another nearly all at 3.02-3.03, with slow pairs in runs of consecutive measurements: a
state of the GPU that lasts a while, not where the buffers sit. Here one process times one fixed
pair in windows of 10 trials for --seconds, and nvidia-smi samples clocks, power and temperature
beside it every 100 ms. Each trial also times, with events, the harness's own L2 flush (a 128 MiB
write) and spin kernel (a fixed cycle count: the SM clock), and a 4096^3 fp32 matmul (compute-bound):
does anything trusted and cheap follow the state? Prints per window: seconds since the start, the
medians, and the nearest sample of the GPU's state; then the correlations across windows.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

SHAPE = (4096, 393216)
SPIN_CYCLES = 400_000
QUERY = "clocks.sm,clocks.mem,power.draw,temperature.gpu,temperature.memory,clocks_throttle_reasons.active"


def main() -> None:
    from server.evaluation.timing import L2_FLUSH_BYTES, _spin

    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    device = torch.device("cuda")
    x = torch.rand(*SHAPE, device=device)
    o = torch.empty_like(x)
    smi = subprocess.Popen(["nvidia-smi", f"--query-gpu={QUERY}", "--format=csv,noheader,nounits",
                            "-lms", "100"], stdout=subprocess.PIPE, text=True)
    samples = []
    import threading

    def read():
        for line in smi.stdout:
            samples.append((time.perf_counter(), line.strip()))

    threading.Thread(target=read, daemon=True).start()
    flush = torch.empty(L2_FLUSH_BYTES // 4, device=device)
    a, b = torch.rand(4096, 4096, device=device), torch.rand(4096, 4096, device=device)
    t0 = time.perf_counter()
    windows = []
    while time.perf_counter() - t0 < args.seconds:
        per = []
        for _ in range(10):
            ev = [torch.cuda.Event(enable_timing=True) for _ in range(5)]
            ev[0].record()
            flush.zero_()
            ev[1].record()
            _spin(SPIN_CYCLES)
            ev[2].record()
            torch.clamp(x, min=0.0, out=o)
            ev[3].record()
            torch.mm(a, b)
            ev[4].record()
            torch.cuda.synchronize()
            per.append([ev[k].elapsed_time(ev[k + 1]) for k in range(4)])
        windows.append((time.perf_counter() - t0, [statistics.median(c) for c in zip(*per)]))
    smi.terminate()
    print(f"{'s':>6}{'flush':>8}{'spin':>8}{'relu':>8}{'mm':>8}  sm MHz, mem MHz, W, GPU C, HBM C, throttle")
    for at, ms in windows:
        near = min(samples, key=lambda s: abs(s[0] - t0 - at), default=(0, "-"))[1]
        print(f"{at:>6.2f}" + "".join(f"{m:>8.4f}" for m in ms) + f"  {near}")
    cols = list(zip(*[ms for _, ms in windows]))
    for name, c in zip(("flush", "spin", "relu", "mm"), cols):
        print(f"{name:<6} min {min(c):.4f} median {statistics.median(c):.4f} max {max(c):.4f}  "
              f"corr with relu {statistics.correlation(c, cols[2]):+.2f}  with mm {statistics.correlation(c, cols[3]):+.2f}")


if __name__ == "__main__":
    main()
