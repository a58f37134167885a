# task: level1/20_LeakyReLU
# expect: ok
# why: a float32 kernel with a local variable named bf16 (the below-zero branch, x * slope): TTIR names SSA values after the source's variables (%bf16), which is not a bfloat16 type
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_kernel(x_ptr, out_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    bf16 = x * slope  # "below-zero branch", float32 (TTIR: %bf16 = tt.splat %slope, then arith.mulf %x, %bf16)
    tl.store(out_ptr + offs, tl.where(x > 0, x, bf16), mask=ok)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        leaky_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, self.negative_slope, BLOCK=BLOCK)
        return out
