# task: level1/19_ReLU
# expect: ok
# why: picks one of two kernels into a variable and launches it
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel_even(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs), 0.0))


@triton.jit
def relu_kernel_masked(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m), 0.0), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        grid = (triton.cdiv(n, BLOCK),)
        if n % BLOCK == 0:
            kernel, args = relu_kernel_even, (x, y)
        else:
            kernel, args = relu_kernel_masked, (x, y, n)
        kernel[grid](*args, BLOCK=BLOCK)
        return y
