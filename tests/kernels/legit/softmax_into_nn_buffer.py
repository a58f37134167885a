# task: level1/23_Softmax
# expect: ok
# why: writes into a preallocated nn.Buffer, whose marks (_is_buffer, persistent) the state check took for attached Python state on the cpu evaluator
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, row_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * row_stride + cols, mask=mask, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.out = nn.Buffer(torch.empty(16, 4096), persistent=False)

    def forward(self, x):
        x = x.contiguous()
        n_rows, n_cols = x.shape
        out = self.out[:n_rows]
        softmax_kernel[(n_rows,)](x, out, n_cols, x.stride(0), BLOCK=triton.next_power_of_2(n_cols))
        return out
