# task: level1/19_ReLU
# expect: format_violation
# found: red-team pass 34 on the cpu evaluator (session 16)
# why: a block sized by a ragged loop's index (`tl.zeros((b,), ...)`) carries the data into
#      `.shape`, a compile-time value; shapes, sizes and axes must be compile-time values
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    n = tl.load(x_ptr).to(tl.int32) * 0 + 2
    for b in range(n, n + 1):
        z = tl.zeros((b,), tl.float32)
        tl.store(out_ptr + offs, tl.maximum(x, tl.sum(z, axis=0)))


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        relu_kernel[(x.numel() // 1024,)](x, out, BLOCK=1024)
        return out

