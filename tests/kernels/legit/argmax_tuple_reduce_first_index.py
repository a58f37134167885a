# task: level1/51_Argmax_over_a_dimension
# expect: ok
# why: tl.reduce over a (values, indices) tuple with a @triton.jit combine that keeps the first
#      index among equal maxima (torch's rule), run on per-group candidates: the reduced
#      dimension loaded whole, reshaped to (GROUPS, R/GROUPS, cols), each group's max and first
#      index by tl.max/tl.min, then the tuple reduce across groups (the cpu evaluator's
#      interpreter calls a custom combine once per element: ~7 s a forward over all 64 rows)
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _argmax_combine(v1, i1, v2, i2):
    take_second = (v2 > v1) | ((v2 == v1) & (i2 < i1))
    return tl.where(take_second, v2, v1), tl.where(take_second, i2, i1)


@triton.jit
def argmax_kernel(x_ptr, out_ptr, R, inner, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr,
                  GROUPS: tl.constexpr):
    outer = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    rows = tl.arange(0, BLOCK_R)
    mask = (rows[:, None] < R) & (cols[None, :] < inner)
    tile = tl.load(x_ptr + outer * R * inner + rows[:, None] * inner + cols[None, :], mask=mask,
                   other=float("-inf"))
    idx = tl.broadcast_to(rows[:, None], (BLOCK_R, BLOCK_I))
    tile3 = tl.reshape(tile, (GROUPS, BLOCK_R // GROUPS, BLOCK_I))
    idx3 = tl.reshape(idx, (GROUPS, BLOCK_R // GROUPS, BLOCK_I))
    group_max = tl.max(tile3, axis=1)
    group_idx = tl.min(tl.where(tile3 == group_max[:, None, :], idx3, BLOCK_R), axis=1)
    _, best = tl.reduce((group_max, group_idx), 0, _argmax_combine)
    tl.store(out_ptr + outer * inner + cols, best.to(tl.int64), mask=cols < inner)


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
        BLOCK_I = 32
        argmax_kernel[(outer, triton.cdiv(inner, BLOCK_I))](x3, out, R, inner,
                                                            BLOCK_R=triton.next_power_of_2(R), BLOCK_I=BLOCK_I,
                                                            GROUPS=4)
        return out.view(shape[:dim] + shape[dim + 1:])
