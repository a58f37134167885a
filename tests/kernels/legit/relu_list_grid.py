# task: level1/19_ReLU
# expect: ok
# why: a launch grid given as a list (Triton takes any sequence on a GPU) failed in the interpreter
#      (false-rejection probe 8)
# ReLU with the launch grid given as a list (Triton's launcher indexes it; any sequence works on GPU).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        grid = [triton.cdiv(n, 1024)]
        relu_kernel[grid](x, y, n, BLOCK=1024)
        return y
