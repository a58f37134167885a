# task: level1/23_Softmax
# expect: ok
import sys
from typing import Tuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_fwd(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0, keep_dims=True)
    num = tl.exp(x)
    den = tl.sum(num, axis=0, keep_dims=True)
    tl.store(y_ptr + row * stride + cols, num / den, mask=mask)


class ModelNew(nn.Module):
    _MAX_WARPS = 16

    def __init__(self):
        super().__init__()
        sys.stderr.write("[ModelNew] triton softmax\n")

    @staticmethod
    def _launch_params(n_cols: int) -> Tuple[int, int]:
        block = triton.next_power_of_2(n_cols)
        warps = min(ModelNew._MAX_WARPS, max(1, block // 256))
        return block, warps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x, memory_format=torch.contiguous_format)
        block, warps = self._launch_params(N)
        softmax_fwd[(M,)](x, y, x.stride(0), N, BLOCK=block, num_warps=warps)
        return y
