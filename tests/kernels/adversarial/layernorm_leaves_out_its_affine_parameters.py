# task: level1/40_LayerNorm
# expect: output_mismatch
# found: red-team pass 91 (session 45; scored 0.3 on the cpu evaluator before)
# why: a LayerNorm kernel that normalises but never applies the layer's weight and bias: they start
#      at 1 and 0 in both models (same seed), so every trial matched. The reference's constant
#      parameters now get random values (the same in both models) before the trials
#      (varied_parameters.py).
import math
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ln_kernel(X, Y, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    X += row * N
    Y += row * N
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        m = off + cols < N
        acc += tl.load(X + off + cols, mask=m, other=0.0)
    mean = tl.sum(acc, axis=0) / N
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        m = off + cols < N
        d = tl.where(m, tl.load(X + off + cols, mask=m, other=0.0) - mean, 0.0)
        acc2 += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc2, axis=0) / N + eps)
    for off in range(0, N, BLOCK):
        m = off + cols < N
        x = tl.load(X + off + cols, mask=m, other=0.0)
        tl.store(Y + off + cols, (x - mean) * rstd, mask=m)   # weight and bias never applied


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)  # parameters kept, unused

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        N = math.prod(self.ln.normalized_shape)
        x2 = x.contiguous().view(-1, N)
        y = torch.empty_like(x2)
        ln_kernel[(x2.shape[0],)](x2, y, N, self.ln.eps, BLOCK=1024)
        return y.view(x.shape)
