# task: level1/22_Tanh
# expect: ok
# expect_cpu: runtime_error
# says: driver:
# why: an unconditional torch.cuda.synchronize() after the launch (common in LLM submissions;
#      cannot run on the cpu evaluator, which has no CUDA driver)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def tanh_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    e = tl.exp(-2.0 * tl.abs(x))
    t = (1.0 - e) / (1.0 + e)
    tl.store(y_ptr + offs, tl.where(x >= 0, t, -t), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        tanh_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        torch.cuda.synchronize()
        return y
