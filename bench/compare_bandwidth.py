"""How close the comparison's one-pass kernels come to the GPU's memory bandwidth.

    python bench/compare_bandwidth.py [--gib 6] [--device cuda:0]

Times fused_compare's `_partials` (the correctness check's pass) and `_differs` (the inputs'
unchanged check) on two float32 tensors of the given size, for a few block sizes and warp
counts, with CUDA events (median of 10 after 3 warm-ups), and prints TB/s read. For scale:
torch.equal, a copy (clone) and the H200's 4.8 TB/s peak.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import torch
import triton

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.evaluation import fused_compare  # noqa: E402


def _ms(f, n: int = 10) -> float:
    for _ in range(3):
        f()
    times = []
    for _ in range(n):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        f()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gib", type=float, default=6.0)
    parser.add_argument("--device", default="cuda:0")
    args = parser.parse_args()
    device = torch.device(args.device)
    n = int(args.gib * (1 << 30)) // 4
    o = torch.rand(n, device=device)
    r = o + 1e-4 * torch.rand(n, device=device)
    read = 2 * n * 4 / 1e9  # GB read by a pass over both

    def report(name: str, ms: float, gb: float = read) -> None:
        print(f"  {name:<44}{ms:8.2f} ms {gb / ms:8.3f} TB/s")

    print(f"two float32 tensors of {args.gib} GiB ({n} elements):")
    report("compare() (as the evaluator calls it)", _ms(lambda: fused_compare.compare(o, r, 1e-2)))
    report("identical() (as the evaluator calls it)", _ms(lambda: fused_compare.identical(o, r)))
    x, y = fused_compare._words(o), fused_compare._words(r)  # as identical() reads them
    for block in (1024, 2048, 4096, 8192, 16384):
        for warps in (4, 8, 16):
            blocks = triton.cdiv(n, block)
            partial = torch.empty((5, blocks), dtype=torch.float32, device=device)
            words = triton.cdiv(x.numel(), block)
            flags = torch.empty(words, dtype=torch.int32, device=device)
            ms = _ms(lambda: fused_compare._partials[(blocks,)](o, r, partial, blocks, n, 1e-2,
                                                                 BLOCK=block, num_warps=warps))
            ms2 = _ms(lambda: fused_compare._differs[(words,)](x, y, flags, x.numel(),
                                                               BLOCK=block, num_warps=warps))
            report(f"_partials BLOCK {block} warps {warps}", ms)
            report(f"_differs  BLOCK {block} warps {warps}", ms2)
    report("torch.equal", _ms(lambda: torch.equal(o, r)))
    report("clone (read + write)", _ms(lambda: o.clone()))


if __name__ == "__main__":
    main()
