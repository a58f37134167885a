# task: level1/19_ReLU
# expect: compile_error
# found: red-team pass 36 (session 17)
# why: a tl.reduce combine with `b: tl.constexpr`: the static rules read `b` as a compile-time
#      value (so `int(b)` passes them), but neither the compiler nor the interpreter enforces
#      the annotation for a combine and both give it the data; the interpreter ran `int(b > 0)`
#      as host Python on each element. A GPU refuses `int()` of a block; the cpu evaluator now
#      refuses a run-time block given to a `tl.constexpr` parameter, at the call.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def comb(a, b: tl.constexpr):
    return a * 0.0 + (b if int(b > 0) else 0.0)


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    r = tl.reduce(tl.join(x * 0.0, x), 1, comb)
    tl.store(out_ptr + offs, r, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out
