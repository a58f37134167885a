# task: level1/23_Softmax
# expect: ok
# why: online softmax with tl.reduce and a custom @triton.jit combine (max; over per-32 maxima from
#      tl.reshape), tl.full, tl.where,
#      annotated ints in the kernel signature (n_cols: int), out copied in with .copy_ into a
#      torch.zeros_like buffer that was .zero_()'d and .fill_()'d first
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def softmax_online_kernel(x_ptr, y_ptr, n_cols: int, row_stride: int, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * row_stride
    m = tl.full((), float("-inf"), tl.float32)
    s = tl.full((), 0.0, tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf"))
        # tl.max over stretches of 32 first: the interpreter runs a custom combine once per
        # element (4096 a row made this test's correctness stage ~39 s on the 2-core host)
        part = tl.max(tl.reshape(x, (BLOCK // 32, 32)), axis=1)
        m_new = tl.maximum(m, tl.reduce(part, 0, _max_combine))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf"))
        tl.store(y_ptr + row * row_stride + cols, tl.exp(x - m) / s, mask=cols < n_cols)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n_rows, n_cols = x.shape
        tmp = torch.empty_like(x)
        softmax_online_kernel[(n_rows,)](x, tmp, n_cols, x.stride(0), BLOCK=1024)
        out = torch.zeros_like(x)
        out.zero_()
        out.fill_(0.0)
        out.copy_(tmp)
        return out
