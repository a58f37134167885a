# task: level1/40_LayerNorm
# expect: ok
# why: one program per row of normalized_shape elements, three passes (mean, variance, affine);
#      the two-pass variance avoids the cancellation of E[x^2] - E[x]^2
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def layer_norm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, N, eps, BLOCK: tl.constexpr):
    row = x_ptr + tl.program_id(0) * N
    out_row = out_ptr + tl.program_id(0) * N
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for c in range(0, N, BLOCK):
        acc += tl.load(row + c + cols, mask=c + cols < N, other=0.0)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for c in range(0, N, BLOCK):
        x = tl.load(row + c + cols, mask=c + cols < N, other=0.0)
        d = tl.where(c + cols < N, x - mean, 0.0)
        acc += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)  # biased variance, as nn.LayerNorm
    for c in range(0, N, BLOCK):
        mask = c + cols < N
        x = tl.load(row + c + cols, mask=mask)
        w = tl.load(w_ptr + c + cols, mask=mask)
        b = tl.load(b_ptr + c + cols, mask=mask)
        tl.store(out_row + c + cols, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N = math.prod(self.ln.normalized_shape)
        out = torch.empty_like(x)
        layer_norm_kernel[(x.numel() // N,)](x, self.ln.weight, self.ln.bias, out, N, self.ln.eps, BLOCK=1024)
        return out
