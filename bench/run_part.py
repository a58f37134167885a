"""Run part K of N of a pytest selection, split by collection order: one GPU command may run
600 s at most, and tests/test_gpu.py's share of tests1 took 600 s and more on a slow host
(session 38: 188 of its 201 tests done at the limit).

    python3 bench/run_part.py K N [pytest arguments...]

With `-n W` (pytest-xdist, on the GPU machine's image) the part runs on W workers; each failure
is still printed as it comes (the workers' reports reach this process's hooks).
"""

from __future__ import annotations

import subprocess
import sys

import pytest


def main() -> int:
    part, parts, args = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    if not 1 <= part <= parts:
        sys.exit(f"part {part} of {parts}: the part is 1 to {parts}")
    collect = [a for i, a in enumerate(args)  # (-qq lists files, not ids; no workers to list them)
               if a != "-q" and a != "-n" and not (i and args[i - 1] == "-n")]
    listed = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", *collect],
                            capture_output=True, text=True).stdout.splitlines()
    # (a test id may hold spaces: not split; a warning's indented lines may hold "::" too)
    ids = [line for line in listed if "::" in line and not line[:1].isspace()]
    size = -(-len(ids) // parts)
    chosen = ids[(part - 1) * size:part * size]
    print(f"part {part} of {parts}: {len(chosen)} of {len(ids)} tests, from {chosen[:1]}",
          flush=True)
    if not chosen:
        return 0
    values = {"-m", "-k", "-p", "--timeout", "-n"}  # options whose value follows them
    options = [a for i, a in enumerate(args)
               if a.startswith("-") or (i and args[i - 1] in values)]
    return pytest.main([*options, *chosen], plugins=[_FailuresAsTheyCome()])  # ids for paths


class _FailuresAsTheyCome:
    """Each failure's id and message as soon as it is known: a part stopped by the command's
    time limit never reaches pytest's summary (session 39: 42 failures and no reason shown)."""

    def __init__(self):
        self.done = self.failed = 0

    def pytest_runtest_logreport(self, report):
        if report.when == "call" or (report.failed or report.skipped) and report.when == "setup":
            self.done += 1
            self.failed += report.failed
            if self.done % 50 == 0:  # how far a run got, should the time limit stop it
                print(f"\nprogress: {self.done} done, {self.failed} failed", flush=True)
        if report.failed:
            crash = getattr(report.longrepr, "reprcrash", None)
            message = crash.message if crash else str(report.longrepr).strip()[-300:]
            print(f"\nFAILED {report.nodeid} ({report.when}): {message}"[:600], flush=True)


if __name__ == "__main__":
    sys.exit(main())
