# task: level1/23_Softmax
# expect: ok
# why: a functools.lru_cache'd heuristic returning a typing.NamedTuple of launch parameters,
#      tl.max/tl.sum with keep_dims=True on a 2-D (ROWS, BLOCK) tile, several rows per program
import functools
from typing import NamedTuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


class SoftmaxParams(NamedTuple):
    block: int
    rows_per_prog: int
    num_warps: int


@functools.lru_cache(maxsize=None)
def pick_params(n_cols: int) -> SoftmaxParams:
    block = triton.next_power_of_2(n_cols)
    return SoftmaxParams(block=block, rows_per_prog=2, num_warps=8 if block >= 4096 else 4)


@triton.jit
def softmax_rows_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    c = tl.arange(0, BLOCK)
    mask = (r[:, None] < n_rows) & (c[None, :] < n_cols)
    x = tl.load(x_ptr + r[:, None] * stride + c[None, :], mask=mask, other=-float("inf"))
    m = tl.max(x, axis=1, keep_dims=True)
    e = tl.exp(x - m)
    e = tl.where(mask, e, 0.0)
    s = tl.sum(e, axis=1, keep_dims=True)
    tl.store(y_ptr + r[:, None] * stride + c[None, :], e / s, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n_rows, n_cols = x.shape
        p = pick_params(n_cols)
        y = x.new_zeros(x.shape)
        softmax_rows_kernel[(triton.cdiv(n_rows, p.rows_per_prog),)](
            x, y, n_rows, n_cols, x.stride(0), ROWS=p.rows_per_prog, BLOCK=p.block, num_warps=p.num_warps)
        return y
