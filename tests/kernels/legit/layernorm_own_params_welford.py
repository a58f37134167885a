# task: level1/40_LayerNorm
# expect: ok
# why: own nn.Parameter(torch.ones(...)) / torch.zeros(...) affine params (what nn.LayerNorm
#      initialises), eps constant, math.prod of normalized_shape, x.view(-1, N) then
#      out.view(original shape); a chunked Welford-style (sum, sum of squared deviations) merge
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ln_fwd_kernel(X, Y, Wt, Bs, stride, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    cols = tl.arange(0, BLOCK_N)
    mean = 0.0
    m2 = 0.0
    count = 0.0
    for off in range(0, N, BLOCK_N):
        mask = off + cols < N
        x = tl.load(X + off + cols, mask=mask, other=0.0).to(tl.float32)
        n_b = tl.sum(mask.to(tl.float32), axis=0)
        mean_b = tl.sum(x, axis=0) / n_b
        d = tl.where(mask, x - mean_b, 0.0)
        m2_b = tl.sum(d * d, axis=0)
        delta = mean_b - mean
        tot = count + n_b
        mean = mean + delta * n_b / tot
        m2 = m2 + m2_b + delta * delta * count * n_b / tot
        count = tot
    rstd = 1.0 / tl.sqrt(m2 / N + eps)
    for off in range(0, N, BLOCK_N):
        mask = off + cols < N
        x = tl.load(X + off + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(Wt + off + cols, mask=mask)
        b = tl.load(Bs + off + cols, mask=mask)
        tl.store(Y + off + cols, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.normalized_shape = tuple(normalized_shape)
        self.eps = 1e-5
        self.weight = nn.Parameter(torch.ones(self.normalized_shape))
        self.bias = nn.Parameter(torch.zeros(self.normalized_shape))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        orig_shape = x.shape
        N = math.prod(self.normalized_shape)
        x2 = x.reshape(-1, N)
        if not x2.is_contiguous():
            x2 = x2.contiguous()
        y = torch.empty_like(x2)
        ln_fwd_kernel[(x2.shape[0],)](x2, y, self.weight, self.bias, x2.stride(0), N, self.eps,
                                      BLOCK_N=min(4096, triton.next_power_of_2(N)))
        return y.view(orig_shape)
