# task: level1/36_RMSNorm_
# expect: output_mismatch
# found: red-team pass 92 (session 45; scored 0.3 on the cpu evaluator before)
# why: RMSNorm squaring in float16: inf (and a group of zeros) once |x| >= 256, which no trial
#      reached (values within 4). The normalisations, sums and means now get a trial of the
#      task's own values scaled by 1e4.
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, C, S, eps, BLOCK_S: tl.constexpr):
    b = tl.program_id(0)
    s = tl.program_id(1) * BLOCK_S + tl.arange(0, BLOCK_S)
    mask = s < S
    base = b * C * S
    acc = tl.zeros((BLOCK_S,), dtype=tl.float32)
    for c in range(C):
        x = tl.load(x_ptr + base + c * S + s, mask=mask, other=0.0)
        h = x.to(tl.float16)
        acc += (h * h).to(tl.float32)   # squares in half precision
    inv_rms = 1.0 / tl.sqrt(acc / C + eps)
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
        rms_norm_kernel[(B, triton.cdiv(S, BLOCK_S))](x, out, C, S, self.eps, BLOCK_S=BLOCK_S)
        return out
