# task: level1/26_GELU_
# expect: ok
# expect_cpu: runtime_error
# says: driver:
# why: the tutorials' device plumbing: `with torch.cuda.device(x.device.index):` around the launch
#      (fails on the cpu evaluator: no CUDA driver), torch.cuda.is_available() in a helper, GELU via tl.math.erf with
#      math.sqrt(0.5) computed in Python and passed as a float
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, inv_sqrt2, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = 0.5 * x * (1.0 + tl.math.erf(x * inv_sqrt2))
    tl.store(y_ptr + offs, y, mask=m)


def _num_warps() -> int:
    return 8 if torch.cuda.is_available() else 4


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        with torch.cuda.device(x.device.index):
            gelu_kernel[(triton.cdiv(n, 1024),)](x, y, n, math.sqrt(0.5), BLOCK_SIZE=1024, num_warps=_num_warps())
        return y
