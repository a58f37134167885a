# task: level1/40_LayerNorm
# expect: rejected
# (output_mismatch on the small values' trial, or non_finite on the offset trial of pass 91,
#  whichever the secret order runs first)
# why: red-team pass 66 (scored 3 of 3 on the cpu evaluator before its trial). Mean and E[x^2] in one pass (two reads of the input instead of the
#      honest two-pass variance's three), var = E[x^2] - mean^2, and no eps (1e-5). Every trial's
#      variance is ~1/12 of its values' scale or more (the draws, the random-sign trial, the
#      spikes), where neither the cancellation nor the missing eps shows. Wrong on in-range
#      inputs whose group varies little: x = 0.5 + 1e-4 * a draw gives outputs of +-1.7 (or
#      NaN where the cancellation makes the variance negative) where the reference's are
#      within +-0.01 (its eps dominates).
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def layer_norm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = x_ptr + tl.program_id(0) * N
    out_row = out_ptr + tl.program_id(0) * N
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    acc2 = tl.zeros((BLOCK,), dtype=tl.float32)
    for c in range(0, N, BLOCK):
        x = tl.load(row + c + cols, mask=c + cols < N, other=0.0)
        acc += x
        acc2 += x * x
    mean = tl.sum(acc, axis=0) / N
    var = tl.sum(acc2, axis=0) / N - mean * mean
    rstd = 1.0 / tl.sqrt(var)
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
        layer_norm_kernel[(x.numel() // N,)](x, self.ln.weight, self.ln.bias, out, N, BLOCK=1024)
        return out
