# task: level1/26_GELU_
# expect: ok
# why: exact GELU written with the tensor method x.erf() (Triton registers erf as a tensor member)
#      (session 44's honest sweep: a compile error on the cpu evaluator before front_end marked
#      Triton's tensor-method math as the builtins it forwards to)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = 0.5 * x * (1.0 + (x * 0.7071067811865476).erf())
    tl.store(y_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        gelu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
        return y
