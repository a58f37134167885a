"""Narrow arithmetic: a kernel may not compute a task's products in 8-bit (or narrower) formats.

Red-team pass 62: a float32 matmul computed on fp8 (e4m3) operands, centred on the generator's
mean 0.5 so that the rounding errors of independent [0, 1) draws cancel, stayed within 0.55-0.66
of the tolerance on every random trial and scored 12 of 12; on inputs inside the same range it is
wrong (A = B = 0.2031 everywhere: 19x the tolerance), and on a GPU it would run on fp8 tensor
cores at 4x TF32's rate. Sampled correctness cannot refuse it: the random draws are exactly where
its errors cancel, and an error budget on them cannot tell it from an honest `tl.dot`, whose
TF32 operands are truncated (Triton passes float32 registers to the tensor cores, which drop the
low 13 bits): on positive draws that error never cancels, ~1e-3 of every product, which is more
than the centred fp8 product's once K passes ~1000. What tells them apart is the format: TF32,
float16 and bfloat16 keep every product within 2^-8 of itself on any input, which the tolerance
(1e-2) admits; 8-bit formats (2^-4 for e4m3) do not. So every task here (16- and 32-bit floating
inputs) refuses 8-bit and narrower float formats anywhere in a kernel, dot products on 8-bit or
narrower integers (a centred int8 quantisation cancels the same way, at 2x bf16's rate) and
floats converted to such integers. Narrow values packed into wider words by bit operations are
beyond a rule on formats; what it keeps from a kernel is the tensor cores' 8-bit rates.

Where it is checked: the compiler's own IR of every Triton kernel. The cpu evaluator makes it on
each interpreted launch (front_end.py, the TTIR a GPU launch compiles); the gpu evaluator reads
the step's compiled kernels (their TTIR and PTX: every file Triton wrote or was handed from a
cache during the step, step_cache.py, and the step's own cache folder) after the correctness
trials and after timing. Inline assembly is read in both. A CUDA
submission's sources get the matching text rules (cuda_sources.py).
"""

from __future__ import annotations

import os
import re

REASON = ("kernels for this task may not compute in 8-bit or narrower formats (fp8, fp6, fp4, "
          "int8 or int4 dot products): their rounding (2^-4 of a value for e4m3) is within the "
          "tolerance only where errors cancel, as on random inputs, not on every input of the "
          "task's range; compute in float32, TF32 (tl.dot's default) or 16-bit floats")

# What names an 8-bit or narrower computation in Triton's IR (TTIR), in PTX, or in inline
# assembly held in either; each pattern is searched line by line.
_NARROW = (
    # MLIR's narrow float types (f8E4M3FN, f8E5M2, f8E4M3B11FNUZ, f6E2M3FN, f4E2M1FN, f8E8M0FNU),
    # alone or as a tensor's element type (`tensor<64x32xf8E4M3FN>`)
    re.compile(r"(?:\b|(?<=\dx)(?<!\b0x))f[468]E\d"),  # (not a hex constant 0xf8E3)
    # the same formats as PTX (and inline assembly) spells them: cvt.rn.satfinite.e4m3x2.f32, ...
    re.compile(r"\b(e4m3|e5m2|e2m1|e2m3|e3m2|ue8m0|ue4m3)(x[248])?\b", re.IGNORECASE),
    # tensor-core products of narrow integers: mma.sync...s32.s8.s8.s32, wgmma...s32.u8.s8,
    # tcgen05.mma...kind::i8 / kind::f8f6f4 / kind::mxf4
    re.compile(r"\b(wgmma|mma)[\w.:]*\.(s8|u8|s4|u4|b1)\b"),
    re.compile(r"kind::(i8|f8f6f4|mxf8f6f4|mxf4|mxf4nvf4)\b"),
    # byte dot products on the CUDA cores
    re.compile(r"\bdp[24]a\b", re.IGNORECASE),
    # Triton's own: a scaled (microscaling) dot, a dot on 8-bit or narrower integers, floats
    # quantised to 8-bit or narrower integers (a mask made from a comparison is `arith.extui`
    # of i1, not this)
    re.compile(r"\btt\.dot_scaled\b"),
    re.compile(r"\btt\.dot\b.*x(i8|i4|i1)>"),
    re.compile(r"\barith\.fpto[su]i\b.*\bto\b.*(\b|x)i(8|4)\b"),
)
COMPILED_SUFFIXES = (".ttir", ".ptx")


def narrow_arithmetic(text: str) -> str | None:
    """The first line of compiled text (TTIR or PTX) that computes in a narrow format, or None."""
    for line in text.splitlines():
        if any(p.search(line) for p in _NARROW):
            return " ".join(line.split())[:200]
    return None


def check_compiled(folder: str, paths=()) -> str | None:
    """The first narrow computation in the compiled kernels under `folder` (a step's Triton
    cache) or among `paths` (the files Triton was handed from any cache folder): each kernel's
    TTIR and PTX, as 'kernel: line', or None."""
    files = list(paths)
    if folder and os.path.isdir(folder):
        files += [os.path.join(root, name) for root, _, names in sorted(os.walk(folder))
                  for name in sorted(names)]
    for path in dict.fromkeys(files):  # once each, in order
        if not path.endswith(COMPILED_SUFFIXES):
            continue
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                found = narrow_arithmetic(f.read())
        except OSError:
            continue
        if found is not None:
            return f"{os.path.basename(path).rsplit('.', 1)[0]}: {found}"
    return None


class NarrowArithmetic(Exception):
    """Raised by the cpu evaluator's front end for a launch whose kernel computes narrow."""


def feedback(found: str) -> str:
    return f"narrow arithmetic in your kernel ({found}): {REASON}"
