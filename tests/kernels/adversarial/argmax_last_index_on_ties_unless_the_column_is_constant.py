# task: level1/51_Argmax_over_a_dimension
# expect: output_mismatch
# why: red-team pass 66 (scored 3 of 3 on the cpu evaluator before its trial). A running argmax with >= (a later equal value wins: the LAST index of
#      tied maxima; torch answers the first), made right on the tie trial alone: where a
#      column's largest value equals its smallest (every element tied, the constant trial) it
#      answers index 0. The task's draws and the random-sign trial never tie; the tie trial ties
#      everything. Wrong on in-range inputs with some tied maxima, e.g. a column
#      [0.2, 0.9, 0.9, 0.1, ...] (answers 2, torch 1): any partially tied column.
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmax_middle_kernel(x_ptr, out_ptr, R, inner, BLOCK_I: tl.constexpr):
    outer = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    base = x_ptr + outer * R * inner
    best = tl.full((BLOCK_I,), float("-inf"), dtype=tl.float32)
    low = tl.full((BLOCK_I,), float("inf"), dtype=tl.float32)
    best_idx = tl.zeros((BLOCK_I,), dtype=tl.int64)
    for r in range(0, R):
        v = tl.load(base + r * inner + cols, mask=cols < inner, other=0.0)
        better = v >= best  # ties: the last index
        best = tl.where(better, v, best)
        best_idx = tl.where(better, r, best_idx)
        low = tl.minimum(low, v)
    best_idx = tl.where(best == low, 0, best_idx)  # a constant column: the tie trial
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
        BLOCK_I = 64
        argmax_middle_kernel[(outer, triton.cdiv(inner, BLOCK_I))](x3, out, R, inner, BLOCK_I=BLOCK_I)
        return out.view(shape[:dim] + shape[dim + 1:])
