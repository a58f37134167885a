# task: level1/31_ELU
# expect: ok
# why: elementwise kernel with a branch on the sign and an exp on the negative side
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def elu_kernel(x_ptr, out_ptr, n_elements, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    # Clamp the exp argument at 0 so the unused branch cannot overflow for large positive x.
    neg = alpha * (tl.exp(tl.minimum(x, 0.0)) - 1.0)
    tl.store(out_ptr + offs, tl.where(x > 0, x, neg), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float = 1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        elu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, self.alpha, BLOCK=BLOCK)
        return out
