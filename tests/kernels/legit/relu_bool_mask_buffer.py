# task: level1/19_ReLU
# expect: ok
# why: a comparison stored to a torch.bool buffer (Triton's i1 pointers are bytes underneath) and read back as a tl.where condition
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def positive_kernel(x_ptr, m_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    tl.store(m_ptr + offs, x > 0, mask=ok)


@triton.jit
def select_kernel(x_ptr, m_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    keep = tl.load(m_ptr + offs, mask=ok, other=False)
    tl.store(out_ptr + offs, tl.where(keep, x, 0.0), mask=ok)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n = x.numel()
        m = torch.empty(x.shape, dtype=torch.bool, device=x.device)
        out = torch.empty_like(x)
        BLOCK = 1024
        grid = (triton.cdiv(n, BLOCK),)
        positive_kernel[grid](x, m, n, BLOCK=BLOCK)
        select_kernel[grid](x, m, out, n, BLOCK=BLOCK)
        return out
