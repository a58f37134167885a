"""The comparison's fast check in one pass over memory, for full-size outputs on a GPU.

`|o - r| - rtol * |r| <= atol everywhere` done with torch takes about twelve passes over a
6 GiB output (subtract, abs, abs, subtract, two maxima, each allocating); this Triton kernel reads
both tensors once and writes per block the partials the checks need: the differences' maxima,
the reference's peak (the normalised tasks' tolerance), the output's least value (softmax's sign
check) and its sum of squares (Frobenius's norm check), which were passes of their own. NaN in a
difference counts as +inf, so it fails the check, as with torch; the exact rule (equal
infinities match) stays in torch, for the rare output that fails this check.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import triton
import triton.language as tl

BLOCK = 4096
DTYPES = (torch.float32, torch.float16, torch.bfloat16)


@dataclass(frozen=True)
class Comparison:
    diff: float  # max |o - r|, NaN read as +inf
    excess: float  # max (|o - r| - rtol * |r|), NaN read as +inf
    ref_peak: float  # max |r| over its non-NaN elements
    out_min: float  # min o over its non-NaN elements
    out_square_sum: float  # sum of o^2 over its non-NaN elements (float32 per block, then float64)


# Not specialised on the sizes (Triton compiles a variant per size that is 1 or a multiple of 16,
# and per 32/64-bit integer): their variants are the dtypes and the integer widths only, which a
# spare process compiles before its job arrives (`warm_variants`); a variant first met inside a
# step is compiled or read from the cache there, and its TTIR and PTX read by the
# narrow-arithmetic check (~20 ms a step at full size, measured on the H200 in session 35).
@triton.jit(do_not_specialize=["blocks", "n"])
def _partials(o_ptr, r_ptr, out_ptr, blocks, n, rtol, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    o = tl.load(o_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    r = tl.load(r_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    diff = tl.abs(o - r)
    excess = diff - rtol * tl.abs(r)
    excess = tl.where(excess == excess, excess, float("inf"))  # NaN fails the check
    excess = tl.where(mask, excess, -float("inf"))  # lanes past the end: no say in the maximum
    diff = tl.where(diff == diff, diff, float("inf"))
    peak = tl.where(r == r, tl.abs(r), 0.0)  # masked lanes read 0: no say either
    least = tl.where(mask & (o == o), o, float("inf"))
    square = tl.where(mask & (o == o), o * o, 0.0)
    tl.store(out_ptr + pid, tl.max(diff, axis=0))
    tl.store(out_ptr + blocks + pid, tl.max(excess, axis=0))
    tl.store(out_ptr + 2 * blocks + pid, tl.max(peak, axis=0))
    tl.store(out_ptr + 3 * blocks + pid, tl.min(least, axis=0))
    tl.store(out_ptr + 4 * blocks + pid, tl.sum(square, axis=0))


@triton.jit(do_not_specialize=["n"])
def _differs(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    a = tl.load(a_ptr + offsets, mask=mask, other=0)
    b = tl.load(b_ptr + offsets, mask=mask, other=0)
    tl.store(out_ptr + tl.program_id(0), tl.max((a != b).to(tl.int32), axis=0))


def identical(a: torch.Tensor, b: torch.Tensor, one_pass: bool | None = None) -> bool:
    """Bit for bit equal (a written -0.0 or NaN payload shows too), in one pass over both on a
    GPU (`one_pass` None: there, for tensors of at least a block); torch.equal first writes a
    boolean tensor of their size and reads it again, ~25 % more traffic and a 1.6 GiB buffer at
    full size."""
    if a.shape != b.shape or a.dtype != b.dtype or a.device != b.device:
        return False
    x, y = _words(a), _words(b)
    if one_pass is None:
        one_pass = x.is_cuda and x.numel() >= BLOCK
    if not one_pass:
        return torch.equal(x, y)
    blocks = triton.cdiv(x.numel(), BLOCK)
    flags = torch.empty(blocks, dtype=torch.int32, device=x.device)
    _differs[(blocks,)](x, y, flags, x.numel(), BLOCK=BLOCK)
    return not bool(flags.max())


# What steps compare: the outputs' float dtypes (_partials) and their bytes as words (_differs,
# `_words`: int64 for an even count of 32-bit elements, int32 for an odd one, int16 or bytes for
# 16-bit and byte outputs of odd counts), with 32- and 64-bit counts.
WORD_DTYPES = (torch.int64, torch.int32, torch.int16, torch.uint8)
LARGE = (1 << 31) + 1  # a count past int32: the 64-bit variant


def warm_variants() -> None:
    """Compile (or read from Triton's cache) and keep in this process every variant of the
    evaluator's kernels a step is likely to launch, without launching them."""
    for dtype in DTYPES:
        for n in (BLOCK, LARGE):
            _partials.warmup(dtype, dtype, torch.float32, 1, n, 0.01, BLOCK=BLOCK, grid=(1,))
    for dtype in WORD_DTYPES:
        for n in (BLOCK, LARGE):
            _differs.warmup(dtype, dtype, torch.int32, n, BLOCK=BLOCK, grid=(1,))


def _words(t: torch.Tensor) -> torch.Tensor:
    """t's bytes as a flat integer tensor (the widest word that divides them evenly)."""
    flat = t.detach().contiguous().reshape(-1)
    if flat.is_complex():
        flat = torch.view_as_real(flat).reshape(-1)
    raw = flat.view(torch.uint8)
    for word in (torch.int64, torch.int32, torch.int16):
        size = torch.empty((), dtype=word).element_size()
        if raw.numel() % size == 0 and raw.storage_offset() % size == 0:
            return raw.view(word)
    return raw


def applies(o: torch.Tensor, r: torch.Tensor) -> bool:
    return (o.is_cuda and r.is_cuda and o.device == r.device and o.dtype == r.dtype
            and o.dtype in DTYPES and o.shape == r.shape
            and not o.is_neg() and not r.is_neg())  # the kernel reads raw memory: no lazy negation


def compare(o: torch.Tensor, r: torch.Tensor, rtol: float) -> Comparison:
    """One pass over both tensors, in float32 (see Comparison)."""
    o, r = o.contiguous(), r.contiguous()
    n = o.numel()
    blocks = triton.cdiv(n, BLOCK)
    partial = torch.empty((5, blocks), dtype=torch.float32, device=o.device)
    _partials[(blocks,)](o, r, partial, blocks, n, float(rtol), BLOCK=BLOCK)
    maxima, least = partial[:3].amax(dim=1).double(), partial[3].amin().reshape(1).double()
    return Comparison(*torch.cat([maxima, least, partial[4].double().sum().reshape(1)]).tolist())


def max_diff_and_excess(o: torch.Tensor, r: torch.Tensor, rtol: float) -> tuple[float, float]:
    """(max |o - r|, max (|o - r| - rtol * |r|)) in float32, NaN read as +inf."""
    c = compare(o, r, rtol)
    return c.diff, c.excess
