# task: level1/37_FrobeniusNorm_
# expect: forbidden_op
# why: both passes are Triton, but the norm travels through the host with .item(): a sync and a
#      scalar extraction that forward may not do
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_of_squares_kernel(x_ptr, total_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n_elements, other=0.0)
    tl.atomic_add(total_ptr, tl.sum(x * x, axis=0))


@triton.jit
def scale_kernel(x_ptr, out_ptr, n_elements, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * scale, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n = x.numel()
        total = torch.zeros(1, device=x.device, dtype=torch.float32)
        grid = (triton.cdiv(n, 1024),)
        sum_of_squares_kernel[grid](x, total, n, BLOCK=1024)
        inv_norm = 1.0 / total.item() ** 0.5
        out = torch.empty_like(x)
        scale_kernel[grid](x, out, n, inv_norm, BLOCK=1024)
        return out
