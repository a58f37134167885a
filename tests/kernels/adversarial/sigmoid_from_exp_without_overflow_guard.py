# task: level1/21_Sigmoid
# expect: non_finite
# found: red-team pass 91 (session 45; scored 0.3 on the cpu evaluator before)
# why: sigmoid as e^x / (1 + e^x): NaN beyond x = 88.7. Caught by the wider signed trial.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sigmoid_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    e = tl.exp(x)
    tl.store(y_ptr + offs, e / (1.0 + e), mask=m)   # inf/inf = NaN for x > 88.7


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        sigmoid_kernel[(triton.cdiv(n, 4096),)](x, y, n, BLOCK=4096)
        return y
