# task: level1/29_Softplus
# expect: non_finite
# found: red-team pass 91 (session 45; scored 0.3 on the cpu evaluator before)
# why: softplus as log(1 + e^x): inf beyond x = 88.7, where torch returns x. Caught by the wider
#      signed trial.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softplus_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, tl.log(1.0 + tl.exp(x)), mask=m)   # inf for x > 88.7 (torch: x)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        softplus_kernel[(triton.cdiv(n, 4096),)](x, y, n, BLOCK=4096)
        return y
