# task: level1/23_Softmax
# expect: non_finite
# says: row
# found: red-team pass 48 (session 20; scored 0.3 on the cpu evaluator before)
# why: a softmax that never subtracts its row's maximum: exp overflows to inf (and the row to
#      NaN) for inputs above ~88.7, which neither the task's [0, 1) inputs nor the other trials
#      (at most 20) reach. A realistic bug, not a speed trick, but a reward for it teaches it:
#      softmax tasks now get one trial of rows shifted by 100 to 160.
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
    e = tl.exp(x)  # no max subtraction: overflows (NaN) for inputs above ~88
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
