# task: level1/19_ReLU
# expect: format_violation
# found: red-team pass 35 on the cpu evaluator (session 16; its conv version scored 0.3)
# why: a helper's parameter passed a literal is a compile-time constant on a GPU, and Triton's
#      compiler drops an update of it inside a branch on a run-time value, so this kernel would
#      store zeros there; the interpreter keeps the update as a Python number and the answer
#      came out right (the conv version rebuilt every float bit by bit this way). Rebinding a
#      compile-time parameter under run-time control flow is refused.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_one(v, r):
    if v > 0:
        r += v
    return r


@triton.jit
def relu_kernel(x_ptr, out_ptr, n):
    for j in range(0, n):
        tl.store(out_ptr + j, relu_one(tl.load(x_ptr + j), 0.0))


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        relu_kernel[(1,)](x, out, x.numel())
        return out
