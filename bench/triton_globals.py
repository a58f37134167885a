"""Which module-level values Triton's compiler lets a kernel read (the static check mirrors it).

    python bench/triton_globals.py

Compiles one tiny kernel per kind of global on the GPU and prints whether it compiled, and the
start of the error when it did not. The interpreter (the cpu evaluator) reads any global; the
static check refuses, in kernel bodies, what this table shows the compiler refusing.
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path

import torch


# Each case: the global's definition, and how the kernel reads it.
CASES = [
    ("SCALE = 2.0", "SCALE"),
    ("SCALE: tl.constexpr = 2.0", "SCALE"),
    ("SCALE = tl.constexpr(2.0)", "SCALE"),
    ("SCALE = math.pi", "SCALE"),
    ("SCALE = torch.finfo(torch.float32).eps", "SCALE"),
    ("SCALE = Act.RELU", "SCALE"),
    ("SCALE = tl.constexpr((2.0, 3.0))", "SCALE[0]"),
    ("SCALE = Pair(2.0, 3.0)", "SCALE.a"),
    ("SCALE = (2.0, 3.0)", "SCALE[0]"),
]
HEADER = """import enum
import math
from collections import namedtuple

import torch
import triton
import triton.language as tl


class Act(enum.IntEnum):
    RELU = 1


Pair = namedtuple("Pair", "a b")
"""


def module_for(i: int, definition: str, use: str) -> str:
    return (HEADER + f"{definition}\n\n\n@triton.jit\ndef kernel_{i}(x_ptr, y_ptr):\n"
            f"    tl.store(y_ptr, tl.load(x_ptr) * {use})\n")


def main() -> int:
    x = torch.ones(1, device="cuda")
    y = torch.empty_like(x)
    folder = Path(tempfile.mkdtemp())
    print(f"{'global read in a kernel':42} result")
    for i, (definition, use) in enumerate(CASES):
        path = folder / f"case_{i}.py"
        path.write_text(module_for(i, definition, use))
        spec = importlib.util.spec_from_file_location(f"case_{i}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        try:
            getattr(module, f"kernel_{i}")[(1,)](x, y)
            torch.cuda.synchronize()
            verdict = f"compiles ({y.item():g})"
        except Exception as exc:  # noqa: BLE001 - the error is the measurement
            text = str(exc).replace("\n", " ")
            verdict = ("refused: NameError, not a constexpr global" if "Cannot access global" in text
                       else "refused: " + text[:100])
        print(f"{definition + '; ' + use:42} {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
