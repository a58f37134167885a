# task: level1/19_ReLU
# expect: ok
# why: the file's own @triton.jit function passed as a constexpr and called in the body (false-rejection probe 3)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu(x):
    return tl.maximum(x, 0.0)


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, ACT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = ACT(x)
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, ACT=relu, BLOCK=1024)
        return y
