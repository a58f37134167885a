# task: level1/37_FrobeniusNorm_
# expect: ok
# why: two kernels: block partial sums of squares tl.atomic_add'ed into a torch.zeros(1) buffer
#      (tl.debug_barrier before the atomic), then a scale kernel reading the scalar and taking
#      tl.sqrt; x.flatten(), out.view_as(x)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sumsq_kernel(x_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    partial = tl.sum(x * x, axis=0)
    tl.debug_barrier()
    tl.atomic_add(acc_ptr, partial)


@triton.jit
def scale_kernel(x_ptr, acc_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    norm = tl.sqrt(tl.load(acc_ptr))
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x / norm, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        flat = x.contiguous().flatten()
        n = flat.numel()
        acc = torch.zeros(1, device=x.device, dtype=torch.float32)
        BLOCK = 4096
        grid = (triton.cdiv(n, BLOCK),)
        sumsq_kernel[grid](flat, acc, n, BLOCK=BLOCK)
        out = torch.empty_like(flat)
        scale_kernel[grid](flat, acc, out, n, BLOCK=BLOCK)
        return out.view_as(x)
