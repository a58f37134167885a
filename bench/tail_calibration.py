"""Honest settle tails on this GPU host: what a trial's issued-to-settled gap is after short and
long calls, against what the timer calibrates (GPU host).

    python bench/tail_calibration.py [--trials 60]

The timer (server/evaluation/timing.py) counts a trial from its start event to `settled` (the
device-wide synchronisation's end) instead of to its end event when that gap exceeds a limit
calibrated with a spin as long as the lead (0.1-1 ms): work left running elsewhere shows there.
On the H200 (session 12) full-size evaluations counted 2-98 % of their trials so, and their
speedups fell in two groups 2.5 % apart by that fraction. This measures, with the timer's own
sequence of marks (flush, lead, start, call, end, issued, synchronise, settled) and eager ReLU:
the tails after small and full-size calls, the calibration at the lead's length and at the
call's, and what counting a trial to `settled` adds to its time.
"""

from __future__ import annotations

import argparse
import statistics

import torch

from server.evaluation import timing


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def trials(call, lead_cycles: int, n: int) -> dict:
    flush = torch.empty(timing.L2_FLUSH_BYTES // 4, device="cuda")
    ev = lambda: torch.cuda.Event(enable_timing=True)  # noqa: E731
    call()
    torch.cuda.synchronize()
    to_end, to_settled, tails = [], [], []
    for _ in range(n):
        start, end, issued, settled = ev(), ev(), ev(), ev()
        flush.zero_()
        timing._spin(lead_cycles)
        start.record()
        out = call()
        end.record()
        issued.record()
        torch.cuda.synchronize()
        settled.record()
        torch.cuda.synchronize()
        to_end.append(start.elapsed_time(end))
        to_settled.append(start.elapsed_time(settled))
        tails.append(issued.elapsed_time(settled))
        del out
    return {"to_end": statistics.median(to_end), "to_settled": statistics.median(to_settled),
            "tail_p10": pct(tails, 0.1), "tail_p50": pct(tails, 0.5), "tail_p90": pct(tails, 0.9),
            "over_limit": sum(t > timing.SETTLE_TAIL_MS for t in tails) / n}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=60)
    args = parser.parse_args()
    dev = torch.device("cuda:0")
    rate, _ = timing.ramped_cycles_per_s(dev)
    print(f"spin rate {rate / 1e6:.0f} MHz; SETTLE_TAIL_MS {timing.SETTLE_TAIL_MS}")
    print("calibrated tail (median of 8) after a spin of:")
    for ms in (0.1, 0.5, 1.0, 3.0, 7.0):
        tail = timing.settle_tail_ms(dev, int(ms * 1e-3 * rate))
        print(f"  {ms:4.1f} ms: {tail:.4f} ms")
    lead = int(timing.LEAD_S * rate)
    for label, shape in (("16x4096", (16, 4096)), ("1024x393216", (1024, 393216)),
                         ("4096x393216", (4096, 393216))):
        x = torch.rand(*shape, device=dev) * 2 - 1
        r = trials(lambda x=x: torch.relu(x), lead, args.trials)
        print(f"{label:12s} to end {r['to_end']:.4f} ms, to settled {r['to_settled']:.4f} ms "
              f"(+{100 * (r['to_settled'] / r['to_end'] - 1):.2f} %), tail p10/p50/p90 "
              f"{r['tail_p10']:.4f}/{r['tail_p50']:.4f}/{r['tail_p90']:.4f} ms, over "
              f"{timing.SETTLE_TAIL_MS} ms: {100 * r['over_limit']:.0f} %")
        del x
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
