# task: level1/36_RMSNorm_
# expect: ok
# why: tl.rsqrt, tl.fma, tl.clamp and tl.cast in the body; the grid a named `def grid(meta)`
#      function; a 3-tuple grid (n, 1, 1); kernel parameters annotated `S: tl.int32`
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rms_kernel(x_ptr, y_ptr, C, S: tl.int32, eps, BLOCK_S: tl.constexpr):
    pid = tl.program_id(0)
    n_sblocks = tl.cdiv(S, BLOCK_S)
    b = pid // n_sblocks
    s = (pid % n_sblocks) * BLOCK_S + tl.arange(0, BLOCK_S)
    m = s < S
    base = x_ptr + b * C * S + s
    acc = tl.zeros((BLOCK_S,), dtype=tl.float32)
    for c in range(C):
        v = tl.cast(tl.load(base + c * S, mask=m, other=0.0), tl.float32)
        acc = tl.fma(v, v, acc)
    inv = tl.rsqrt(tl.clamp(acc / C + eps, 1e-30, 3.0e38))
    for c in range(C):
        v = tl.load(base + c * S, mask=m, other=0.0)
        tl.store(y_ptr + b * C * S + c * S + s, v * inv, mask=m)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, C = x.shape[:2]
        S = x[0, 0].numel()
        y = torch.empty_like(x)

        def grid(meta):
            return (B * triton.cdiv(S, meta["BLOCK_S"]), 1, 1)

        rms_kernel[grid](x, y, C, S, self.eps, BLOCK_S=512)
        return y
