# task: level1/40_LayerNorm
# expect: ok
# why: tensor-method math in the kernel: (var + eps).rsqrt() and x.exp2-free; otherwise a plain
#      one-row-per-program LayerNorm reading nn.LayerNorm's parameters
#      (session 44's honest sweep: a compile error on the cpu evaluator before front_end marked
#      Triton's tensor-method math as the builtins it forwards to)
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ln_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=m, other=0.0)
    mean = x.sum(axis=0) / N
    d = tl.where(m, x - mean, 0.0)
    rstd = ((d * d).sum(axis=0) / N + eps).rsqrt()
    y = d * rstd * tl.load(w_ptr + cols, mask=m) + tl.load(b_ptr + cols, mask=m)
    tl.store(y_ptr + row * N + cols, y, mask=m)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape)

    def forward(self, x):
        N = math.prod(self.ln.normalized_shape)
        x2 = x.contiguous().view(-1, N)
        y = torch.empty_like(x2)
        ln_kernel[(x2.shape[0],)](x2, self.ln.weight, self.ln.bias, y, N, self.ln.eps, BLOCK=triton.next_power_of_2(N))
        return y.view_as(x)
