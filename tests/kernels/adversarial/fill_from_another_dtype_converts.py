# task: level1/19_ReLU
# expect: forbidden_op
# found: red-team pass 51 (session 23; an int32 output filled element by element from float32
#        ones scored on a stand-in conversion task on the cpu evaluator)
# why: `fill_` with a 0-d tensor converts it to the filled tensor's dtype; here the kernel
#      writes the first result in float64 too and torch converts it into the output's first
#      element. fill_ from a tensor of another dtype is refused (guard: dtype conversion).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, wide_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0)
    tl.store(out_ptr + offs, y, mask=mask)
    tl.store(wide_ptr + offs, y.to(tl.float64), mask=offs < 1)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        wide = torch.empty(1, dtype=torch.float64, device=x.device)
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, wide, n, BLOCK=1024)
        out[0, 0].fill_(wide[0])
        return out
