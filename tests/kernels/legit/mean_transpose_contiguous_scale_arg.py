# task: level1/48_Mean_reduction_over_a_dimension
# expect: ok
# why: moves the reduced dim last with x.transpose(1, 2).contiguous() (a device-local copy), a
#      row-reduction kernel over the contiguous rows, 1/R computed in Python and passed as scale,
#      output allocated flat and returned .view(B, C); int(math.ceil(...)) instead of cdiv
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_mean_kernel(x_ptr, y_ptr, rows, R, scale, ROWS: tl.constexpr, BLOCK_R: tl.constexpr):
    # ROWS contiguous rows per program (the interpreter the CPU tests use pays per program)
    row = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    acc = tl.zeros((ROWS, BLOCK_R), dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        acc += tl.load(x_ptr + row[:, None] * R + r[None, :], mask=(row[:, None] < rows) & (r[None, :] < R),
                       other=0.0)
    tl.store(y_ptr + row, tl.sum(acc, axis=1) * scale, mask=row < rows)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, R, C = x.shape
        xt = x.transpose(1, 2).contiguous()  # (B, C, R)
        rows = B * C
        y = torch.empty(rows, device=x.device, dtype=x.dtype)
        BLOCK_R = 64
        n_chunks = int(math.ceil(R / BLOCK_R))
        assert n_chunks >= 1
        ROWS = 32
        row_mean_kernel[(triton.cdiv(rows, ROWS),)](xt, y, rows, R, 1.0 / R, ROWS=ROWS, BLOCK_R=BLOCK_R)
        return y.view(B, C)
