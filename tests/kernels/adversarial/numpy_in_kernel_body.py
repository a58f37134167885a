# task: level1/19_ReLU
# expect: format_violation
# why: computes with numpy on the interpreter's arrays (.handle.data) inside the kernel body
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x_ptr + offs, mask=mask)
    v.handle.data = v.handle.data.clip(0)
    tl.store(out_ptr + offs, v, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        k[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out
