# task: level1/37_FrobeniusNorm_
# expect: ok
# why: deterministic two-stage reduction: per-block partials into torch.empty(num_blocks), a
#      single-program kernel reduces them (next_power_of_2 block) and stores 1/norm; then a scale
#      kernel; torch.empty((), ...) 0-d scalar buffer; x.reshape(-1)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def partial_sumsq_kernel(x_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(part_ptr + pid, tl.sum(x * x, axis=0))


@triton.jit
def finalize_kernel(part_ptr, inv_ptr, n_parts, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    p = tl.load(part_ptr + i, mask=i < n_parts, other=0.0)
    tl.store(inv_ptr, 1.0 / tl.sqrt(tl.sum(p, axis=0)))


@triton.jit
def scale_kernel(x_ptr, inv_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * tl.load(inv_ptr), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        flat = x.contiguous().reshape(-1)
        n = flat.numel()
        BLOCK = 2048
        nb = triton.cdiv(n, BLOCK)
        parts = torch.empty(nb, device=x.device, dtype=torch.float32)
        inv = torch.empty((), device=x.device, dtype=torch.float32)
        partial_sumsq_kernel[(nb,)](flat, parts, n, BLOCK=BLOCK)
        finalize_kernel[(1,)](parts, inv, nb, BLOCK=triton.next_power_of_2(nb))
        y = torch.empty_like(flat)
        scale_kernel[(nb,)](flat, inv, y, n, BLOCK=BLOCK)
        return y.reshape(x.shape)
