"""Where an evaluation process's warm-up goes, and what the host's priming saves (GPU host).

    python bench/prewarm_profile.py [--children 3]

Like the worker host: imports torch, triton and the pipeline (no CUDA), then forks evaluation
processes one after another; each creates its CUDA context and runs `pipeline.prewarm` (the
evaluator's own kernels), timed. First with the host unprimed, then after
`worker.prime_triton()`; the last child of each round runs under cProfile and prints the
functions that took longest (cumulative), so avoidable first-use costs show by name.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import time


def child(profile: bool) -> None:
    import torch

    from server.evaluation.pipeline import prewarm

    t0 = time.perf_counter()
    torch.cuda.synchronize(0)
    t1 = time.perf_counter()
    prof = cProfile.Profile() if profile else None
    if prof:
        prof.enable()
    prewarm(torch.device("cuda:0"))
    torch.cuda.synchronize(0)
    if prof:
        prof.disable()
    t2 = time.perf_counter()
    print(f"  context {1e3 * (t1 - t0):7.1f} ms   prewarm {1e3 * (t2 - t1):7.1f} ms"
          + ("  (profiled)" if prof else ""), flush=True)
    if prof:
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(22)
        lines = [ln for ln in out.getvalue().splitlines() if ln.strip()][-23:]
        print("\n".join("    " + ln[:150] for ln in lines), flush=True)


def round_of(n: int) -> None:
    for k in range(n):
        pid = os.fork()
        if pid == 0:
            try:
                child(profile=k == n - 1)
            finally:
                os._exit(0)
        os.waitpid(pid, 0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--children", type=int, default=3)
    args = parser.parse_args()
    import torch  # noqa: F401
    import triton  # noqa: F401

    from server.evaluation import pipeline  # noqa: F401
    from server.evaluation.worker import prime_triton

    print("host unprimed:", flush=True)
    round_of(args.children)
    t = time.perf_counter()
    prime_triton()
    print(f"host primed (prime_triton {1e3 * (time.perf_counter() - t):.0f} ms in the host):",
          flush=True)
    round_of(args.children)


if __name__ == "__main__":
    main()
