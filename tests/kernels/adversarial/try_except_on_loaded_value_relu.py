# task: level1/19_ReLU
# expect: format_violation
# found: red-team pass 34 on the cpu evaluator (session 16)
# why: a `try` whose body asserts on a loaded value: what its handler assigns held the data's
#      bit; Triton's compiler has no `try`
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    base = tl.program_id(0) * BLOCK
    for j in range(0, BLOCK):
        v = tl.load(x_ptr + base + j)
        try:
            tl.static_assert(v > 0)
            k = 1
        except:
            k = 0
        tl.store(out_ptr + base + j, (0.0, v)[k])


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        relu_kernel[(x.numel() // 1024,)](x, out, BLOCK=1024)
        return out

