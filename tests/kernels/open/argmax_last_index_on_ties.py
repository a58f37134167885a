# task: level1/51_Argmax_over_a_dimension
# expect: output_mismatch (should be); scores today
# why: running argmax over chunks of the reduce dim; >= keeps the LAST index on ties (torch returns the first); no trial has ties (all-zero or constant inputs)
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmax_middle_kernel(x_ptr, out_ptr, R, inner, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    outer = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    rows = tl.arange(0, BLOCK_R)
    base = x_ptr + outer * R * inner
    best = tl.full((BLOCK_I,), float("-inf"), dtype=tl.float32)
    best_idx = tl.zeros((BLOCK_I,), dtype=tl.int64)
    for r in range(0, R, BLOCK_R):
        mask = ((r + rows)[:, None] < R) & (cols[None, :] < inner)
        tile = tl.load(base + (r + rows)[:, None] * inner + cols[None, :], mask=mask, other=float("-inf"))
        chunk_best = tl.max(tile, axis=0)
        chunk_idx = (BLOCK_R - 1 - tl.argmax(tl.flip(tile, 0), axis=0)).to(tl.int64) + r
        better = chunk_best >= best
        best = tl.where(better, chunk_best, best)
        best_idx = tl.where(better, chunk_idx, best_idx)
    tl.store(out_ptr + outer * inner + cols, best_idx, mask=cols < inner)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = list(x.shape)
        dim = self.dim % len(shape)
        outer, R, inner = math.prod(shape[:dim]), shape[dim], math.prod(shape[dim + 1:])
        x3 = x.contiguous().view(outer, R, inner)
        out = torch.empty((outer, inner), device=x.device, dtype=torch.int64)
        BLOCK_R, BLOCK_I = 32, 64
        argmax_middle_kernel[(outer, triton.cdiv(inner, BLOCK_I))](x3, out, R, inner, BLOCK_R=BLOCK_R, BLOCK_I=BLOCK_I)
        return out.view(shape[:dim] + shape[dim + 1:])
