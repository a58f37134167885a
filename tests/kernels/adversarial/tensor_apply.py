# task: level1/19_ReLU
# expect: forbidden_op
# expect_gpu: rejected
# why: Tensor.apply_ runs a Python callable per element without reaching the dispatcher
# Exploit: Tensor.apply_ runs a Python callable per element without reaching the dispatcher.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        out.apply_(lambda v: v if v > 0 else 0.0)
        return out
