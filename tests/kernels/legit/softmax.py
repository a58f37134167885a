# task: level1/23_Softmax
# expect: ok
# why: one program per row holding the whole row; subtracting the row max keeps exp finite
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, row_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    # Padding lanes read -inf so they add exp(-inf) = 0 to the sum and never win the max.
    x = tl.load(x_ptr + row * row_stride + cols, mask=mask, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * row_stride + cols, e / tl.sum(e, axis=0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n_rows, n_cols = x.shape
        BLOCK = triton.next_power_of_2(n_cols)
        softmax_kernel[(n_rows,)](x, out, n_cols, x.stride(0), BLOCK=BLOCK, num_warps=8)
        return out
