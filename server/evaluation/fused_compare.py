"""The comparison's fast check in one pass over memory, for full-size outputs on a GPU.

`|o - r| - rtol * |r| <= atol everywhere` done with torch takes about twelve passes over a
6 GiB output (subtract, abs, abs, subtract, two maxima, each allocating); this Triton kernel reads
both tensors once and writes one partial maximum per block. NaN anywhere counts as +inf, so it
fails the check, as with torch; the exact rule (equal infinities match) stays in torch, for the
rare output that fails this check.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

BLOCK = 4096
DTYPES = (torch.float32, torch.float16, torch.bfloat16)


@triton.jit
def _partial_maxima(o_ptr, r_ptr, diff_ptr, excess_ptr, n, rtol, BLOCK: tl.constexpr):
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
    tl.store(diff_ptr + pid, tl.max(diff, axis=0))
    tl.store(excess_ptr + pid, tl.max(excess, axis=0))


def applies(o: torch.Tensor, r: torch.Tensor) -> bool:
    return (o.is_cuda and r.is_cuda and o.device == r.device and o.dtype == r.dtype
            and o.dtype in DTYPES and o.shape == r.shape
            and not o.is_neg() and not r.is_neg())  # the kernel reads raw memory: no lazy negation


def max_diff_and_excess(o: torch.Tensor, r: torch.Tensor, rtol: float) -> tuple[float, float]:
    """(max |o - r|, max (|o - r| - rtol * |r|)) in float32, NaN read as +inf."""
    o, r = o.contiguous(), r.contiguous()
    n = o.numel()
    blocks = triton.cdiv(n, BLOCK)
    partial = torch.empty((2, blocks), dtype=torch.float32, device=o.device)
    _partial_maxima[(blocks,)](o, r, partial[0], partial[1], n, float(rtol), BLOCK=BLOCK)
    diff, excess = partial.amax(dim=1).tolist()
    return diff, excess
