# task: level1/23_Softmax
# expect: ok
# why: quoted type annotations ("torch.Tensor")
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def online_softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = tl.full((BLOCK,), -float("inf"), dtype=tl.float32)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for c in range(0, n_cols, BLOCK):
        x = tl.load(x_ptr + row * stride + c + cols, mask=c + cols < n_cols, other=-float("inf"))
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.where(x == -float("inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    row_max = tl.max(m, axis=0)
    denom = tl.sum(s * tl.exp(m - row_max), axis=0)
    for c in range(0, n_cols, BLOCK):
        msk = c + cols < n_cols
        x = tl.load(x_ptr + row * stride + c + cols, mask=msk, other=-float("inf"))
        tl.store(y_ptr + row * stride + c + cols, tl.exp(x - row_max) / denom, mask=msk)


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, x: "torch.Tensor") -> "torch.Tensor":
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        online_softmax_kernel[(rows,)](x, y, cols, x.stride(0), BLOCK=1024)
        return y
