# task: level1/36_RMSNorm_
# expect: output_mismatch
# why: red-team pass 66 (scored 3 of 3 on the cpu evaluator before its trial). x / sqrt(mean(x^2)) without the reference's eps (1e-5). Every trial's
#      mean square is ~1/3 (the draws) or more (the random-sign trial, 16x): eps moves the
#      output by ~1.5e-5 of itself there. Wrong on in-range inputs of small size: x = 1e-4 * a
#      draw gives ~1.7 where the reference gives ~0.03 (error ~160x the tolerance).
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, C, S, BLOCK_S: tl.constexpr):
    b = tl.program_id(0)
    s = tl.program_id(1) * BLOCK_S + tl.arange(0, BLOCK_S)
    mask = s < S
    base = b * C * S
    acc = tl.zeros((BLOCK_S,), dtype=tl.float32)
    for c in range(C):
        x = tl.load(x_ptr + base + c * S + s, mask=mask, other=0.0)
        acc += x * x
    inv_rms = 1.0 / tl.sqrt(acc / C)
    for c in range(C):
        x = tl.load(x_ptr + base + c * S + s, mask=mask)
        tl.store(out_ptr + base + c * S + s, x * inv_rms, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, C = x.shape[0], x.shape[1]
        S = math.prod(x.shape[2:])
        out = torch.empty_like(x)
        BLOCK_S = 256
        rms_norm_kernel[(B, triton.cdiv(S, BLOCK_S))](x, out, C, S, BLOCK_S=BLOCK_S)
        return out
