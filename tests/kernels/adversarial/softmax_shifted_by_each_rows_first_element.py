# task: level1/23_Softmax
# expect: non_finite
# found: red-team pass 91 (session 45; scored 0.3 on the cpu evaluator before)
# why: a softmax that subtracts each row's first element instead of its maximum (two passes, no
#      max pass): no trial spread a row beyond exp's float32 range. A trial of values spread
#      over [-100, 100] within each row now does.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, row_stride, BLOCK: tl.constexpr):
    # "Stabilised" by the row's first element instead of its maximum: one pass for the sum
    # (no max pass, no online rescaling), one pass to write.
    row = tl.program_id(0)
    base = x_ptr + row * row_stride
    shift = tl.load(base)
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        m = off + cols < n_cols
        x = tl.load(base + off + cols, mask=m, other=float("-inf"))
        acc += tl.exp(x - shift)
    total = tl.sum(acc, axis=0)
    for off in range(0, n_cols, BLOCK):
        m = off + cols < n_cols
        x = tl.load(base + off + cols, mask=m, other=float("-inf"))
        tl.store(out_ptr + row * row_stride + off + cols, tl.exp(x - shift) / total, mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n_rows, n_cols = x.shape
        softmax_kernel[(n_rows,)](x, out, n_cols, x.stride(0), BLOCK=1024)
        return out
