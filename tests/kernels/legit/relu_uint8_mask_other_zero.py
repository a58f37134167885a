# task: level1/19_ReLU
# expect: ok
# why: a comparison stored as a uint8 byte mask, read back with tl.load(..., other=0): the int32 literal 0 is narrowed to the pointer's byte type (arith.trunci i32 -> i8), as in any masked load of a byte tensor
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mask_kernel(x_ptr, m_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    tl.store(m_ptr + offs, (x > 0).to(tl.uint8), mask=ok)


@triton.jit
def apply_kernel(x_ptr, m_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    m = tl.load(m_ptr + offs, mask=ok, other=0)  # the masked-off lanes' value, an int32 literal
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
