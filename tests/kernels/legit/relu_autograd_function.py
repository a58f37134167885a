# task: level1/19_ReLU
# expect: ok
# why: the torch.autograd.Function wrapper LLMs write around a Triton kernel (ctx.save_for_backward,
#      a backward kernel too), called as TritonReLU.apply(x); @torch.no_grad() is NOT used
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_fwd_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.where(x > 0, x, 0.0), mask=m)


@triton.jit
def relu_bwd_kernel(x_ptr, g_ptr, dx_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    g = tl.load(g_ptr + offs, mask=m)
    tl.store(dx_ptr + offs, tl.where(x > 0, g, 0.0), mask=m)


class TritonReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        relu_fwd_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        ctx.save_for_backward(x)
        return y

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        grad_out = grad_out.contiguous()
        dx = torch.empty_like(x)
        n = x.numel()
        relu_bwd_kernel[(triton.cdiv(n, 1024),)](x, grad_out, dx, n, BLOCK=1024)
        return dx


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return TritonReLU.apply(x)
