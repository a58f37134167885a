# task: level1/21_Sigmoid
# expect: ok
# why: a numerically stable sigmoid whose sign branch goes through a torch.bool buffer, stored from tl.where(x >= 0, 1, 0) and loaded with other=0 (int32 literals that Triton narrows to the bool pointer's bytes, arith.trunci i32 -> i8)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sign_kernel(x_ptr, s_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    tl.store(s_ptr + offs, tl.where(x >= 0, 1, 0), mask=ok)


@triton.jit
def sigmoid_kernel(x_ptr, s_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    nonneg = tl.load(s_ptr + offs, mask=ok, other=0)
    z = tl.exp(-tl.abs(x))
    y = tl.where(nonneg, 1.0 / (1.0 + z), z / (1.0 + z))
    tl.store(out_ptr + offs, y, mask=ok)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n = x.numel()
        s = torch.empty(x.shape, dtype=torch.bool, device=x.device)
        out = torch.empty_like(x)
        BLOCK = 1024
        grid = (triton.cdiv(n, BLOCK),)
        sign_kernel[grid](x, s, n, BLOCK=BLOCK)
        sigmoid_kernel[grid](x, s, out, n, BLOCK=BLOCK)
        return out
