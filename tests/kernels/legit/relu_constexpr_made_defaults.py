# task: level1/19_ReLU
# expect: ok
# why: red-team pass 66 (false-rejection guard): defaults made again by the interpreter's rewrite
#      (`tl.constexpr(1024)`, a dtype, `float("-inf")`, a tuple) equal the `def`'s, so they pass
#      guard._defaults_as_defined.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr = tl.constexpr(1024), DT: tl.constexpr = tl.float32,
                EPS: tl.constexpr = float("-inf"), T: tl.constexpr = (1, 2)):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0).to(DT), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n)
        return y
