# task: level1/19_ReLU
# expect: format_violation
# found: red-team pass 34 on the cpu evaluator (session 16)
# why: a ragged loop's index (the input's bits) passed as a helper's `tl.constexpr` parameter,
#      which inside the helper counted as compile-time (int(), tuple index); Triton refuses a
#      run-time value there, and so does the static check
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_bits(B: tl.constexpr):
    return (B, 0)[int(B) >> 31 & 1]


@triton.jit
def relu_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    xi = x_ptr.to(tl.pointer_type(tl.int32))
    oi = out_ptr.to(tl.pointer_type(tl.int32))
    base = tl.program_id(0) * BLOCK
    for j in range(0, BLOCK):
        v = tl.load(xi + base + j)
        for b in range(v, v + 1):
            tl.store(oi + base + j, relu_bits(b))


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        relu_kernel[(x.numel() // 1024,)](x, out, BLOCK=1024)
        return out

