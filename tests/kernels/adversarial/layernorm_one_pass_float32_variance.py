# task: level1/40_LayerNorm
# expect: rejected
# (output_mismatch, or non_finite where the cancelled variance turns negative)
# found: red-team pass 91 (session 45; scored 0.3 on the cpu evaluator before)
# why: LayerNorm with the variance as E[x^2] - mean^2 in float32 (one read pass less): it cancels
#      when |mean| is far above the spread, which no trial had. The task's own values plus 1000
#      are now a trial for the mean-subtracting normalisations.
import math
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ln_kernel(X, Y, W, Bs, N, eps, BLOCK: tl.constexpr):
    # one read for the statistics: var = E[x^2] - mean^2 in float32 (catastrophic cancellation
    # when |mean| >> std), eps kept
    row = tl.program_id(0)
    X += row * N
    Y += row * N
    cols = tl.arange(0, BLOCK)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    s2 = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        m = off + cols < N
        x = tl.load(X + off + cols, mask=m, other=0.0)
        s += x
        s2 += x * x
    mean = tl.sum(s, axis=0) / N
    var = tl.maximum(tl.sum(s2, axis=0) / N - mean * mean, 0.0)
    rstd = 1.0 / tl.sqrt(var + eps)
    for off in range(0, N, BLOCK):
        m = off + cols < N
        x = tl.load(X + off + cols, mask=m, other=0.0)
        w = tl.load(W + off + cols, mask=m, other=0.0)
        b = tl.load(Bs + off + cols, mask=m, other=0.0)
        tl.store(Y + off + cols, (x - mean) * rstd * w + b, mask=m)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        N = math.prod(self.ln.normalized_shape)
        x2 = x.contiguous().view(-1, N)
        y = torch.empty_like(x2)
        ln_kernel[(x2.shape[0],)](x2, y, self.ln.weight, self.ln.bias, N, self.ln.eps, BLOCK=1024)
        return y.view(x.shape)
