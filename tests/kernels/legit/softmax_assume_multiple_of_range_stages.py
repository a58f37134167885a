# task: level1/23_Softmax
# expect: ok
# why: compiler hints a Hopper kernel carries: tl.assume on the sizes and strides,
#      tl.multiple_of / tl.max_contiguous on the column offsets, a row loop over
#      tl.range(..., num_stages=2, loop_unroll_factor=2, disallow_acc_multi_buffer=True), online
#      max/sum in float32, launch options num_warps/num_stages/num_ctas/maxnreg
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr):
    tl.assume(n_rows > 0)
    tl.assume(n_cols > 0)
    tl.assume(stride >= n_cols)
    row = tl.program_id(0)
    base = row.to(tl.int64) * stride
    m = tl.full((BLOCK,), float("-inf"), tl.float32)
    s = tl.zeros((BLOCK,), tl.float32)
    for c0 in tl.range(0, n_cols, BLOCK, num_stages=2, loop_unroll_factor=2, disallow_acc_multi_buffer=True):
        cols = tl.max_contiguous(tl.multiple_of(c0 + tl.arange(0, BLOCK), BLOCK), BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < n_cols, other=float("-inf"))
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.where(x == float("-inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(s * tl.exp(m - row_max), axis=0)
    for c0 in tl.range(0, n_cols, BLOCK, num_stages=2):
        cols = tl.max_contiguous(tl.multiple_of(c0 + tl.arange(0, BLOCK), BLOCK), BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < n_cols, other=float("-inf"))
        tl.store(y_ptr + base + cols, tl.exp(x - row_max) / total, mask=cols < n_cols)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n_rows, n_cols = x.shape
        y = torch.empty_like(x)
        softmax_kernel[(n_rows,)](x, y, n_rows, n_cols, x.stride(0), BLOCK=1024,
                                  num_warps=8, num_stages=2, num_ctas=1, maxnreg=128)
        return y
