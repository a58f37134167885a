"""What reading or writing 65536 scattered elements of a full-size tensor costs, by their order.

    python3 bench/gather_locality.py [--gib 6] [--count 65536] [--repeats 50]

The timed loop touches a few tens of thousands of secret positions of each call's output and
inputs (fingerprints, spoiled outputs, perturbed inputs, spikes): at KernelBench's full sizes the
tensors span 6-7.5 GiB, and positions drawn at random hit a different page almost every time.
This times torch.take and index_put_ at random positions against the same positions sorted,
each op ended by a synchronisation, median of the repeats. On the H200 (session 26) the order
made no difference (0.05 ms a take and copy to the host, 0.02 ms a scatter, at 6 GiB as at
256 KiB) and the sort itself cost 0.12 ms: the sampler keeps drawn order.
"""

from __future__ import annotations

import argparse
import statistics
import time

import torch


def _median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gib", type=float, default=6.0)
    parser.add_argument("--count", type=int, default=65536)
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    device = torch.device("cuda")
    n = int(args.gib * 2**30) // 4
    big = torch.rand(n, device=device)
    small = torch.rand(16 * 4096, device=device)
    print(f"{torch.cuda.get_device_name(device)}; {args.count} positions; median of {args.repeats}")
    print(f"{'tensor':<12}{'op':<16}{'random ms':>10}{'sorted ms':>10}{'sort ms':>9}")
    for name, t in ((f"{args.gib:g} GiB", big), ("256 KiB", small)):
        gen = torch.Generator(device=device).manual_seed(0)
        positions = torch.randint(0, t.numel(), (args.count,), generator=gen, device=device)
        ordered = positions.sort().values
        nan = torch.full((args.count,), float("nan"), device=device)
        sort_ms = _median_ms(lambda: positions.sort(), args.repeats)
        for op, fn in (("take + .cpu()", lambda p: torch.take(t, p).cpu()),
                       ("index_put_", lambda p: t.index_put_((p,), nan)),
                       ("index_copy_", lambda p: t.index_copy_(0, p, nan))):
            random_ms = _median_ms(lambda: fn(positions), args.repeats)
            sorted_ms = _median_ms(lambda: fn(ordered), args.repeats)
            print(f"{name:<12}{op:<16}{random_ms:>10.3f}{sorted_ms:>10.3f}{sort_ms:>9.3f}")


if __name__ == "__main__":
    main()
