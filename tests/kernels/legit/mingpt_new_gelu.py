# task: level1/88_MinGPTNewGelu
# expect: ok
# why: fuses minGPT's five elementwise ops into one pass; tanh is built from exp
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def new_gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)  # sqrt(2/pi) * (x + 0.044715 x^3)
    # tanh(u) = sign(u) * (1 - e^{-2|u|}) / (1 + e^{-2|u|}): the exp never overflows (u ~ x^3).
    e = tl.exp(-2.0 * tl.abs(u))
    t = (1.0 - e) / (1.0 + e)
    t = tl.where(u < 0, -t, t)
    tl.store(out_ptr + offs, 0.5 * x * (1.0 + t), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        new_gelu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out
