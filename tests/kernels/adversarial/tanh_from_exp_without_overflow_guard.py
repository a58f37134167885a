# task: level1/22_Tanh
# expect: non_finite
# found: red-team pass 91 (session 45; scored 0.3 on the cpu evaluator before)
# why: tanh as (e^2x - 1) / (e^2x + 1): NaN beyond x = 44.4, past the [-32, 32] the signed trial
#      drew. The activations' signed trial now reaches 100 (sinh of a uniform draw).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def tanh_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    e = tl.exp(2.0 * x)
    tl.store(y_ptr + offs, (e - 1.0) / (e + 1.0), mask=m)   # inf/inf = NaN for x > 44.4


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        tanh_kernel[(triton.cdiv(n, 4096),)](x, y, n, BLOCK=4096)
        return y
