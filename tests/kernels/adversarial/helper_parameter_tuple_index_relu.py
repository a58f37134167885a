# task: level1/19_ReLU
# expect: format_violation
# found: red-team pass 34 on the cpu evaluator (session 16)
# why: a jit helper indexes a tuple by a parameter (`pick(t, i)`) that the kernel passes
#      `v > 0` of a loaded value; Triton compiles a helper's tuple index only when the call passes
#      a compile-time value: every subscript in a kernel body must be one
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def pick(t, i):
    return t[i]


@triton.jit
def relu_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    base = tl.program_id(0) * BLOCK
    for j in range(0, BLOCK):
        v = tl.load(x_ptr + base + j)
        tl.store(out_ptr + base + j, pick((0.0, v), v > 0))


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        relu_kernel[(x.numel() // 1024,)](x, out, BLOCK=1024)
        return out

