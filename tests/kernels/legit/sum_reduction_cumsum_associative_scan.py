# task: level1/47_Sum_reduction_over_a_dimension
# expect: ok
# why: scans: per chunk of the reduced dimension a tl.cumsum along axis 0 whose last row is the
#      chunk's total, carried across chunks with a tl.associative_scan (a @triton.jit add
#      combine) over the chunk totals; keepdim output written as (batch, 1, cols)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def sum_scan_kernel(x_ptr, out_ptr, R, inner, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    b = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    rows = tl.arange(0, BLOCK_R)
    total = tl.zeros((BLOCK_I,), dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        mask = ((r0 + rows)[:, None] < R) & (cols[None, :] < inner)
        tile = tl.load(x_ptr + b * R * inner + (r0 + rows)[:, None] * inner + cols[None, :],
                       mask=mask, other=0.0)
        running = tl.cumsum(tile, axis=0)  # prefix sums down the rows
        last = tl.sum(tl.where(rows[:, None] == BLOCK_R - 1, running, 0.0), axis=0)
        pair = tl.join(total, last)  # (BLOCK_I, 2): carried total, then this chunk's
        total = tl.sum(tl.where(tl.arange(0, 2)[None, :] == 1,
                                tl.associative_scan(pair, 1, _add), 0.0), axis=1)
    tl.store(out_ptr + b * inner + cols, total, mask=cols < inner)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert self.dim == 1 and x.dim() == 3
        x = x.contiguous()
        B, R, inner = x.shape
        out = torch.empty((B, 1, inner), device=x.device, dtype=x.dtype)
        BLOCK_I = 32
        sum_scan_kernel[(B, triton.cdiv(inner, BLOCK_I))](x, out, R, inner, BLOCK_R=16, BLOCK_I=BLOCK_I)
        return out
