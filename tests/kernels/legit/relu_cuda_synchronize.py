# task: level1/19_ReLU
# expect: ok
# why: torch.cuda.synchronize() after the launch, guarded by `if x.is_cuda:` (LLM habit); x.float()
#      and .to(x.dtype) no-op conversions on float32 input; math.ceil grid; kernel-arg keywords
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(in_ptr, out_ptr, numel, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    m = offs < numel
    v = tl.load(in_ptr + offs, mask=m)
    tl.store(out_ptr + offs, tl.where(v > 0.0, v, tl.zeros_like(v)), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.float().contiguous()
        out = torch.empty_like(x, memory_format=torch.contiguous_format)
        n = x.numel()
        grid = (math.ceil(n / 1024),)
        relu_kernel[grid](in_ptr=x, out_ptr=out, numel=n, BLOCK_SIZE=1024)
        if x.is_cuda:
            torch.cuda.synchronize()
        return out.to(x.dtype)
