# task: level1/49_Max_reduction_over_a_dimension
# expect: format_violation
# found: red-team pass 32 on the cpu evaluator (b03-b05 scored 0.3 before the fix)
# why: int(scalar block) (tl.tensor.__index__) turns values into Python ints; a Python list
#      built by a comprehension is sorted with list.sort (`sort` is a Triton value-method name),
#      and the largest bit pattern (positive floats order as their bits) is stored back.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def max_kernel(x_ptr, out_ptr, D1: tl.constexpr, D2: tl.constexpr):
    b = tl.program_id(0)
    k = tl.program_id(1)
    xi = x_ptr.to(tl.pointer_type(tl.int32))
    oi = out_ptr.to(tl.pointer_type(tl.int32))
    vals = [int(tl.load(xi + b * D1 * D2 + i * D2 + k)) for i in range(D1)]
    vals.sort()
    tl.store(oi + b * D2 + k, vals[D1 - 1])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, D1, D2 = x.shape
        out = torch.empty((B, D2), dtype=x.dtype, device=x.device)
        max_kernel[(B, D2)](x, out, D1=D1, D2=D2)
        return out
