# task: level1/19_ReLU
# expect: ok
# why: two passes through a byte mask buffer (uint8): an int32 0/1 from tl.where stored into a byte (tl.store narrows it, arith.trunci i32 -> i8) is a mask, not a quantised float
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mask_kernel(x_ptr, m_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    tl.store(m_ptr + offs, tl.where(x > 0, 1, 0), mask=ok)  # int32 0/1 into a uint8 buffer


@triton.jit
def apply_kernel(x_ptr, m_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    m = tl.load(m_ptr + offs, mask=ok)
    tl.store(out_ptr + offs, x * m.to(tl.float32), mask=ok)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n = x.numel()
        m = torch.empty(x.shape, dtype=torch.uint8, device=x.device)
        out = torch.empty_like(x)
        BLOCK = 1024
        grid = (triton.cdiv(n, BLOCK),)
        mask_kernel[grid](x, m, n, BLOCK=BLOCK)
        apply_kernel[grid](x, m, out, n, BLOCK=BLOCK)
        return out
