# task: level1/23_Softmax
# expect: ok
# why: `if x.dim() == 2` branching, x.size(-1), x.stride(0), triton.next_power_of_2 for the block,
#      torch.cuda.is_available() to pick num_warps, a helper @triton.jit max-subtracting exp
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _stable_exp(x, row_max):
    return tl.exp(x - row_max)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = in_ptr + row_idx * in_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    row = tl.load(row_start_ptr + col_offsets, mask=mask, other=-float("inf"))
    row_max = tl.max(row, axis=0)
    numerator = _stable_exp(row, row_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    tl.store(out_ptr + row_idx * out_row_stride + col_offsets, softmax_output, mask=mask)


def softmax(x: torch.Tensor) -> torch.Tensor:
    if x.dim() == 2:
        x2d = x
    else:
        x2d = x.reshape(-1, x.size(-1))
    if x2d.stride(-1) != 1:
        x2d = x2d.contiguous()
    n_rows, n_cols = x2d.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 8 if torch.cuda.is_available() and BLOCK_SIZE >= 2048 else 4
    y = torch.empty_like(x2d)
    softmax_kernel[(n_rows,)](y, x2d, x2d.stride(0), y.stride(0), n_cols,
                              BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return y.view(x.shape)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax(x)
