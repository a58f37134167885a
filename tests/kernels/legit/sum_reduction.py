# task: level1/47_Sum_reduction_over_a_dimension
# expect: ok
# why: views x as (outer, R, inner) so any reduce dim becomes the middle axis; tiles along inner stay coalesced
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_middle_kernel(x_ptr, out_ptr, R, inner, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    outer = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    rows = tl.arange(0, BLOCK_R)
    base = x_ptr + outer * R * inner
    acc = tl.zeros((BLOCK_I,), dtype=tl.float32)
    for r in range(0, R, BLOCK_R):
        mask = ((r + rows)[:, None] < R) & (cols[None, :] < inner)
        tile = tl.load(base + (r + rows)[:, None] * inner + cols[None, :], mask=mask, other=0.0)
        acc += tl.sum(tile, axis=0)
    tl.store(out_ptr + outer * inner + cols, acc, mask=cols < inner)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = list(x.shape)
        dim = self.dim % len(shape)
        outer, R, inner = math.prod(shape[:dim]), shape[dim], math.prod(shape[dim + 1:])
        x3 = x.contiguous().view(outer, R, inner)
        out = torch.empty((outer, 1, inner), device=x.device, dtype=x.dtype)
        BLOCK_R, BLOCK_I = 32, 64
        sum_middle_kernel[(outer, triton.cdiv(inner, BLOCK_I))](x3, out, R, inner, BLOCK_R=BLOCK_R, BLOCK_I=BLOCK_I)
        shape[dim] = 1
        return out.view(shape)
