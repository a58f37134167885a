# task: level1/23_Softmax
# expect: ok
# why: `self._x` in a forward decorated @typing.final was not the module's own (false-rejection
#      probe 8)
# Row softmax, one program per row, the whole row in registers (next power of two of the width).
# The module keeps its launch choices as private state and marks forward @typing.final.
import typing

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_row_kernel(x_ptr, y_ptr, n_cols, sx, sy, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * sx + cols, mask=mask, other=float("-inf"))
    z = x - tl.max(x, axis=0)
    e = tl.exp(z)
    tl.store(y_ptr + row * sy + cols, e / tl.sum(e, axis=0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._num_warps = 8

    @typing.final
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n_rows, n_cols = x.shape
        y = torch.empty_like(x)
        softmax_row_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                                      BLOCK=triton.next_power_of_2(n_cols), num_warps=self._num_warps)
        return y
