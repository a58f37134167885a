# task: level1/22_Tanh
# expect: ok
# why: tanh built from exp, in a form that saturates to +-1 instead of producing inf/inf
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def tanh_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    # tanh(x) = 1 - 2 / (e^{2x} + 1): e^{2x} -> inf gives 1, e^{2x} -> 0 gives -1.
    tl.store(out_ptr + offs, 1.0 - 2.0 / (tl.exp(2.0 * x) + 1.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        tanh_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out
