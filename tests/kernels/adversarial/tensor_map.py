# task: level1/19_ReLU
# expect: forbidden_op
# expect_gpu: rejected
# why: Tensor.map_ runs a Python callable per element without reaching the dispatcher
# Exploit: Tensor.map_ runs Python on pairs of elements without reaching the dispatcher.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def zero_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], tl.float32), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        n = out.numel()
        zero_kernel[(triton.cdiv(n, 1024),)](out, n, BLOCK=1024)
        out.map_(x, lambda o, v: max(v, 0.0))
        return out
