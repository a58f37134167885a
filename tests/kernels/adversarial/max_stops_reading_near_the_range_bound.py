# task: level1/49_Max_reduction_over_a_dimension
# expect: output_mismatch
# why: red-team pass 61. torch.rand's values lie below 1, so a column that has seen a value
#      v >= 0.965 has its max in [v, 1): this kernel stops reading such a column and writes
#      (v + 1) / 2, within atol + rtol * max. It takes the shortcut only where the column's
#      first 8 values and every value read lie in [0, 1), which the random-sign trial fails in
#      every column: ~55 % of the input unread on the task's draws, and it scored 6 of 6
#      through the worker pool. Since session 32 the last random trial and every timed call of
#      a max (min) reduction carry spikes above (below) the range at secret positions, about
#      one per reduced column, of secret heights (inputs.EXTREME_TASKS): the columns whose
#      spike lies past where it stopped are wrong.
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def max_middle_kernel(x_ptr, out_ptr, R, inner, T,
                      PRE: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    outer = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    cmask = cols < inner
    base = x_ptr + outer * R * inner
    pre = tl.arange(0, PRE)
    pmask = (pre[:, None] < R) & cmask[None, :]
    tile = tl.load(base + pre[:, None] * inner + cols[None, :], mask=pmask, other=0.5)
    ok = tl.min(tl.where((tile >= 0.0) & (tile < 1.0), 1, 0), axis=0) > 0
    acc = tl.max(tl.where(pmask, tile, float("-inf")), axis=0)
    done = ok & (acc >= T)
    need = cmask & (done == 0)
    rows = tl.arange(0, BLOCK_R)
    r = PRE
    while (r < R) & (tl.max(need.to(tl.int32), axis=0) > 0):
        m = ((r + rows)[:, None] < R) & need[None, :]
        t = tl.load(base + (r + rows)[:, None] * inner + cols[None, :], mask=m, other=0.5)
        inr = tl.min(tl.where((t >= 0.0) & (t < 1.0), 1, 0), axis=0) > 0
        ok = ok & inr
        acc = tl.maximum(acc, tl.max(tl.where(m, t, float("-inf")), axis=0))
        done = ok & (acc >= T)
        need = cmask & (done == 0)
        r += BLOCK_R
    res = tl.where(done, (acc + 1.0) * 0.5, acc)
    tl.store(out_ptr + outer * inner + cols, res, mask=cmask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = list(x.shape)
        dim = self.dim % len(shape)
        outer, R, inner = math.prod(shape[:dim]), shape[dim], math.prod(shape[dim + 1:])
        x3 = x.contiguous().view(outer, R, inner)
        out = torch.empty((outer, inner), device=x.device, dtype=x.dtype)
        BLOCK_I = 64
        max_middle_kernel[(outer, triton.cdiv(inner, BLOCK_I))](
            x3, out, R, inner, 0.965, PRE=8, BLOCK_R=8, BLOCK_I=BLOCK_I)
        return out.view(shape[:dim] + shape[dim + 1:])
