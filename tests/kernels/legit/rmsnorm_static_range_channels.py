# task: level1/36_RMSNorm_
# expect: ok
# why: RMS over dim 1 with the channel count as a constexpr and tl.static_range unrolling it,
#      eps from self passed as float, x ** 2 done in the kernel, x.stride(i) for every dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, y_ptr, S, stride_b, stride_c, eps,
                   C: tl.constexpr, BLOCK_S: tl.constexpr):
    b = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK_S + tl.arange(0, BLOCK_S)
    mask = offs < S
    base = x_ptr + b * stride_b + offs
    ss = tl.zeros((BLOCK_S,), dtype=tl.float32)
    for c in tl.static_range(C):
        v = tl.load(base + c * stride_c, mask=mask, other=0.0)
        ss += v * v
    inv = 1.0 / tl.sqrt(ss / C + eps)
    for c in tl.static_range(C):
        v = tl.load(base + c * stride_c, mask=mask, other=0.0)
        tl.store(y_ptr + b * stride_b + c * stride_c + offs, v * inv, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, C = x.size(0), x.size(1)
        S = x.numel() // (B * C)
        y = torch.empty_like(x)
        BLOCK_S = 256
        rmsnorm_kernel[(B, triton.cdiv(S, BLOCK_S))](x, y, S, x.stride(0), x.stride(1), self.eps,
                                                     C=self.num_features, BLOCK_S=BLOCK_S)
        return y
