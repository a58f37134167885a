# task: level1/23_Softmax
# expect: ok
# why: a module constant tl.constexpr(float("-inf")) read in the kernel (false-rejection probe 3)
import torch
import torch.nn as nn
import triton
import triton.language as tl

NEG_INF = tl.constexpr(float("-inf"))


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    row = tl.load(in_ptr + row_idx * in_row_stride + col_offsets, mask=mask, other=NEG_INF)
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    tl.store(out_ptr + row_idx * out_row_stride + col_offsets, numerator / denominator, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        n_rows, n_cols = x.shape
        y = torch.empty_like(x)
        softmax_kernel[(n_rows,)](y, x, x.stride(0), y.stride(0), n_cols,
                                  BLOCK_SIZE=triton.next_power_of_2(n_cols), num_warps=8)
        return y
